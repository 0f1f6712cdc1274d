import { parsed } from './parse.js';

/**
 * Clefts and passives with their agent read in plain order (held-out corpus 22: five of seven
 * planted defects were clefts; 24: "The cups were filled by Servilia herself"). The readers look for
 * a person in the subject slot right before a verb, a place after the verb of arriving and a sum
 * beside the verb of paying; a cleft or a passive moves each of those out of its slot:
 * - "it was Catiline, of all the men in Rome, who held the bronze door open" → "Catiline held the
 *   bronze door open" (a name, or "the …" phrase, then "who" or "that"; an aside between commas and
 *   "himself" dropped);
 * - "It is from Faesulae that the consul's wife has come down this morning, straight…" → "the
 *   consul's wife has come down this morning from Faesulae, straight…";
 * - "What Caesar had paid for it that night, … was twenty thousand denarii" → "Caesar had paid for
 *   it that night, … twenty thousand denarii" (a sum of money only: "What he wanted was…" stays).
 * - "The cups were filled by Servilia herself, come in from the garden" → "Servilia filled the cups,
 *   come in from the garden"; "are filled by Servilia" → "Servilia fills" (the tense kept: a present
 *   is a deed now, a past one in a scene told in the past); verbs of hands on only (HANDS_ON).
 * Only narration is rewritten, and only for reading (the spans quote the text as written).
 */

/** Where a clause starts: the sentence's start, or after a stop, a dash or a comma and a conjunction. */
const START = String.raw`(^|[;:—–]\s*|,\s+(?:and|but|so|then)\s+|\b(?:and|but|then)\s+)`;
/** A part that sounds, which a voice or a step is heard by (body-parts.ts reads it as its owner's deed). */
const SOUNDING = String.raw`(?:voice|voices|laugh|laughter|cough|whisper|footsteps?|footfalls?|tread|breath)`;
const FOCUS = String.raw`((?:the\s+(?:whole\s+|entire\s+)?[\p{Ll}'’-]+(?:\s+[\p{Ll}'’-]+)?)|\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,3}(?:(?<=['’]s?)\s+${SOUNDING})?)`;
const WHO_CLEFT = new RegExp(String.raw`${START}[Ii]t\s+(?:is|was)\s+${FOCUS}(?:\s+(?:himself|herself|themselves))?(?:\s*,[^,;]*,)?\s+(?:who|that)\s+(?=\p{Ll})`, 'gu');
const PLACE_CLEFT = new RegExp(String.raw`${START}[Ii]t\s+(?:is|was)\s+(from\s+[^,;:]+?)\s+that\s+([^,;:.!?]+)`, 'gu');
const SUM_CLEFT = new RegExp(String.raw`${START}[Ww]hat\s+([^;:.!?]+?),?\s+(?:was|were|is|are)\s+(?=[^,;:.!?]*\b(?:denarii|denarius|sesterces|sestertii|talents?)\b)`, 'gu');

/**
 * A cleft the other way round, its focus a person last (session 43's audit): "The voice that answers is Cato's" →
 * "Cato's voice answers" (a sounding part only, as body-parts.ts reads it: "the hand is Cato's" is his writing); "The
 * voice in the atrium was Cato's" → "Cato's voice sounded in the atrium", the tense kept; "The one who answers is
 * Murena" → "Murena answers". A likeness or a doubt is none: "sounds like Cato's", "is surely Cato's", "…, or his
 * ghost's" stay as written, and so does "The man they fear is Cato" (no verb of the man's own).
 */
/** A name, its words of letters joined by a dot or a hyphen at most (no full stop after it, no possessive). */
const OWNER = String.raw`(\p{Lu}\p{L}*(?:[.-]\p{L}+)*(?:\s+\p{Lu}\p{L}*(?:[.-]\p{L}+)*){0,3})`;
/** The end of the focus: the sentence's or clause's end, not a hedge (", or so…", ", perhaps", ", he thought"). */
const FOCUS_END = String.raw`(?=\s*(?:[.;:!—–]|,(?!\s*(?:or|perhaps|maybe|surely|almost|as if|as though|he|she|they|I|we|it seemed)\b)|$))`;
const PART_RELATIVE = new RegExp(String.raw`${START}[Tt]he\s+((?:\p{Ll}+\s+)?${SOUNDING})\s+(?:that|which)\s+([^,;:.!?—–"]+?)\s+(?:is|are|was|were)\s+${OWNER}['’]s?${FOCUS_END}`, 'gu');
const PART_PLACED = new RegExp(String.raw`${START}[Tt]he\s+((?:\p{Ll}+\s+)?${SOUNDING})((?:\s+(?:from|in|at|on|beyond|behind|outside|below|above|across)\s+[^,;:.!?—–"]{1,40}?)?)\s+(is|are|was|were)\s+${OWNER}['’]s?${FOCUS_END}`, 'gu');
const SOUNDS: Record<string, string> = { is: 'sounds', are: 'sound', was: 'sounded', were: 'sounded' };
const ONE_WHO = new RegExp(String.raw`${START}[Tt]he\s+(?:one|man|woman|figure|person|stranger|visitor)\s+(?:who|that)\s+([^,;:.!?—–"]+?)\s+(?:is|was)\s+${OWNER}${FOCUS_END}`, 'gu');

/** A sentence with its clefts focused last (above) in plain order. */
function focusFirst(narr: string): string {
  if (!/\b(?:is|are|was|were)\s+\p{Lu}/u.test(narr)) return narr;
  return narr
    .replace(PART_RELATIVE, (_all, start: string, part: string, rest: string, owner: string) => `${start}${owner}'s ${part} ${rest}`)
    .replace(PART_PLACED, (_all, start: string, part: string, where: string, aux: string, owner: string) => `${start}${owner}'s ${part} ${SOUNDS[aux.toLowerCase()]}${where}`)
    .replace(ONE_WHO, (_all, start: string, rest: string, owner: string) => `${start}${owner} ${rest}`);
}

/**
 * A passive with its agent, a name: "the cups were filled by Servilia (herself)"; its subject a bare noun too, and a few
 * words between the verb and its agent ("Wine was poured for the two of them by Catiline", "Her name is called across the
 * street by Quintus Curius": held-out corpus 102, cw14 and cw15).
 */
const PASSIVE = new RegExp(String.raw`${START}((?:[Tt]he|[Aa]n?|[Hh]is|[Hh]er|[Tt]heir)\s+[^,;:.!?]*?|\p{Lu}\p{Ll}+)\s+(is|are|was|were)\s+(\p{L}+(?:ed|en|wn|ung|ught|eld|ade|ut|et|aid))((?:\s+[\p{Ll}'’-]+){0,6}?)\s+by\s+(\p{Lu}[\p{L}'’]+(?:\s+\p{Lu}[\p{L}'’]+){0,2})(?:\s+(?:himself|herself))?`, 'gu');

/**
 * Verbs whose passive with an agent puts the agent's hands on something here: "were filled by
 * Servilia". Not those of making or sending, done before and elsewhere ("the letter was written by
 * Caesar", "sent by Crassus", "built by his father"): those stay as written.
 */
const HANDS_ON = new Set(['fill', 'pour', 'open', 'close', 'shut', 'hold', 'carry', 'bring', 'hand', 'push', 'pull', 'lift', 'set', 'place', 'serve', 'lead', 'greet', 'seize', 'strike', 'offer', 'light', 'bar', 'fling', 'throw', 'count', 'break', 'grip', 'take', 'unroll', 'unseal', 'call', 'hail']);

/** A participle in the tense of its auxiliary, for one doer ("filled" → "fills" after "is"), or null: no form, or not a verb of hands on. */
function active(participle: string, aux: string): string | null {
  const forms = (parsed(participle).verbs().conjugate() as Record<string, string>[])[0];
  if (!forms || !HANDS_ON.has(forms.Infinitive ?? '')) return null;
  return (/^(?:is|are)$/i.test(aux) ? forms.PresentTense : forms.PastTense) ?? null;
}

/** A narration sentence with its clefts and agent passives in plain order (see above); any other sentence as it is. */
export function plainOrder(narr: string): string {
  const passive = / by \p{Lu}/u.test(narr) ? narr.replace(PASSIVE, (all, start: string, object: string, aux: string, participle: string, between: string, agent: string) => {
    const verb = active(participle, aux);
    return verb ? `${start}${agent} ${verb} ${object.replace(/^(?:The|An?|His|Her|Their)\b/, (w) => w.toLowerCase())}${between}` : all;
  }) : narr;
  return focusFirst(unclefted(passive));
}

function unclefted(narr: string): string {
  if (!/\b(?:it\s+(?:is|was)|what)\b/i.test(narr)) return narr;
  return narr
    .replace(WHO_CLEFT, (_all, start: string, focus: string) => `${start}${focus} `)
    .replace(PLACE_CLEFT, (_all, start: string, place: string, rest: string) => `${start}${rest.trimEnd()} ${place}`)
    .replace(SUM_CLEFT, (_all, start: string, what: string) => `${start}${what} `);
}
