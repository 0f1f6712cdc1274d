import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A held-out check numbered 119 (test/fixtures/prose-corpus-heldout-119, see its README): 20 Writer
// answers written blind, once, by hand, by helper hb119, who had not read the verifier, in the
// voice of a model whose English reads like a machine translation. The first run has not happened
// yet: the answers, the manifest's `expect` and the README were committed before any run. Where the
// verifier disagrees with `expect` after that run, the entry will say so (`known_miss`,
// `known_false_positive`, `known_soft`: "<codes>: reason") and this test asserts today's outcome
// (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 119: blind answers in non-native English, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-119'),
  { clean: 7, controls: 6, defects: 7 },
);
