import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A ninety-sixth held-out check (test/fixtures/prose-corpus-heldout-96, see its README): 20 Writer answers
// written once, by hand and blind, by helper hb96, who had not read the verifier, in the style of a model
// that writes prose with screen direction ("We see…", "Angle on…", sound cues in capitals). They were
// committed before any run; first run in session 29 (the README's "First run"). Where the verifier
// disagrees with `expect`, the entry says so (`known_miss`, `known_false_positive`, `known_soft`: "<codes>:
// reason") and this test asserts today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 96: fresh answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-96'),
  { clean: 7, controls: 6, defects: 7 },
);
