import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A hundredth held-out check (test/fixtures/prose-corpus-heldout-100, see its README): 20 Writer
// answers written once, by hand and blind, by helper hb100, a writer who had not read the verifier,
// and committed before any run. The first run has not happened yet: until it does, no entry
// carries a `known_miss`, `known_false_positive` or `known_soft` note. Where the verifier then
// disagrees with `expect`, the entry will say so ("<codes>: reason") and this test will assert
// today's outcome (heldout-run.ts), so that a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 100: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-100'),
  { clean: 7, controls: 6, defects: 7 },
);
