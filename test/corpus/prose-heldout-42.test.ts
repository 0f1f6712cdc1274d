import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A forty-second held-out check (test/fixtures/prose-corpus-heldout-42, see its README): 20 Writer
// answers written once, blind, by hand, by a writer who had not read the verifier, and committed
// before any run of the verifier on them. Where the verifier disagrees with `expect`, the entry
// will say so after the first run (`known_miss`, `known_false_positive`, `known_soft`: "<codes>:
// reason") and this test asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 42: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-42'),
  { clean: 7, controls: 6, defects: 7 },
);
