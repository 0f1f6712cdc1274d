import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A held-out check (test/fixtures/prose-corpus-heldout-71, see its README): 20 Writer answers
// written once, blind, by hand, by helper hb71, who had not read the verifier, and committed
// before any run. First run in session 27 (the README's "First run"). Where the verifier disagrees
// with `expect`, the entry says so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>:
// reason") and this test asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 71: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-71'),
  { clean: 7, controls: 6, defects: 7 },
);
