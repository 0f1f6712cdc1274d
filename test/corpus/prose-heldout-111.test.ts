import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A held-out check numbered 111 (test/fixtures/prose-corpus-heldout-111, see its README): 20 Writer
// answers written once, by hand and blind, by helper hb111, who had not read the verifier, and
// committed before any run; first run in session 31 (the README's "First run"). Where a run disagrees
// with `expect`, the entry says so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>:
// reason") and this test asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 111: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-111'),
  { clean: 7, controls: 6, defects: 7 },
);
