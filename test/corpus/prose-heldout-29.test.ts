import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A twenty-ninth held-out check (test/fixtures/prose-corpus-heldout-29, see its README): 20 Writer
// answers written once, by hand, by a writer who had not read the verifier, committed (9dcfe6d on
// the writer's branch, 5330938 on main) before the first run, which measured session 22's
// verifier at 8fd85a2 (the session's final verifier). Where the verifier disagrees with
// `expect`, the entry says so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>:
// reason") and this test asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 29: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-29'),
  { clean: 7, controls: 6, defects: 7 },
);
