import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A thirty-ninth held-out check (test/fixtures/prose-corpus-heldout-39, see its README): 20 Writer
// answers written once, blind, by hand, by a writer who had not read the verifier, and committed
// before any run of the verifier on them. Where a later run disagrees with `expect`, the entry is to
// say so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>: reason") and this test then
// asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 39: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-39'),
  { clean: 7, controls: 6, defects: 7 },
);
