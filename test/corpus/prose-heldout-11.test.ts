import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// An eleventh held-out check (test/fixtures/prose-corpus-heldout-11, see its README): 20 Writer
// answers written once, by hand, by a writer who had not read the verifier, committed (cae043d on
// the writer's branch, e5896a1 on main) before the first run, which measured session 21's
// past-tense reading. Where the verifier disagrees with `expect`, the entry says so (`known_miss`,
// `known_false_positive`, `known_soft`: "<codes>: reason") and this test asserts today's outcome
// (heldout-run.ts), so a fix flips the assertion visibly instead of passing quietly.

describeHeldout(
  'held-out prose corpus 11: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-11'),
  { clean: 7, controls: 6, defects: 7 },
);
