import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A ninety-eighth held-out check (test/fixtures/prose-corpus-heldout-98, see its README): 20 Writer
// answers written once, by hand and blind, by helper hb98, who had not read the verifier, in the style of
// a hedging, perception-bound narrator. They were committed before any run; first run in session 30 (the
// README's "First run"). Where the verifier disagrees with `expect`, the entry says so (`known_miss`,
// `known_false_positive`, `known_soft`: "<codes>: reason") and this test asserts today's outcome
// (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 98: hedging, perception-bound answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-98'),
  { clean: 7, controls: 6, defects: 7 },
);
