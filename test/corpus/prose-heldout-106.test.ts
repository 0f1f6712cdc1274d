import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A held-out check written blind (test/fixtures/prose-corpus-heldout-106, see its README): 20 Writer
// answers written once, by hand, by helper hb106, who had not read the verifier, each scene told
// through the eyes of an invented servant or minor figure in the room. The answers, the manifest
// (`expect`, `span`, `code_family`) and the README were committed before any run; the first run has
// not happened yet. Where the verifier disagrees with `expect`, the entry will say so (`known_miss`,
// `known_false_positive`, `known_soft`: "<codes>: reason") and this test asserts today's outcome
// (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 106: observer-told answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-106'),
  { clean: 7, controls: 6, defects: 7 },
);
