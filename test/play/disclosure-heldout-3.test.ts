import { describeDisclosureHeldout } from './disclosure-heldout-run.js';

// The third held-out set of play disclosures (test/fixtures/play-disclosure-heldout-3, see its
// README): 40 Actor answers written blind, by helper hbplay3, who had not read the Director's code,
// each with the secrets Cicero learns from it, committed before any run (first run, session 38: told 4/20,
// controls 18/20 with the answer read alone, 8/20 and 19/20 with exchange.ts's first version; after the mends its
// README lists, 11/20 and 19/20). A case whose outcome differs
// carries `known_miss` / `known_false_positive` ("reason"), and the test asserts today's outcome, so a
// fix flips the assertion visibly.

describeDisclosureHeldout('held-out play disclosures 3: a secret is learned when the answer tells it, in a real model\'s words', 3);
