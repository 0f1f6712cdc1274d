import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A hundred-and-thirteenth held-out check (test/fixtures/prose-corpus-heldout-113, see its README):
// 20 Writer answers written once, by hand and blind, by helper hb113, a writer who had not read the
// verifier, every scene told in the second person ("you" is the scene's viewpoint cast member).
// They were committed with their `expect`, `span` and `code_family` before any run; first run in
// session 32 (the README's "First run"). Where the verifier disagrees with `expect`, the entry
// says so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>: reason") and this test
// asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 113: second-person answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-113'),
  { clean: 7, controls: 6, defects: 7 },
);
