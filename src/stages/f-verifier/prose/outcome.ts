import type { ScenePacket } from '../../../domain/packet.js';
import { A_HOLD, ELEMENTS } from './compliance.js';
import { PUT_BACK_AFTER } from './object-phrase.js';
import { WRITTEN } from './reading.js';

/**
 * Depictions of an attempt coming off: the thing handed over and taken, the door giving way, the
 * crowd following, the victim finished (the prize owned: belongingsIn). Said of any operator, they
 * contradict a beat planned to fail. Third person only: an imperative in speech ("Take it and go") asks, it does not show,
 * and "we are finished, you and I" (held-out corpus 19, f20) ends a friendship, not a victim.
 * "Takes it as a warning", "takes it amiss": a reading of a sign or a slight, not a prize taken; "takes it
 * out" (held-out corpus 20, e04), also "halfway out" (held-out corpus 27, o16), brings one's own thing out;
 * "takes it straight to Cicero" (held-out corpus 44, aq20) carries a thing on (compliance.ts reads a
 * narrated taking and to whom it goes);
 * "the flame takes it", "the river takes them" (held-out corpus 48, au04): a thing burnt or lost;
 * "boast in triumphs", "his wins", "his own triumphs": nouns after a preposition or determiner, not a victory now;
 * "the one that wins juries and widows" (held-out corpus 43, ap07): a relative clause of what always wins;
 * "wins a little of it back" (held-out corpus 19, f05): a part regained, not the attempt won; "lets go of
 * his wrist" (held-out corpus 24, a07): a hand released, not a thing handed over.
 * "Gives in" ends its clause or yields to someone: "the speech he gave in the Subura" is a place.
 */
/** Before "hands", words that make it the noun: "sits with both hands over it" holds the thing, and hands nothing over (held-out corpus 67, bn16). */
const HANDS_NOUN = String.raw`(?:both|his|her|their|two|my|your|our|its|the|with|whose)`;
/**
 * A written thing or a purse passing from one hand to another's: the handing, told with the thing as
 * subject ("The tablet goes from his hand to hers under the fold of her veil": held-out corpus 9, s17;
 * "the tablets passed from his fingers into her own": 64, bk17), or in the passive ("the tablet is passed
 * from Crassus' hand into Terentia's": 6, v17).
 */
/** A thing's passing, with the thing as subject or in the passive: "goes from", "is passed from" (beats.ts reads it too). */
export const PASSES_FROM = String.raw`(?:(?:is|was|are|were)\s+)?(?:goes|went|passes|passed|handed|slides|slid|moves|moved)\s+from`;
const PASSED_HAND = String.raw`(?:${WRITTEN}|purse|bag|bundle)\s+${PASSES_FROM}\s+(?:his|her|their|\p{Lu}\p{L}+['’]s?)\s+(?:own\s+)?(?:hand|hands|fingers|grip)\s+(?:to|into)\s+(?:hers|his|theirs|(?:her|his|their|\p{Lu}\p{L}+['’]s?)(?:\s+own)?(?:\s+(?:hand|hands|fingers|lap|sleeve))?)`;
/**
 * A crowd's acclaim: someone carried on its shoulders or his name chanted ("then the whole quay is chanting it, and
 * they lift him off the crates onto their shoulders and carry him the length of the grain wharf": held-out corpus 84,
 * ce17). The crowd has answered him.
 */
const SHOULDERS = String.raw`\s+(?:him|her)\s+(?:[\w'’-]+\s+){0,5}?(?:onto|on|upon)\s+(?:their|its)\s+shoulders|\s+(?:him|her)\s+shoulder-high`;
const ACCLAIM_NOW = String.raw`(?:lifts?|lifting|hoists?|hoisting|raises?|raising|carry|carries|carrying)${SHOULDERS}|(?:chants?|chanting)\s+(?:his|her)\s+name`;
const ACCLAIM_PAST = String.raw`(?:lifted|hoisted|raised|carried)${SHOULDERS}|chanted\s+(?:his|her)\s+name`;
/** A thing that "lets go" of where it hung ("a tile lets go of a roof in the sea wind": held-out corpus 70, bq05): no one letting go. */
export const LOOSE_THING = String.raw`(?:tiles?|shutters?|ropes?|stones?|branch|branches|sails?|boards?|beams?|hooks?|chains?|latch|pegs?|nails?|bricks?|slates?)`;
const PASSED = new RegExp(String.raw`\b${PASSED_HAND}`, 'iu');
const SUCCESS = new RegExp(String.raw`\b(?:(?<!\b${LOOSE_THING}\s)lets go(?! ${A_HOLD})(?: of)?|(?<!\b${HANDS_NOUN}\s)(?:hands (?:it|them|the \w+) over|hands over)|(?:door|doors|gate|gates|lock|locks|bar|bars|wall|walls|barricade|shutters?)\s+gives?\s+way|gives in(?=\s*(?:[,.;:!?—–]|$|to\b|at last\b|and\b))|(?<!\b${ELEMENTS}\s)takes (?:it|them)\b(?!\s+(?:(?:halfway|partly|half|part of the way|partway|a little way)\s+)?(?:as|for|(?:(?:straight|directly|right|along|on|up|down|across|over)\s+)?(?:to|into)|amiss|badly|ill|personally|lightly|off|down|away|back|apart|out)\b)(?!${PUT_BACK_AFTER})|accepts (?:it|them|the)|(?<!\b(?:we|you)\s|\bwhen\s+(?:it|(?:the|a|an|his|her|its|their)\s+[\w-]+)\s)(?:is|are) finished|(?:succeeds|has succeeded|(?<!\b(?:in|of|at|on|by|for|after|from|with|about|the|a|his|her|their|its|our|your|my|own|these|those|many|all|such|no|past|old|great|that|which|who)\s)(?:triumphs|wins(?!\s+(?:a\s+little|a\s+few|some|little|nothing|no)\b))|has won)\b|carries the day|safe in (?:her|his|their)|(?:follows?|following|pours?|pouring|streams?|streaming|surges?|surging) after (?:him|her|them)|the deal is struck|agreed, then|${ACCLAIM_NOW})\b`, 'i');
/** The same idioms in the simple past, read in a scene told in the past (tense.ts; held-out corpus 14, m17). */
const SUCCESS_PAST = new RegExp(String.raw`\b(?:let go (?!${A_HOLD})of|handed (?:it|them|the \w+) over|handed over|(?:door|doors|gate|gates|lock|locks|bar|bars|wall|walls|barricade|shutters?)\s+gave\s+way|gave in(?=\s*(?:[,.;:!?—–]|$|to\b|at last\b|and\b))|(?<!\b(?:we|you)\s|\bwhen\s+(?:it|(?:the|a|an|his|her|its|their)\s+[\w-]+)\s)(?:was|were) finished|succeeded|carried the day|(?:followed|poured|streamed|surged) after (?:him|her|them)|the deal was struck|${ACCLAIM_PAST})\b`, 'i');
/**
 * Negations (a negative subject too: "neither of them lets go", held-out corpus 58, be12), near-misses and hopes, a "will"
 * or "would" contracted too ("they'll carry him to Rome on their shoulders": held-out corpus 94, co12): the attempt did not come off.
 */
const UNDONE = /\b(?:not|never|no one|nobody|neither|none|nor|cannot|can't|won't|doesn't|don't|does not|nearly|almost|seems|as if|would|could|might|will|next time|if|unless|refuses?|fails?|failed|instead|for a moment)\b|\w['’](?:ll|d)\b|\?/i;

/** Closure in a cliffhanger's last lines: the open question answered. */
const CLOSURE = /\b(?:all is well|all will be well|(?:the )?matter is (?:closed|settled|ended|over)|it is (?:settled|over|done|finished)|(?:we|you|they) (?:are|were) safe|part (?:as )?friends|at peace|nothing (?:more )?(?:will|can) come of|no harm (?:done|came)|(?:was|were) only an? |it was nothing|everything is resolved|reconciled|forgiven|the danger (?:is|has) passed)\b/i;
/**
 * The same closures told in the past, read in a scene told in the past (tense.ts; held-out corpus 126, du22: "In the
 * end it all came right. Servilia forgave him before the month was out, …; … the three of them never spoke of it
 * again."): a present-tense scene's simple past is backstory. A forgiving denied or withheld is none ("never forgave",
 * "would never forgive", "forgave him nothing").
 */
const CLOSURE_PAST = /\b(?:all was well|(?:the )?matter was (?:closed|settled|ended)|it was settled|(?:they|we) (?:were|had been) reconciled|(?<!\b(?:never|not|hardly|scarcely|nor)\s+)forgave (?:him|her|them|me|us|you|each other|one another|it|everything)(?!\s+(?:nothing|little)\b)|made (?:it up|(?:their|his|her) peace)|never (?:spoke|talked) of it again)\b/i;
/** A turn for the good in any tense ("it all came right", "everything comes right in the end"); "nothing came right" is none. */
const CAME_RIGHT = /\b(?:it all|all|everything|things|it)\s+(?:(?:came|comes|come|turned out|turns out|had come)\s+right)\b/i;
/** Irony or disbelief that keeps the question open. */
const DISBELIEF = /\b(?:neither|nobody|no one|does not|doesn't|do not)\b[^.]*\bbelieves?\b|\bpretend|\blie\b|\bfor now\b|\bor so\b/i;
/**
 * A closing line that says the question still waits (held-out corpus 45, ar16: '"Nothing," he says.
 * "It was nothing."' then "…, and Servilia is still waiting for an answer."): the closure said before
 * it is an evasion, not the answer.
 */
const STILL_OPEN = /\b(?:(?:waiting|waits|waited) for (?:an?|his|her|their|the) (?:answer|reply|truth)|(?:the|her|his|their) question (?:still )?(?:hangs|hung|stands|stood)|unanswered|(?:does|did) not believe (?:him|her|them|it|a word)|(?:doesn't|didn't) believe (?:him|her|them|it|a word))\b/i;

/** The idiom by which the sentence depicts an attempt succeeding, undenied, or null; `past`: narration of a scene told in the past. */
export function successIdiom(sentence: string, past = false): RegExpExecArray | null {
  // A thing passing from hand to hand is undone only by what comes before it: "… so smoothly that even
  // the priest at the altar does not see it" denies the seeing, not the passing (held-out corpus 9, s17).
  const passed = PASSED.exec(sentence);
  if (passed && !UNDONE.test(sentence.slice(0, passed.index + passed[0].length))) return passed;
  if (UNDONE.test(sentence)) return null;
  const now = SUCCESS.exec(sentence);
  if (now || !past) return now;
  // Told in the past, the past perfect is backstory: "He had handed over better men than Clodius with less, and slept
  // afterward." (held-out corpus 88, ci04).
  const then = SUCCESS_PAST.exec(sentence);
  return then && !/\bhad\s+(?:\p{L}+\s+)?$/iu.test(sentence.slice(0, then.index)) ? then : null;
}
/**
 * An idiom of giving in: whose it is matters (the beat's own actor gives the attempt up; beats.ts).
 * Not "lets go": an actor letting go of a tablet held out hands it over (prose corpus p049).
 */
export const YIELDING_IDIOM = /^(?:gives? in|gave in)\b/i;

const BELONGS = /\bbelongs? to\b/gi;
/** Where a clause ends, either side of "belongs to". */
const CLAUSE_MARK = /[,;:—–()!.]/;

/** A clause of owning, split at "belongs to": the thing owned and its owner. */
export interface Belonging {
  owned: string;
  owner: string;
}

/**
 * The clauses where something is said to belong to someone, undenied: "By noon, Ostia belongs to
 * Clodius" → owned "Ostia", owner "Clodius". Owning is the success of a beat only when it names one
 * of the beat's people or the crowd (beats.ts): "his house belongs to its lamps and its slaves", "a
 * voice that belongs to neither of them" describe, they do not tell a prize won.
 */
export function belongingsIn(sentence: string): Belonging[] {
  if (UNDONE.test(sentence)) return [];
  const out: Belonging[] = [];
  for (const m of sentence.matchAll(BELONGS)) {
    let start = m.index;
    while (start > 0 && !CLAUSE_MARK.test(sentence[start - 1])) start--;
    const tail = sentence.slice(m.index + m[0].length);
    const end = tail.search(CLAUSE_MARK);
    out.push({ owned: sentence.slice(start, m.index), owner: end < 0 ? tail : tail.slice(0, end) });
  }
  return out;
}

export function endsOnCliffhanger(p: ScenePacket): boolean {
  return p.director_instructions.sequence.some((s) => s.tag === 'cliffhanger') || /cliffhanger/i.test(p.constraints.hook_requirement);
}

/**
 * Resolution in a closing sentence: 'sure', 'doubtful' (irony in it or the next sentence, or a later
 * closing line that says the question still waits) or null. `later`: the closing sentences after it, in order.
 * `past`: the sentence is narration of a scene told in the past (CLOSURE_PAST).
 */
export function closes(sentence: string, later: readonly string[], past = false): 'sure' | 'doubtful' | null {
  if (!(CLOSURE.test(sentence) || CAME_RIGHT.test(sentence) || (past && CLOSURE_PAST.test(sentence))) || /\?/.test(sentence)) return null;
  return DISBELIEF.test(sentence) || DISBELIEF.test(later[0] ?? '') || later.some((x) => STILL_OPEN.test(x)) ? 'doubtful' : 'sure';
}
