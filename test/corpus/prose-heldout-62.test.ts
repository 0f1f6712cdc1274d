import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A sixty-second held-out check (test/fixtures/prose-corpus-heldout-62, see its README): 20 Writer
// answers written blind, once, by hand, by helper hb62, who had not read the verifier, in the
// manner of an over-formatting chat model (heavy markdown, bold speaker labels, script lines,
// beat lists and scene notes). Committed before any run; first run and fixes in the README.
// Where the verifier disagrees with `expect` after that run, the entry says so
// (`known_miss`, `known_false_positive`, `known_soft`: "<codes>: reason") and this test asserts
// today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 62: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-62'),
  { clean: 7, controls: 6, defects: 7 },
);
