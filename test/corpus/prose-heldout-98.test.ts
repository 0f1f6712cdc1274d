import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A held-out check written blind (test/fixtures/prose-corpus-heldout-98, see its README): 20 Writer
// answers written once, by hand, by helper hb98, who had not read the verifier, in a hedging,
// perception-bound narrator's voice. They were committed before any run: the first run has not
// happened yet, so no entry carries a `known_miss`, `known_false_positive` or `known_soft` note.
// Where the verifier disagrees with `expect` once it is run, the entry will say so ("<codes>:
// reason") and this test asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 98: hedging, perception-bound answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-98'),
  { clean: 7, controls: 6, defects: 7 },
);
