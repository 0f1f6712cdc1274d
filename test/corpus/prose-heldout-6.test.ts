import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A sixth held-out check (test/fixtures/prose-corpus-heldout-6, see its README): 20 Writer answers
// written once, by hand, after h45a's fixes (inverted subjects, "names" as a verb, talents at their
// lowest rate), without reading the verifier's or the Writer's source, and never edited to pass.
// The manifest's `expect` was committed (16d5036) before the first run. Where the verifier
// disagrees with it, the entry says so (`known_miss`, `known_false_positive`, `known_soft`:
// "<codes>: reason") and this test asserts today's outcome (heldout-run.ts), so a fix to the
// verifier flips the assertion visibly instead of passing quietly. Same packets, world and plan as
// the prose corpus; seven defect families this time (outcome and anachronism join the five).

describeHeldout(
  'held-out prose corpus 6: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-6'),
  { clean: 7, controls: 6, defects: 7 },
);
