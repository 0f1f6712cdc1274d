import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A held-out check (test/fixtures/prose-corpus-heldout-109, see its README): 20 Writer answers
// told in the first person by a cast member, written once, by hand and blind, by helper hb109, who
// had not read the verifier. `expect` was committed before any `aureus scene verify` of these answers;
// first run in session 31 (the README's "First run"). Where the verifier disagrees with `expect`, the
// entry says so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>:
// reason") and this test asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 109: first-person answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-109'),
  { clean: 7, controls: 6, defects: 7 },
);
