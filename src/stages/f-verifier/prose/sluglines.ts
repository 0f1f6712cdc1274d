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
 * Not a move: a slugline naming the setting, a place within the same day's reach, no world
 * location at all ("INT. A STEEP LANE — DAWN"), or a time that is not this scene's (a flashback, a
 * dream, "THREE DAYS EARLIER").
 */
const SLUGLINE = /^\s*(?:\*\*)?(?:INT|EXT|INT\.?\s*\/\s*EXT|I\/E)\.\s*(.*)$/i;
const NOT_NOW = /\b(?:flashback|earlier|before|ago|previously|years?|months?|days?|dream\w*|memory|remembered|imagined|once)\b/i;

/**
 * For a heading line: undefined when it is no slugline (the place read so far holds); else the
 * world location the scene has moved to, by name, or null when it is this scene's place again (or
 * the slugline names no such move). `names`: the names a location goes by (arrivals.ts namesOf).
 */
export function sluglinePlace(line: string, ctx: VerifyContext, names: () => Map<string, { id: string; name: string }>): string | null | undefined {
  const m = SLUGLINE.exec(line.replace(/[*_]{1,2}/g, ''));
  if (!m) return undefined;
  const here = ctx.packet.setting.location;
  const loc = NOT_NOW.test(m[1]!) ? undefined : placeIn(m[1]!, names(), false, true);
  if (!loc || loc.id === here) return null;
  const days = ctx.travelDays?.(loc.id, here);
  return days !== undefined && days >= 1 ? loc.name : null;
}
