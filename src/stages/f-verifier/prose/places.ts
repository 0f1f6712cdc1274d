import type { VerifyContext } from '../context.js';
import { clausesOf } from './clauses.js';
import type { Mention } from './names.js';

/** Words that move a sentence away from the scene's place and time-line ("Meanwhile, at Ostia, …"). */
const ELSEWHERE = /\b(?:meanwhile|at (?:the|that|this) (?:very |same )*(?:hour|time|moment|instant)|elsewhere|far away|(?:miles|days|leagues) away)\b/i;
/** A place's name: capitalised words, "of the" allowed inside ("Temple of Concord"); a date ("the Ides") is none. */
const PLACE_NAME = String.raw`(?:the\s+)?(?!(?:Kalends|Nones|Ides|Saturnalia|Lupercalia|Floralia)\b)(\p{Lu}\p{L}+(?:\s+(?:of\s+(?:the\s+)?)?\p{Lu}\p{L}+)*)`;
/** A place named after a locative preposition. */
const PLACE = new RegExp(String.raw`\b(?:at|in|on the road to|on the road from|near|outside|inside|on)\s+${PLACE_NAME}`, 'gu');
/** "X is at Ostia": a present-tense placement, with or without an elsewhere word; so is "X himself being at Ostia" (held-out corpus 80, ca01). */
const IS_AT = /\b(?:is|are|stands|waits|sits|(?:himself\s+|herself\s+)?being)\s+(?:(?:still|already|now|back|down|up|out|away|home)\s+){0,2}(?:at|in|on)\s+(?:the\s+)?\p{Lu}/u;

function sameAsSetting(place: string, ctx: VerifyContext): boolean {
  const here = `${ctx.packet.setting.location_name} ${ctx.packet.setting.location}`.toLowerCase();
  return place
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 3 && w !== 'temple' && w !== 'house')
    .some((w) => here.includes(w));
}

/** Words of arriving, a past or a future: a place in their clause is not where someone is now. */
const NOT_NOW = /\b(?:came|come|comes|returned|will|would|was|were|had|tomorrow|yesterday)\b/i;
/**
 * The place a narration sentence puts its subject, when that is not the scene's own place: only
 * with an elsewhere word or a present-tense "is at"; past and future places ("came from Ostia",
 * "will be in the Forum") are not placements now. Without an elsewhere word, only the clauses that
 * hold the "is at" and no word of arriving, past or future are read (held-out corpus 4, z11:
 * "Cicero is at the Curia; …, and men come to it to be seen coming." places Cicero; the "come" is
 * the men's, in a clause of its own).
 */
export function placeOf(narr: string, ctx: VerifyContext, isPerson: (w: string) => boolean): string | null {
  const marked = ELSEWHERE.test(narr);
  const now = marked ? narr : clausesOf(narr).filter((c) => IS_AT.test(c) && !NOT_NOW.test(c)).join(' ; ');
  if (!now) return null;
  for (const m of now.matchAll(PLACE)) {
    const place = m[1];
    // "in Varo's debt", "at Marcus Crassus": a person, not a place.
    if (isPerson(place) || isPerson(place.split(/\s+/)[0]) || /^['’]/.test(now.slice(m.index! + m[0].length))) continue;
    if (!sameAsSetting(place, ctx)) return place;
  }
  return null;
}

/**
 * "was at", "were still in", "was standing among": being somewhere, told in the past. One phrase for a
 * past narrative's placing (WAS_AT here) and a present scene's earlier whereabouts (arrivals.ts).
 */
export const WAS_THERE = String.raw`(?:was|were)\s+(?:(?:still|already|then|now|away|out|down|up|over|back)\s+){0,2}(?:(?:standing|sitting|waiting|sleeping|camped|encamped)\s+)?(?:at|in|on|aboard|among)`;

/**
 * Right after a name: "was at the Curia", "himself was in Rome". In a scene told in the past that is
 * where the person is in the scene's now, as "is at the Curia" is in a present one (held-out corpus
 * 45, ar02 and ar19: "Cicero was at the Curia." in a scene at his house read as Cicero on stage).
 */
const WAS_AT = new RegExp(String.raw`^(?:\s*,?\s*(?:himself|herself|themselves),?)?\s+${WAS_THERE}\s+${PLACE_NAME}`, 'u');

/**
 * The people a narration sentence says were at a named place that is not the scene's ("Cicero was at
 * the Curia"), with the place. Read only in a scene told in the past (deeds.ts): in a present one
 * "was at" is backstory, and "is at" is placeOf's. Only the person named right before the verb: in
 * "Caesar knew Cicero was at the Curia" Caesar is not placed.
 */
export function placedThen(narr: string, mentions: readonly Mention[], ctx: VerifyContext, isPerson: (w: string) => boolean): { id: string; place: string }[] {
  const out: { id: string; place: string }[] = [];
  for (const m of mentions) {
    const place = WAS_AT.exec(narr.slice(m.end))?.[1];
    if (place && !isPerson(place) && !isPerson(place.split(/\s+/)[0]!) && !sameAsSetting(place, ctx)) out.push({ id: m.id, place });
  }
  return out;
}

/**
 * Someone's own private place named as where a thing happens ("in Fulvia's bed", "at Crassus'
 * house"), when that someone is a person and the scene is not set at their place: what is done
 * there is not done on this stage (held-out corpus 2, x16: "Curius blurts it out in Fulvia's bed",
 * a habit told in a scene at Crassus' house). The possessive form of OFFSTAGE's "in his own house".
 */
const PRIVATE_PLACE = /\b(?:[Ii]n|[Aa]t|[Ii]nside)\s+(\p{Lu}\p{L}+(?:\s+\p{Lu}\p{L}+){0,2})(?:['’]s|['’])\s+(?:own\s+)?(?:house|home|bed|bedroom|bedchamber|rooms?|study|garden|villa|couch|kitchen|atrium|door(?:step|way)?)\b/gu;

/**
 * A bed, nobody's named ("Curius tells her everything in bed": session 41's audit, P9; "talks in his sleep"): where people
 * lie at night, which a scene is not set in unless its place is a bedroom. Not "bedside" or "bed-chamber" words of a scene
 * that is one (BEDROOM).
 */
const IN_BED = /\b(?:in (?:bed|(?:his|her|their) (?:bed|sleep))|abed|between the sheets)\b/i;
const BEDROOM = /\b(?:bed|bedroom|bedchamber|bed-chamber|cubicul\w*|sleeping)\b/i;

/** The private places of people other than the setting's that a narration sentence names (see PRIVATE_PLACE), and a bed (IN_BED). */
export function privatePlacesAway(narr: string, ctx: VerifyContext, isPerson: (w: string) => boolean): string[] {
  const out: string[] = [];
  for (const m of narr.matchAll(PRIVATE_PLACE)) if (isPerson(m[1]) && !sameAsSetting(m[1], ctx)) out.push(m[0]);
  const bed = IN_BED.exec(narr)?.[0];
  if (bed && !BEDROOM.test(`${ctx.packet.setting.location_name} ${ctx.packet.setting.location}`)) out.push(bed);
  return out;
}
