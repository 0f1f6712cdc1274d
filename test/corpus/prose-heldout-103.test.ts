import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A hundred-and-third held-out check (test/fixtures/prose-corpus-heldout-103, see its README): 20 Writer
// answers written once, by hand and blind, by helper hb103, who had not read the verifier, with dialogue
// that has no quotation marks. They were committed before any run; first run in session 30 (the README's
// "First run"). Where the verifier disagrees with `expect`, the entry says so (`known_miss`,
// `known_false_positive`, `known_soft`: "<codes>: reason") and this test asserts today's outcome
// (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 103: fresh answers without quotation marks, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-103'),
  { clean: 7, controls: 6, defects: 7 },
);
