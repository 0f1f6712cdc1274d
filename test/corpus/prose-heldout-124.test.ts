import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A hundred-and-twenty-fourth held-out check (test/fixtures/prose-corpus-heldout-124, see its
// README): 20 Writer answers written once, blind, by helper hb124, who had not read the verifier,
// in a voice of negation, counterfactual and intention (what does not happen, what almost happens,
// what someone plans, fears, wishes or imagines, "if Catiline had lived…"), with `expect`, `span`
// and `code_family` committed before any run. First run (session 37): 5/7, 5/6, 6/7; after the mends its README
// lists, 7/7, 6/6, 7/7. Where the verifier disagrees with `expect`, the entry says so (`known_miss`,
// `known_false_positive`, `known_soft`: "<codes>: reason") and this test asserts today's outcome
// (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 124: fresh answers told through negation, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-124'),
  { clean: 7, controls: 6, defects: 7 },
);
