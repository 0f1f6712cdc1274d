import type { VerifyContext } from '../context.js';
import { placeIn } from './arrivals.js';

/**
 * A screenplay's slugline ("EXT. CICERO'S VILLA AT TUSCULUM — FIRST LIGHT") that moves the scene to
 * another world location, one the setting's place cannot be reached from within a scene (a day or
 * more away): what the cast do under it, until the next slugline, they do there, not on this stage
 * (held-out corpus 66, bm16: Clodius reins in at the consul's gate at Tusculum at first light, then
 * "CUT TO: EXT. OSTIA — THE GRAIN QUAY — LATER THE SAME MORNING", two days' travel apart). The
 * reader marks those sentences as placed there (reader.ts), as it marks "Meanwhile, at Ostia, …".
 *
 * A transition in capitals opening its line is a slugline too, with or without INT./EXT. after it
 * (prose audit 2, f6: "CUT TO: THE QUAYS AT OSTIA — SAME HOUR." was read as no move): a cut
 * ("CUT TO:", "SMASH CUT TO:", "DISSOLVE TO:", "INTERCUT WITH:") names where the scene goes; a return
 * ("BACK TO: THE HOUSE OF CICERO.", "BACK TO SCENE", "RESUME", "BACK IN THE ATRIUM") names where it
 * comes back to, or nothing, which is this scene's place again. A cut that names nothing ("CUT TO:"
 * over a slugline of its own) leaves the place to the next line.
 *
 * Not a move: a slugline naming the setting, a place within the same day's reach, no world
 * location at all ("INT. A STEEP LANE — DAWN"), or a time that is not this scene's (a flashback, a
 * dream, "THREE DAYS EARLIER", "THE NEXT DAY"); "DAY" alone is the scene's time of day.
 */
const SLUGLINE = /^\s*(?:INT|EXT|INT\.?\s*\/\s*EXT|I\/E)\.\s*(.*)$/i;
const NOT_NOW = /\b(?:flashback|earlier|before|ago|previously|years?|months?|days|(?:next|previous|following|other) (?:day|morning|night)|dream\w*|memory|remembered|imagined|once)\b/i;
/** A cut to another place, in capitals: its words after it name the place. */
const CUT = /^\s*(?:(?:SMASH|MATCH|JUMP|HARD|QUICK)\s+)?(?:CUT|DISSOLVE|WIPE)\s+TO\b|^\s*INTERCUT(?:\s+WITH)?\b/;
/** A return from a cut-away, in capitals: to the scene's place unless its words name another. */
const BACK = /^\s*(?:BACK\s+(?:TO|IN|AT|ON|INSIDE)|RESUME|RETURN\s+TO)\b/;
/**
 * The same return opening a paragraph of narration ("Back in the atrium, Fulvia draws the curtain."): it
 * ends a cut-away when it names no far place; the line stays narration (a far place it names is placeOf's).
 */
const BACK_NARRATED = /^\s*Back\s+(?:in|at|on|inside|to)\s/;

/**
 * Whether a line is a screenplay transition (CUT, BACK) of its own: furniture, no narration. Its word in
 * capitals ends in a colon or the whole line is in capitals: "Back in the atrium, …" is narration.
 */
export function isTransition(line: string): boolean {
  const t = line.replace(/[*_]{1,2}/g, '');
  const m = CUT.exec(t) ?? BACK.exec(t);
  return !!m && (/^\s*:/.test(t.slice(m[0].length)) || !/\p{Ll}/u.test(t));
}

/**
 * For a heading or transition line: undefined when it is none (the place read so far holds); else the
 * world location the scene has moved to, by name, or null when it is this scene's place again (or
 * the line names no such move). `names`: the names a location goes by (arrivals.ts namesOf).
 */
export function sluglinePlace(line: string, ctx: VerifyContext, names: () => Map<string, { id: string; name: string }>): string | null | undefined {
  const t = line.replace(/[*_]{1,2}/g, '');
  if (BACK_NARRATED.test(t) && !isTransition(t)) return farPlace(t, ctx, names) ? undefined : null;
  const cut = isTransition(t) ? (CUT.exec(t) ?? BACK.exec(t))! : null;
  const rest = cut ? t.slice(cut[0].length).replace(/^[\s:.—–-]+/, '') : t;
  const m = SLUGLINE.exec(rest);
  if (cut && !m && !rest.trim()) return CUT.test(t) ? undefined : null;
  if (!cut && !m) return undefined;
  const words = m ? m[1]! : rest;
  // An intercut between two places, this one among them, moves nowhere.
  if (/^\s*INTERCUT/.test(t) && words.split(/\s*(?:\/|\bAND\b|&)\s*/i).length > 1) return null;
  return farPlace(words, ctx, names) ?? null;
}

/** The world location `words` name, when it is not the scene's and a day or more from it. */
function farPlace(words: string, ctx: VerifyContext, names: () => Map<string, { id: string; name: string }>): string | undefined {
  const here = ctx.packet.setting.location;
  const loc = NOT_NOW.test(words) ? undefined : placeIn(words, names(), false, true);
  if (!loc || loc.id === here) return undefined;
  const days = ctx.travelDays?.(loc.id, here);
  return days !== undefined && days >= 1 ? loc.name : undefined;
}
