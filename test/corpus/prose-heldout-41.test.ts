import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A forty-first held-out check (test/fixtures/prose-corpus-heldout-41, see its README): 20 Writer
// answers written blind, once, by hand, by a writer (helper hb41) who had not read the verifier,
// and committed before any run. Where the verifier disagrees with `expect`, the entry will say so
// (`known_miss`, `known_false_positive`, `known_soft`: "<codes>: reason") once the first run is
// recorded, and this test asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 41: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-41'),
  { clean: 7, controls: 6, defects: 7 },
);
