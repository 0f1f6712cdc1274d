import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A seventy-first held-out check (test/fixtures/prose-corpus-heldout-71, see its README): 20 Writer
// answers written once, by hand and blind, by helper hb71, a writer who had not read the verifier,
// in a style fond of interiority (free indirect speech, plans, fears, wishes, rumours and mistaken
// beliefs), and committed before any run. The first run has not happened yet: no entry carries a
// `known_miss`, `known_false_positive` or `known_soft` note. Where the verifier disagrees with
// `expect` after that run, the entry will say so ("<codes>: reason") and this test asserts today's
// outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 71: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-71'),
  { clean: 7, controls: 6, defects: 7 },
);
