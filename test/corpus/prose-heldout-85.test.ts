import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// An eighty-fifth held-out check (test/fixtures/prose-corpus-heldout-85, see its README): 20 Writer answers
// written once, by hand and blind, by helper hb85, who had not read the verifier, in the style of a lyrical
// model whose long sentences are built of participial phrases and absolute constructions. They were
// committed before any run; first run in session 29 (the README's "First run"). Where the verifier
// disagrees with `expect`, the entry says so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>:
// reason") and this test asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 85: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-85'),
  { clean: 7, controls: 6, defects: 7 },
);
