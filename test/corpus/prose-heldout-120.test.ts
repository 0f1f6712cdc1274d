import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A hundred-and-twentieth held-out check (test/fixtures/prose-corpus-heldout-120, see its README): 20
// Writer answers written once, by hand and blind, by helper hb120, who had not read the verifier, in
// a figurative, idiomatic voice (metaphors and similes that name people, money, travel, death and
// secrets, counterfactuals, wishes, dreams, proverbs), each planted defect a plain deed or statement
// set among the figures. The expectations were committed before any run; the first run has not
// happened yet. Where the verifier disagrees with `expect`, the entry will say so (`known_miss`,
// `known_false_positive`, `known_soft`: "<codes>: reason") and this test asserts today's outcome
// (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 120: fresh answers in a figurative voice, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-120'),
  { clean: 7, controls: 6, defects: 7 },
);
