import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A thirty-seventh held-out check (test/fixtures/prose-corpus-heldout-37, see its README): 20 Writer
// answers written blind, once, by hand, in a clipped noir present tense, by a writer who had not read
// the verifier, and committed on the writer's branch before any run of the verifier on them. The
// expectations (`expect`, `span`, `code_family`) were fixed at that commit. Where a later run
// disagrees with `expect`, the entry will say so (`known_miss`, `known_false_positive`,
// `known_soft`: "<codes>: reason") and this test asserts today's outcome (heldout-run.ts), so a fix
// flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 37: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-37'),
  { clean: 7, controls: 6, defects: 7 },
);
