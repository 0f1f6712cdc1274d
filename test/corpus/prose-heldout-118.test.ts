import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A held-out check (test/fixtures/prose-corpus-heldout-118, see its README): 20 Writer answers
// written blind, once, by hand, by helper hb118, who had not read the verifier, in a style given
// to habitual and iterative narration ("would", "used to", "as was her custom") and
// flash-forwards. The answers, the manifest's `expect` and the README were committed before any
// run; the first run has not happened yet. Where a run disagrees with `expect`, the entry is to
// say so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>: reason") and this test
// asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 118: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-118'),
  { clean: 7, controls: 6, defects: 7 },
);
