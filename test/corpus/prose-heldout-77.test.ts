import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A seventy-seventh held-out check (test/fixtures/prose-corpus-heldout-77, see its README): 20 Writer
// answers written once, by hand and blind, by helper hb77, a writer who had not read the verifier, in the
// voice of a model that plays with time inside a scene (flashbacks, flash-forwards, conditionals). They
// were committed before any run; first run in session 28 (the README's "First run"). Where the verifier
// disagrees with `expect`, the entry says so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>:
// reason") and this test asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 77: time-shifting answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-77'),
  { clean: 7, controls: 6, defects: 7 },
);
