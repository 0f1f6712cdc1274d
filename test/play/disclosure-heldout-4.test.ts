import { describeDisclosureHeldout } from './disclosure-heldout-run.js';

// The fourth held-out set of play disclosures (test/fixtures/play-disclosure-heldout-4, see its
// README): 40 Actor answers written blind, by helper hbplay4, who had not read the Director's code,
// each with the secrets Cicero learns from it, committed before any run (first run, session 38: told 11/20, controls
// 20/20; 8/20 and 20/20 with the Director before exchange.ts; after the mends its README lists and the one taken back, 11/20 and 20/20). A case whose outcome differs
// carries `known_miss` / `known_false_positive` ("reason"), and the test asserts today's outcome, so a
// fix flips the assertion visibly.

describeDisclosureHeldout('held-out play disclosures 4: a secret is learned when the answer tells it, in a real model\'s words', 4);
