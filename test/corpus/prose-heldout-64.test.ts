import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A sixty-fourth held-out check (test/fixtures/prose-corpus-heldout-64, see its README): 20 Writer
// answers written once, by hand, blind, by helper hb64, a writer who had not read the verifier,
// and committed before any run. First run and fixes in the README. Where the verifier disagrees
// with `expect` after that run, the entry says so (`known_miss`, `known_false_positive`,
// `known_soft`: "<codes>: reason") and this test asserts today's outcome (heldout-run.ts), so a
// fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 64: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-64'),
  { clean: 7, controls: 6, defects: 7 },
);
