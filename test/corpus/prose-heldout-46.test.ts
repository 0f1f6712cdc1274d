import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A forty-sixth held-out check (test/fixtures/prose-corpus-heldout-46, see its README): 20 Writer
// answers written blind, once, by hand, by helper hb46, who had not read the verifier, in the
// "rich literary prose" register (long paragraphs, free indirect discourse, much reported speech),
// and committed before any run. The first run has not happened yet. Once it has, where the
// verifier disagrees with `expect` the entry will say so (`known_miss`, `known_false_positive`,
// `known_soft`: "<codes>: reason") and this test asserts today's outcome (heldout-run.ts), so a
// fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 46: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-46'),
  { clean: 7, controls: 6, defects: 7 },
);
