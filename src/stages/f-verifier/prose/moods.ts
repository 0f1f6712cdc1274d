/**
 * The "not now" words: modals, future markers, aims and plans that keep a verb from telling a deed or a state of the
 * scene's now. Three readers ask for them, each in its own place and with its own set:
 * - MODAL_AUX (compliance.ts, success-words.ts): a verb of handing or a word of success under a modal or an aim ("would
 *   give", "tries to hand") is not done;
 * - TO_COME (death.ts): a death planned, willed or bequeathed ("will go to his nephew after his death") is no death;
 * - SENTENCE_NOT_NOW (tense.ts): a clause of time takes its time from a main clause told as future or supposed ("When
 *   Terentia hears of it, she will not forgive him").
 * The sets are built here from named parts, so what one has and another lacks is said below, not found by comparing
 * three lists. They were three lists that had drifted apart: this module keeps every set exactly as it was (no
 * verdict moved); where a difference is drift rather than design, its comment says so.
 */

/** The modals of future, condition and obligation: in every set. */
const FUTURE_MODALS = String.raw`will|shall|would|could|might|must`;
/**
 * Modals of permission, ability and duty. Not in SENTENCE_NOT_NOW: a clause of time's sentence with "can", "may" or
 * "should" may tell an ability or a chance in the scene's now ("When Cato comes in, he can see the tablet"), while the
 * other two sets read them on the verb itself ("may give", "can hand"), where the verb is surely not done.
 */
const LOOSE_MODALS = String.raw`should|may|can`;
/**
 * Negated futures. Only SENTENCE_NOT_NOW has them: `\bwill\b` and `\bwould\b` do not match "won't" or "wouldn't", so
 * the other sets miss them (drift, kept: MODAL_AUX reads compromise's auxiliary, TO_COME a death to come, where a
 * negated future is rare).
 */
const NEGATED_FUTURES = String.raw`won['’]t|wouldn['’]t`;
/** A future told by a plan at hand: in every set. */
const GOING_TO = 'going to';
/**
 * Aims that leave the verb after "to" only intended ("was about to give", "tries to hand"): MODAL_AUX's, read on a
 * verb of handing. TO_COME has its own wider list of plans and wishes (PLANS), a death's; SENTENCE_NOT_NOW none, as a
 * clause of time under an aim ("When she comes, he means to tell her") is rare.
 */
const AIMS = String.raw`about to|meant to|means to|tries to|tried to|trying to|wants? to|wanted to|hopes? to|hoped to`;
/**
 * Plans, wishes and a testament: a death "after his death" that is to come (TO_COME only). Wider than AIMS: "wants",
 * "wanted" without "to" ("wants his death"), "is to", "was to", and the words of a will.
 */
const PLANS = String.raw`is to|are to|was to|were to|plans?|planned|intends?|intended|means? to|wants?|wanted|wish(?:es|ed)?|promis(?:es|ed)|bequeath(?:s|ed)?|testament|(?:his|her) will`;
/**
 * "ought" and the clipped "'d" (would or had), straight apostrophe only: MODAL_AUX's, read on compromise's auxiliary.
 * Not in the others (drift: "he'd" is as often "he had", a past perfect, as "he would").
 */
const AUX_ONLY = String.raw`ought|'ll|'d`;

/**
 * Modals, and the aims and plans that a verb after "to" only intends ("was going to give", "tries to hand"). "'ll" with
 * a straight apostrophe only, after a word (AUX_ONLY).
 */
export const MODAL_AUX = new RegExp(String.raw`\b(?:${FUTURE_MODALS}|${LOOSE_MODALS}|${AUX_ONLY}|${GOING_TO}|${AIMS})\b`, 'i');

/**
 * A death to come, planned or willed: "Cato's lands will go to his nephew after his death" (a testament, not a death).
 * "'ll" with either apostrophe, after anything.
 */
export const TO_COME = new RegExp(String.raw`\b(?:${FUTURE_MODALS}|${LOOSE_MODALS}|${GOING_TO}|${PLANS})\b|['’]ll\b`, 'i');

/**
 * A future or a supposition anywhere in a sentence (tense.ts timedNotNow): the modals of future and condition, their
 * negations, a plan at hand, and "'ll" after a word with either apostrophe. No modals of permission (LOOSE_MODALS).
 */
export const SENTENCE_NOT_NOW = new RegExp(String.raw`\b(?:${FUTURE_MODALS}|${NEGATED_FUTURES}|${GOING_TO})\b|\b\p{L}+['’]ll\b`, 'iu');
