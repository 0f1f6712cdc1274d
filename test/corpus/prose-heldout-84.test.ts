import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// An eighty-fourth held-out check (test/fixtures/prose-corpus-heldout-84, see its README): 20 Writer
// answers written once, by hand and blind, by helper hb84, who had not read the verifier, in a
// style that tells scenes through negation (litotes, denials, near misses of action,
// counterfactuals, unanswered questions, refusals), with each planted defect in a plain
// affirmative sentence among the negatives. Committed before any run: the first run has not
// happened yet, so no entry carries a `known_*` note. Where the verifier disagrees with `expect`
// after that run, the entry will say so (`known_miss`, `known_false_positive`, `known_soft`:
// "<codes>: reason") and this test asserts today's outcome (heldout-run.ts), so a fix flips the
// assertion visibly.

describeHeldout(
  'held-out prose corpus 84: answers written through negation, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-84'),
  { clean: 7, controls: 6, defects: 7 },
);
