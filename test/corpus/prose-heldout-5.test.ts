import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A fifth held-out check (test/fixtures/prose-corpus-heldout-5, see its README): 16 Writer answers
// written once, by hand, after the verifier learnt clauses, pronouns, quotations, asides, arrivals,
// who takes what and section headings, without reading the verifier's or the Writer's source, and
// never edited to pass. The manifest's `expect` was committed (b1fdac8) before the first run. Where
// the verifier disagrees with it, the entry says so (`known_miss`, `known_false_positive`,
// `known_soft`: "<codes>: reason") and this test asserts today's outcome (heldout-run.ts), so a fix
// to the verifier flips the assertion visibly instead of passing quietly. Same packets, world and
// plan as the prose corpus.

describeHeldout(
  'held-out prose corpus 5: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-5'),
  { clean: 6, controls: 5, defects: 5 },
);
