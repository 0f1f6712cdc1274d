import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A thirty-sixth held-out check (test/fixtures/prose-corpus-heldout-36, see its README): 20 Writer
// answers written once, by hand, blind, by a writer who had not read the verifier, and committed
// before any run of the verifier on them. Their expectations are recorded after the first run:
// where the verifier disagrees with `expect`, the entry will say so (`known_miss`,
// `known_false_positive`, `known_soft`: "<codes>: reason") and this test asserts today's outcome
// (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 36: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-36'),
  { clean: 7, controls: 6, defects: 7 },
);
