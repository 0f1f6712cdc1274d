import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A held-out check in one voice (test/fixtures/prose-corpus-heldout-122, see its README): 20 Writer
// answers written blind, by hand, by helper hb122, who had not read the verifier, in a long,
// nested-sentence voice (clauses stacked deep, parentheses and em-dash asides, late main verbs),
// with each control's and each planted defect's fact set inside a subordinate or parenthetical
// clause. The answers, their `expect`, `span` and `code_family` were committed before any run;
// the first run has not happened yet. Where the verifier disagrees with `expect`, the entry will
// say so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>: reason") and this test
// asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 122: nested-sentence answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-122'),
  { clean: 7, controls: 6, defects: 7 },
);
