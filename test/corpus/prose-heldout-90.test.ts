import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A ninetieth held-out check (test/fixtures/prose-corpus-heldout-90, see its README): 20 Writer
// answers written once, by hand, blind, by helper hb90, who had not read the verifier, and
// committed before any run. The first run has not happened yet: no entry carries a `known_*`
// note, so until that run records today's outcome (`known_miss`, `known_false_positive`,
// `known_soft`: "<codes>: reason"), this suite asserts the expectations as written.

describeHeldout(
  'held-out prose corpus 90: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-90'),
  { clean: 7, controls: 6, defects: 7 },
);
