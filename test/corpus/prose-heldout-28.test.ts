import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A twenty-eighth held-out check (test/fixtures/prose-corpus-heldout-28, see its README): 20 Writer
// answers written once, by hand, by a writer who had not read the verifier, committed (0de1139 on
// the writer's branch, 6d06d44 on main) before the first run, which measured session 22's
// verifier at 8fd85a2 (the session's final verifier). Where the verifier disagrees with
// `expect`, the entry says so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>:
// reason") and this test asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 28: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-28'),
  { clean: 7, controls: 6, defects: 7 },
);
