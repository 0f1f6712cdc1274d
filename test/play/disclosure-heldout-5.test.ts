import { describeDisclosureHeldout } from './disclosure-heldout-run.js';

// The fifth held-out set of play disclosures (test/fixtures/play-disclosure-heldout-5, see its
// README): 40 Actor answers written blind, by helper hbplay5, who had not read the Director's code,
// each with the secrets Cicero learns from it, committed before any run (first run, session 38: told 8/20,
// 11/20 and 12/20, controls 19/20, 20/20 and 18/20 on three Directors, its README says which; now 11/20 and
// 20/20). A case whose outcome differs
// carries `known_miss` / `known_false_positive` ("reason"), and the test asserts today's outcome, so a
// fix flips the assertion visibly.

describeDisclosureHeldout('held-out play disclosures 5: a secret is learned when the answer tells it, in a real model\'s words', 5);
