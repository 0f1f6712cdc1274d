import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A fifty-third held-out check (test/fixtures/prose-corpus-heldout-53, see its README): 20 Writer
// answers written once, by hand, by a writer (helper hb53) who had not read the verifier, in a
// style that mixes prose with bracketed stage directions and NAME: speech lines, committed before
// any run. The first run has not happened yet. Where the verifier disagrees with `expect` after
// that run, the entry will say so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>:
// reason") and this test asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 53: fresh answers with stage directions, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-53'),
  { clean: 7, controls: 6, defects: 7 },
);
