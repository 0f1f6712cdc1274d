import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A hundred-and-fourteenth held-out check (test/fixtures/prose-corpus-heldout-114, see its README):
// 20 Writer answers in the form of a stage play, written once, by hand and blind, by helper hb114,
// who had not read the verifier, and committed before any run; first run in session 32 (the
// README's "First run"). Where the verifier disagrees with `expect`, the entry says so (`known_miss`,
// `known_false_positive`, `known_soft`: "<codes>: reason") and this test asserts today's outcome
// (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 114: fresh stage-play answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-114'),
  { clean: 7, controls: 6, defects: 7 },
);
