import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A seventeenth held-out check (test/fixtures/prose-corpus-heldout-17, see its README): 20 Writer
// answers written once, by hand, by a writer who had not read the verifier, committed (061a4a2 on
// the writer's branch, ea7d2d4 on main) before the first run, which measured session 21's
// past-tense reading and the mends from held-out 11 to 16. Where the verifier disagrees with `expect`,
// the entry says so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>: reason") and
// this test asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 17: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-17'),
  { clean: 7, controls: 6, defects: 7 },
);
