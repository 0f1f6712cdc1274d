import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A hundred-and-fifteenth held-out check (test/fixtures/prose-corpus-heldout-115, see its README):
// 20 Writer answers written once, by hand, blind, by helper hb115, who had not read the verifier,
// in a period-steeped style (names varied by praenomen, nomen, cognomen, office and origin; Latin
// words for coins, offices and rooms; Roman hours and dates). Committed before any run; first run in
// session 33 (the README's "First run"). Where the verifier disagrees with `expect`, the entry says
// so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>: reason") and this test asserts
// today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 115: period-steeped answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-115'),
  { clean: 7, controls: 6, defects: 7 },
);
