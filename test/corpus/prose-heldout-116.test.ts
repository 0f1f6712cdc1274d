import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A held-out check (test/fixtures/prose-corpus-heldout-116, see its README): 20 Writer answers in
// the diction of an old English translation of Plutarch, written once, by hand and blind, by helper
// hb116, who had not read the verifier, and committed before any run; first run in session 33 (the
// README's "First run"). Where the verifier disagrees with `expect`, the entry says so (`known_miss`,
// `known_false_positive`, `known_soft`: "<codes>: reason") and this test asserts today's outcome
// (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 116: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-116'),
  { clean: 7, controls: 6, defects: 7 },
);
