import path from 'node:path';
import { describeHeldout } from './heldout-run.js';

// A hundred-and-twenty-seventh held-out check (test/fixtures/prose-corpus-heldout-127, see its
// README): 24 Writer answers written once, blind, by helper ho127, who had not read the verifier,
// screenplay-heavy (sluglines, parentheticals, V.O. and O.S. cues, INTERCUT, MONTAGE, FLASHBACK,
// title cards, ```fountain fences) with quick dialogue under said-tags, with `expect`, `span` and
// `code_family` committed before any run. Ten planted defects of nine families (two of presence:
// an O.S. cue and a said-tag). Where the verifier disagrees with `expect`, the entry says so
// (`known_miss`, `known_false_positive`, `known_soft`: "<codes>: reason") and this test asserts
// today's outcome (heldout-run.ts), so a fix flips the assertion visibly.

describeHeldout(
  'held-out prose corpus 127: screenplay-heavy answers, expectations written before the run',
  path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-heldout-127'),
  { clean: 8, controls: 6, defects: 10, families: 9 },
);
