import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A thirty-second held-out check (test/fixtures/prose-corpus-heldout-32, see its README): 20 Writer
// answers written once, blind, by a writer who had not read the verifier, and committed before any
// run. Their expectations (`expect`, `span`, `code_family`) were fixed before the first run; where a
// run finds the verifier disagreeing, the entry will say so (`known_miss`, `known_false_positive`,
// `known_soft`: "<codes>: reason") and this test asserts today's outcome (heldout-run.ts), so a fix
// flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 32: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-32'),
  { clean: 7, controls: 6, defects: 7 },
);
