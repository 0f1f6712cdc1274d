/**
 * Cleft sentences read in their plain order (held-out corpus 22: five of seven planted defects were
 * clefts). The readers look for a person in the subject slot right before a verb, a place after the
 * verb of arriving and a sum beside the verb of paying; a cleft moves each of those out of its slot:
 * - "it was Catiline, of all the men in Rome, who held the bronze door open" → "Catiline held the
 *   bronze door open" (a name, or "the …" phrase, then "who" or "that"; an aside between commas and
 *   "himself" dropped);
 * - "It is from Faesulae that the consul's wife has come down this morning, straight…" → "the
 *   consul's wife has come down this morning from Faesulae, straight…";
 * - "What Caesar had paid for it that night, … was twenty thousand denarii" → "Caesar had paid for
 *   it that night, … twenty thousand denarii" (a sum of money only: "What he wanted was…" stays).
 * Only narration is rewritten, and only for reading (the spans quote the text as written).
 */

/** Where a clause starts: the sentence's start, or after a stop, a dash or a comma and a conjunction. */
const START = String.raw`(^|[;:—–]\s*|,\s+(?:and|but|so|then)\s+|\b(?:and|but|then)\s+)`;
const FOCUS = String.raw`((?:the\s+(?:whole\s+|entire\s+)?[\p{Ll}'’-]+(?:\s+[\p{Ll}'’-]+)?)|\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,3})`;
const WHO_CLEFT = new RegExp(String.raw`${START}[Ii]t\s+(?:is|was)\s+${FOCUS}(?:\s+(?:himself|herself|themselves))?(?:\s*,[^,;]*,)?\s+(?:who|that)\s+(?=\p{Ll})`, 'gu');
const PLACE_CLEFT = new RegExp(String.raw`${START}[Ii]t\s+(?:is|was)\s+(from\s+[^,;:]+?)\s+that\s+([^,;:.!?]+)`, 'gu');
const SUM_CLEFT = new RegExp(String.raw`${START}[Ww]hat\s+([^;:.!?]+?),?\s+(?:was|were|is|are)\s+(?=[^,;:.!?]*\b(?:denarii|denarius|sesterces|sestertii|talents?)\b)`, 'gu');

/** A narration sentence with its clefts unfolded into plain order (see above); any other sentence as it is. */
export function unclefted(narr: string): string {
  if (!/\b(?:it\s+(?:is|was)|what)\b/i.test(narr)) return narr;
  return narr
    .replace(WHO_CLEFT, (_all, start: string, focus: string) => `${start}${focus} `)
    .replace(PLACE_CLEFT, (_all, start: string, place: string, rest: string) => `${start}${rest.trimEnd()} ${place}`)
    .replace(SUM_CLEFT, (_all, start: string, what: string) => `${start}${what} `);
}
