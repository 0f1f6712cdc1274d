import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A held-out check (test/fixtures/prose-corpus-heldout-107, see its README): 20 Writer answers
// written blind, once, by hand, by helper hb107, who had not read the verifier, in a quotation-less
// literary dialogue style. The answers, the manifest's `expect`, `span` and `code_family` and the README
// were committed before any `aureus scene verify` of them; first run in session 31 (the README's "First
// run"). Where a run disagrees with `expect`, the entry says so (`known_miss`, `known_false_positive`,
// `known_soft`: "<codes>: reason") and this test asserts today's outcome (heldout-run.ts), so that a
// fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 107: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-107'),
  { clean: 7, controls: 6, defects: 7 },
);
