import { sentencesOf } from './parse.js';

/*
 * Whether an answer affirms the line it answers, shared by stage F (a question answered in a scene's dialogue,
 * exchange.ts) and play (an Actor's "Yes." to the user's line, play/exchange.ts).
 */

/**
 * A bare affirmation opening the answer, with nothing after it that takes any of it back: "Yes. Every as of it,
 * and every note." and "It is. Every sack." (held-out play set 2, pf11 and pf40), or a scene's "He does." to "Does
 * Crassus hold Caesar's notes?", affirm all of the question they answer. "Yes, but …", "Only the first part",
 * "Yes — the rumour, I mean" do not, and "No." denies.
 */
export function affirmsAll(said: string): boolean {
  const [first, ...rest] = sentencesOf(said);
  if (!first || !AFFIRMATION.test(first) || first.split(/\s+/).length > 8 || LIMITED.test(first.replace(NOT_WRONG, ''))) return false;
  // A short sentence after it that takes part back ("Yes. Not the notes."), not one that only says more ("You are only slow").
  return !rest.some((s) => /^[^\p{L}]*(?:but|only|except|not|no|yet|though|however|half)\b/iu.test(s) || (LIMITED.test(s.replace(/\b(?:only|but)\b/giu, '')) && s.split(/\s+/).length <= 6));
}

const AFFIRMATION = /^[^\p{L}]*(?:yes|aye|yea|true|indeed|certainly|of course|just so|quite so|it is|it was|it does|it did|they are|they were|they do|they did|he is|he was|he does|he did|she is|she was|she does|she did|so it is|so it was|so he does|so she does|i did|i do|i have|i am|all of it|that is so|that is true|you are right|you['’]re right|you are not wrong|you['’]re not wrong|they say right|they say true)\b/iu;

/** "You are not wrong" affirms: its "not" limits nothing. */
const NOT_WRONG = /\b(?:are|['’]re) not wrong\b/giu;

/** What limits or disowns an affirmation: a negation, a "but", a part of it, a rumour. */
const LIMITED = /\b(?:not|n['’]t|never|no|nor|but|only|except|part|half|some of|rumou?rs?|men say|they say|false|lie|lies)\b/iu;
