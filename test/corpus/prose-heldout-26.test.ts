import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A twenty-sixth held-out check (test/fixtures/prose-corpus-heldout-26, see its README): 20 Writer
// answers written once, by hand, by a writer who had not read the verifier, committed (5ca7f45 on
// the writer's branch, 1e7164a on main) before the first run, which measured session 22's
// verifier at ea4bee5 (after the mends of held-out 16 to 25). Where the verifier disagrees with
// `expect`, the entry says so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>:
// reason") and this test asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 26: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-26'),
  { clean: 7, controls: 6, defects: 7 },
);
