import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A sixty-first held-out check (test/fixtures/prose-corpus-heldout-61, see its README): 20 Writer
// answers written once, by hand, by helper hb61, who wrote them blind (without reading the
// verifier, the Writer or any other corpus's answers), and committed them before any run. The
// first run has not happened yet: no entry carries a `known_miss`, `known_false_positive` or
// `known_soft` note. When it happens and the verifier disagrees with `expect`, the entry will say
// so ("<codes>: reason") and this test will assert today's outcome (heldout-run.ts), so a fix
// flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 61: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-61'),
  { clean: 7, controls: 6, defects: 7 },
);
