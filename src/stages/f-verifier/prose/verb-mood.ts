/**
 * What keeps a verb of handing or taking from being done now, read from the words around it in its sentence
 * (compliance.ts liveVerbs): a modal on it (moods.ts MODAL_AUX) or shared with it, a past perfect's "had" shared
 * with it, a belief it stands in.
 */

/** The words between a past perfect and a verb that shares its "had": an "and" and no subject of its own. */
export const SHARED_AUX = /^(?![^.;:!?]*\b(?:he|she|they|I|we|you)\b)[^.;:!?\p{Lu}]*\band\s+$/u;
/**
 * A verb in a clause someone only thinks, fears or hopes is so: "he thinks you have given me everything" gives
 * nothing (held-out corpus 107, db12).
 */
export const BELIEVED = /\b(?:thinks?|thought|believes?|believed|supposes?|supposed|imagines?|imagined|fancies|fancied|assumes?|assumed|suspects?|suspected|fears?|feared|hopes?|hoped)\s+(?:that\s+)?(?:[\p{L}'’]+\s+){0,2}$/iu;
/**
 * The words between a modal's verb and one that shares its modal: an "and", no subject pronoun, no verb of
 * its own between (a live verb ends the modal's reach): "Cato would stand up in the Senate and read it out"
 * reads nothing now (held-out corpus 103, cx16). Capitals are no bar here: "the Senate" is a place.
 */
export const SHARED_MODAL = /^(?![^.;:!?]*\b(?:he|she|they|I|we|you)\b)[^.;:!?]*\band\s+$/u;
/**
 * A past participle that is never a simple past, with no auxiliary: a verb of no clause of its own ("Cato, given it,
 * would know them too": held-out corpus 92, cm19), not a deed done.
 */
export const PARTICIPLE_ALONE = /^(?:given|taken|stolen|forgiven|drawn|thrown|shown|written|hidden|chosen|broken|spoken)$/i;
/**
 * Verbs of perceiving, letting or causing, whose object's bare infinitive after them is watched, allowed or caused,
 * not done: one list for the verb after them (compliance.ts BARE_INF: "lets him take the purse") and the name right
 * after them (subjects.ts SEEN_DOING: "When she hears Cicero laugh").
 */
export const PERCEIVE_OR_CAUSE = String.raw`(?:watch|watches|watched|watching|see|sees|saw|seeing|hear|hears|heard|let|lets|letting|make|makes|made|making|bid|bids|help|helps|helped|have|has|had|feel|feels|felt|notice|notices|noticed)`;

/**
 * A sentence that opens on a bare verb, after nothing but adverbs ("Then give them to me", "Now,
 * hand it over"), asks; compromise reads such a verb after an adverb or a speaker's cue as a
 * present tense, not an imperative. "Either" opens a choice of orders ("Either give it to me or do not.":
 * held-out corpus 124, ds13).
 */
export const OPENS_BARE = /^\s*(?:(?:then|now|so|just|please|here|quick|only|simply|well|oh|come|go|and|either|\p{L}+ly),?\s+)*$/iu;
/**
 * The same bare verb opening a clause after a colon or a dash: what it would take, a condition
 * ("He has done the sum twice over: give Cato the tablets, and Cato has her name…": held-out corpus
 * 49, av07), not a deed.
 */
export const AFTER_COLON_BARE = /[:—–]\s*(?:(?:then|now|so|just|only|simply),?\s+)*$/iu;
/**
 * The same bare verb joined to an order by "or" or "and", after that order's object ("Let go or give it.", "Take it
 * and give it to her."): one more order (held-out corpus 114, di12, Cato's "Let go or give it" was a handing).
 */
export const JOINED_TO_ORDER = /^(?:\s+[\p{L}'’-]+){0,4}\s*,?\s+(?:or|and|and then|or else)\s+$/iu;
