import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A hundred-and-twenty-fifth held-out check (test/fixtures/prose-corpus-heldout-125, see its
// README): 20 Writer answers written once, blind, by helper hb125, who had not read the verifier,
// in the voice of a chorus, a first-person plural narrator ("we": the household's slaves, the
// callers in the atrium, the boatmen on the quay, the women at the fountain) that watches,
// overhears, guesses and gossips, with `expect`, `span` and `code_family` committed before any
// run. First run (session 37): 5/7, 3/6, 4/7; after the mends its README lists, 6/7, 6/6, 5/7. Where the
// verifier disagrees with `expect` after it,
// the entry will say so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>: reason")
// and this test asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 125: fresh answers told by a chorus, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-125'),
  { clean: 7, controls: 6, defects: 7 },
);
