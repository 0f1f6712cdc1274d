import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// An eighty-fifth held-out check (test/fixtures/prose-corpus-heldout-85, see its README): 20 Writer
// answers written once, by hand, blind, by helper hb85, a writer who had not read the verifier,
// and committed before any run. The first run has not happened yet: no entry carries a
// `known_miss`, `known_false_positive` or `known_soft` note so far. Where the first run disagrees
// with `expect`, the entry will say so ("<codes>: reason") and this test will assert today's
// outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 85: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-85'),
  { clean: 7, controls: 6, defects: 7 },
);
