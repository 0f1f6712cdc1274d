import { describeDisclosureHeldout } from './disclosure-heldout-run.js';

// The first held-out set of play disclosures (test/fixtures/play-disclosure-heldout-1, see its
// README): 40 Actor answers written blind, by helper hbplay, who had not read the Director's code,
// each with the secrets Cicero learns from it, committed before any run (first run, session 37: told 6/20,
// controls 19/20; after the mends its README lists, 15/20 and 20/20; after session 38's, 16/20 and 20/20). A case whose outcome differs
// carries `known_miss` / `known_false_positive` ("reason"), and the test asserts today's outcome, so a
// fix flips the assertion visibly.

describeDisclosureHeldout('held-out play disclosures 1: a secret is learned when the answer tells it, in a real model\'s words', 1);
