import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A hundred-and-twenty-first held-out check (test/fixtures/prose-corpus-heldout-121, see its
// README): 20 Writer answers written blind, once, by hand, by helper hb121, who had not read the
// verifier, in a clipped, fast-paced voice (fragments, verbless lines, untagged dialogue, action
// in noun phrases), with every `expect` committed before any run. The first run has not happened
// yet. Where the verifier disagrees with `expect`, the entry will say so (`known_miss`,
// `known_false_positive`, `known_soft`: "<codes>: reason") and this test asserts today's outcome
// (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 121: fresh answers in a clipped voice, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-121'),
  { clean: 7, controls: 6, defects: 7 },
);
