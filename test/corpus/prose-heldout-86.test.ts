import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A held-out check (test/fixtures/prose-corpus-heldout-86, see its README): 20 Writer answers
// written blind, once, by hand, by helper hb86, who had not read the verifier, and committed with
// their `expect`, `span` and `code_family` before any run. The first run has not happened yet: no
// entry carries a `known_miss`, `known_false_positive` or `known_soft` note. Where the first run
// disagrees with `expect`, the entry will say so ("<codes>: reason") and this test will assert
// today's outcome (heldout-run.ts), so that a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 86: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-86'),
  { clean: 7, controls: 6, defects: 7 },
);
