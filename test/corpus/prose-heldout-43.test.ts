import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A forty-third held-out check (test/fixtures/prose-corpus-heldout-43, see its README): 20 Writer
// answers written once, by hand, blind (by a writer who had not read the verifier, the Writer or
// any other corpus's answers), and committed on the writer's branch before any run. Their
// expectations were recorded before the verifier ever saw them. Where the verifier disagrees with
// `expect`, the entry will say so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>:
// reason") and this test asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 43: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-43'),
  { clean: 7, controls: 6, defects: 7 },
);
