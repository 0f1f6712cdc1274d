import type { Narration } from './deeds.js';
import { SAME_DAY } from './days-back.js';
import { FRAME } from './clause-doers.js';

/**
 * A dead person's deed told in the past perfect with a time of this very day ("And not an hour before, at the
 * corner of the Argiletum, Catiline himself had stepped out of a doorway, caught Clodius by the sleeve, and told
 * him …": held-out corpus 123, dr14). A past perfect is backstory to the deed reader (subjects.ts), and for the
 * dead it mostly is: what they did in life. A time of the scene's own day puts the deed after the episode began,
 * when the world already had them dead; the story may not. Read only when all of this holds:
 * - the name is the subject, right before "had" and a participle ("himself" or "herself" may stand between);
 * - a time of the same day is in the sentence, before the name or in its clause (SAME_DAY, or its past-narrative
 *   forms: "an hour before", "that morning", "earlier that day");
 * - nothing frames it (a memory, a report, a condition: FRAME before the name), and no denial in its clause.
 */
const HAD_DONE = /^\s+(?:(?:himself|herself)\s+)?(?:(?:just|only|already|even)\s+)?had\s+(?:(?:just|only|already|even)\s+)?(?!(?:been|a|an|the|his|her|their|its|my|your|our|no|not|never|nothing|some|any|one|two|three|many|much|little|few|to|every|each|this|that|these|those|more|less|enough)\b)([a-z]+)\b/i;
/** This very day, told from a past narrative as well as from now. */
const THIS_DAY = new RegExp(String.raw`${SAME_DAY.source}|\b(?:(?:not|barely|scarcely|hardly|less than)\s+)?(?:an?|one|two|half an)\s+hours?\s+(?:before|earlier|since)\b|\bthat (?:very )?(?:morning|afternoon|dawn)\b|\bearlier (?:that|the same) (?:day|morning|evening)\b`, 'i');
const DENIED = /\b(?:not|never|no one|nobody)\b/i;

/** Whether `n` tells `id`, a mention in it, doing something earlier this very day in the past perfect. */
export function deedEarlierToday(n: Narration, id: string): boolean {
  if (n.said || n.imagined || n.elsewhere || n.narr.includes('?')) return false;
  for (const m of n.mentions) {
    if (m.id !== id) continue;
    const before = n.narr.slice(0, m.start);
    const v = HAD_DONE.exec(n.narr.slice(m.end));
    if (!v || FRAME.test(before)) continue;
    const clause = n.narr.slice(m.end).split(/[;:.!?—–]/)[0]!;
    // "not an hour earlier" is a time, no denial.
    if (DENIED.test(clause.replace(new RegExp(THIS_DAY.source, 'gi'), ' ').split(/\s(?:and|but)\s/)[0]!)) continue;
    if (THIS_DAY.test(before) || THIS_DAY.test(clause)) return true;
  }
  return false;
}
