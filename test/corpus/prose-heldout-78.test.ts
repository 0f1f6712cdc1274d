import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A seventy-eighth held-out check (test/fixtures/prose-corpus-heldout-78, see its README): 20 Writer
// answers written once, by hand, by a writer (helper hb78) who had not read the verifier, in the
// heavy-markdown style of a model that wraps its answer in apparatus (beat tables, footnotes, section
// breaks, self-review notes), committed before any run. First run in session 28 (the README's "First run").
// Where the verifier disagrees with `expect`, the entry says so (`known_miss`, `known_false_positive`,
// `known_soft`: "<codes>: reason") and this test asserts today's outcome (heldout-run.ts), so a fix flips
// the assertion visibly.

describeHeldout(
  'held-out prose corpus 78: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-78'),
  { clean: 7, controls: 6, defects: 7 },
);
