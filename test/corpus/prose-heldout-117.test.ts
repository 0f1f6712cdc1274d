import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A hundred-and-seventeenth held-out check (test/fixtures/prose-corpus-heldout-117, see its README):
// 20 Writer answers written once, by hand and blind, by helper hb117, who had not read the verifier,
// in the voice of a fluent non-native writer. They were committed before any run; the first run has
// not happened yet. When it does, where the verifier disagrees with `expect` the entry will say so
// (`known_miss`, `known_false_positive`, `known_soft`: "<codes>: reason") and this test asserts
// today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 117: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-117'),
  { clean: 7, controls: 6, defects: 7 },
);
