import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A sixty-eighth held-out check (test/fixtures/prose-corpus-heldout-68, see its README): 20 Writer
// answers written blind, once, by hand, by helper hb68, who had not read the verifier, and
// committed before any run. The first run has not happened yet: until it does, no entry carries a
// `known_miss`, `known_false_positive` or `known_soft` note. Where the verifier then disagrees with
// `expect`, the entry says so ("<codes>: reason") and this test asserts today's outcome
// (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 68: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-68'),
  { clean: 7, controls: 6, defects: 7 },
);
