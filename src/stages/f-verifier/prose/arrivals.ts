import type { VerifyContext } from '../context.js';
import type { Reading } from './reader.js';
import type { Narration } from './deeds.js';
import { clauseAt } from './clauses.js';
import { daysBack, FEW, FEW_DAYS, TIME_LEAD } from './days-back.js';
import { FRAME } from './clause-doers.js';
import { formerly } from './tense.js';
import { earlierInSentence, pronounPerson, soleCastMember } from './pronoun-doer.js';
import { WAS_THERE } from './places.js';
import { numberIn } from './parse.js';
import { escapeRegExp } from '../../../core/regex.js';

/**
 * A cast member the narration says has just come from, or spent the night at, a place they could
 * not have been (held-out corpus 3, y17: "Crassus has come straight up from the quays at Ostia,
 * where he spent the night…" in a scene he reaches from his own house with 0 days between). The
 * present-tense reader (places.ts) leaves past placements alone, because most are backstory; these
 * few forms are not: a present perfect of arriving is the arrival into this scene, and a night
 * spent is the night before it. Read only when all of this holds, so a flashback, a habit or speech
 * is never judged:
 * - the sentence names the person right before the verb, or a subject pronoun there stands for
 *   them beyond doubt (pronoun-doer.ts; held-out corpus 4, z17: "…; she has travelled through the
 *   night from Faesulae"), and the person is in the packet's cast;
 * - the place is one of the world's locations, named after "from" (arriving) or "at/in/on" (the
 *   night), in the same clause;
 * - no word of distance in time is in the journey's clause, no word of memory, condition or hearsay before
 *   the journey or in it, and no denial up to the journey's place in the verb's own clause (clauses.ts:
 *   "…, and has not stopped to sleep" and "…at dawn and has not yet been home" deny another verb);
 * - the packet's days since their last scene are fewer than the travel days from that place to the
 *   scene's: not merely "nowhere else meanwhile" (a place on the way fits that), but impossible.
 */
export interface ArrivalElsewhere {
  id: string;
  /** The location's name, as the world writes it. */
  place: string;
  line: number;
  text: string;
}

/** Verbs of a journey made: as a present perfect's participle ("has ridden") and as a simple past ("rode"); spoken-whereabouts.ts reads both. */
export const JOURNEY_PERFECT = String.raw`(?:come|arrived|ridden|hurried|walked|travell?ed|sailed|marched|driven)`;
export const JOURNEY_PAST = String.raw`(?:came|arrived|rode|hurried|walked|travell?ed|sailed|marched|galloped|drove)`;
/** The same in the present ("comes straight from", "rides in fresh from"). */
const JOURNEY_NOW = String.raw`(?:comes|arrives|rides|hurries|walks|travels|sails|marches|gallops|strides)`;
/**
 * "has (just) come (straight up) from", "arrived from", "spent the night at": the verb right after the
 * name. A second "from" after a comma says the same journey's start more nearly ("has come down from
 * the Alban hills, from a friend's villa above Tusculum": held-out corpus 30, ac16).
 */
const ARRIVED = new RegExp(String.raw`^\s+(?:has|have)\s+(?:just\s+|only just\s+)?${JOURNEY_PERFECT}\b([^,;:.!?—–()]*?)\bfrom\b([^,;:.!?—–()]*(?:,\s*from\b[^,;:.!?—–()]*)*)`, 'i');
/** The same in a scene told in the past (tense.ts), whose past perfect is the arrival into it ("He had ridden in that dawn from…"). */
const HAD_ARRIVED = new RegExp(ARRIVED.source.replace('(?:has|have)', '(?:has|have|had)'), 'i');
/**
 * A past perfect arrival "straight" or "directly" from a place is this scene's arrival in a scene told
 * in the present too ("Cato had come straight from Manlius' camp at Faesulae, …, and the mud of the road
 * is still on his bare feet": held-out corpus 38, ak16); without it, it is backstory there.
 */
const STRAIGHT_HAD = new RegExp(String.raw`^\s+had\s+(?:just\s+)?${JOURNEY_PERFECT}\s+(?:straight|directly)\b`, 'i');
/**
 * A night or the last few nights spent at a place ("had spent the last three nights in the camp at
 * Faesulae": held-out corpus 34, ag16), or the day or part of it ("has spent the whole afternoon on the
 * quays at Ostia": held-out corpus 52, ay16), or a night slept there ("had slept the night before at Tusculum":
 * held-out corpora 60, bg16, and 61, bh16), or the last few days ("has spent the last three days at Faesulae": 83,
 * cd16), or "the whole of the day before" (102, cw16): bounded by the days since the person's last scene.
 */
const NIGHT = /^\s+(?:(?:has|have|had)\s+)?(?:(?:spent|passed)\s+(?:the\s+(?:whole\s+|entire\s+)?(?:of\s+the\s+)?(?:last\s+)?(?:(?:two|three|four|five|six|few)\s+(?:nights|days)|night|day|morning|afternoon|evening)(?:\s+before)?|last\s+night|this\s+(?:morning|afternoon)|all\s+(?:night|day|morning|afternoon))|slept(?:\s+(?:the\s+night(?:\s+before)?|last\s+night))?)\b([^,;:.!?—–()]*?)\b(?:at|in|on|aboard)\b([^,;:.!?—–()]*)/i;
/**
 * Being somewhere told by a verb of staying in the simple past ("Nepos stood on the quays at Ostia at dawn today":
 * prose audit 2, f6), read as WAS_AT's "was at", with the same time of the last few days.
 */
const STOOD_THERE = String.raw`(?:stood|sat|waited|slept|lay|lingered|stayed|lodged)\s+(?:(?:still|already|then|there|alone)\s+)?(?:at|in|on|aboard|among)`;
/**
 * In a scene told in the present, someone who "was (still) in" or "at" a place earlier the same day
 * ("At first light Clodius was still in the Subura, …, and now … he is standing on the quay at Ostia":
 * held-out corpus 50, aw16): read only with a time of this day in the clause (SAME_DAY), so the journey
 * had no day at all, or a few days or nights ago ("Two nights ago Cato was standing among Manlius' tents at
 * Faesulae": held-out corpus 59, bf16), yesterday or the day before (held-out corpus 65, bl16), which bound
 * it to those days (days-back.ts).
 */
const WAS_AT = new RegExp(String.raw`^\s+(?:${WAS_THERE}|${STOOD_THERE})\b([^,;:.!?—–()]*)`, 'i');
/**
 * Being somewhere told by what one was doing there ("The day before yesterday he was drinking with
 * Manlius' centurions by the cooking fires at Faesulae": held-out corpus 65, bl16), with a time of the
 * same few days as WAS_AT. Only a place right after a word of place counts (LOCATIVE): "drinking with
 * men from Faesulae" puts nobody at Faesulae.
 */
const WAS_DOING = /^\s+(?:was|were)\s+(?:(?:still|already|then)\s+)?(?:drinking|dining|feasting|eating|sleeping|hiding|staying|lodging|camping|drilling)\b([^,;:.!?—–()]*)/i;
/**
 * In a scene told in the past, its past perfect of being somewhere is WAS_AT's "was": read with a time of the same
 * few days ("Cato had stood on a ridge above Manlius' camp at Faesulae the day before yesterday": held-out corpus 80,
 * ca16), the place right after a word of place.
 */
const beenAt = (aux: string) => new RegExp(String.raw`^\s+${aux}\s+(?:(?:still|already|then)\s+)?(?:been|stood|sat|waited|slept|camped|stayed|lodged)\b([^,;:.!?—–()]*)`, 'i');
const HAD_BEEN_AT = beenAt('had');
/** The same in a scene told in the present: "Cato has been at Faesulae, and has ridden straight here" (THEN_HERE). */
const HAS_BEEN_AT = beenAt('(?:has|have)');
/**
 * Being somewhere, then a journey that ends here, in the same sentence ("he had been up at Manlius' camp at
 * Faesulae …, and had ridden four days straight down the Cassian Way to get here": held-out corpus 79, bz16):
 * the journey came from that place, with no time word needed. Its length, when told in days (ON_THE_ROAD),
 * bounds the days it had.
 */
const THEN_HERE = new RegExp(
  String.raw`^[^.;!?]*?\band\s+(?:then\s+)?(?:(?:has|had)\s+)?(?:(?:just|only)\s+)?(?:${JOURNEY_PAST}|${JOURNEY_PERFECT}|${JOURNEY_NOW})\b[^.;!?]*?\b(?:(?:to\s+)?get\s+here|(?:straight|directly|all the way)\s+(?:here|to\s+(?:this|the)\b)|here)\b`,
  'i',
);
/** Days spent riding: "three days in the saddle", "a day on the road" (ON_THE_ROAD, SADDLE_FROM, spoken-whereabouts.ts). */
export const IN_THE_SADDLE = String.raw`(?:in the saddle|on the road)`;
/** A journey's length in days: "ridden four days", "four days in the saddle", "a ride of three days". */
const ON_THE_ROAD = new RegExp(String.raw`\b(?:${JOURNEY_PAST}|${JOURNEY_PERFECT}|been)\s+${FEW_DAYS}\b|\b${FEW_DAYS}\s+${IN_THE_SADDLE}\b|\ba (?:ride|journey|march) of ${FEW_DAYS}\b`, 'i');
/** The words right before a place that put someone at it: "at", "in", "by the fires at", "on the hill above". */
export const LOCATIVE = /\b(?:at|in|on|among|outside|inside|near|above|below|beside|by|aboard)\s+(?:the\s+)?$/i;
/**
 * In a scene told in the past (tense.ts), "had come from" is its "has come from", and "that dawn" its
 * "this morning" (held-out corpus 12, p16).
 * A past journey (held-out corpus 5, w14: "Crassus, who rode out of the camp at Faesulae yesterday at
 * first light, …"): came, rode, arrived… from or out of a place, or left it. Past tense is mostly
 * backstory, so it is read only with a recent time in its clause (RECENT), which also bounds the days
 * the journey had: at most one.
 */
const PAST_FROM = new RegExp(String.raw`^\s+(?:(?:only|just)\s+)?(?:${JOURNEY_PAST}|set out)\b[^,;:.!?—–()]*?\b(?:from|out of)\b([^,;:.!?—–()]*)`, 'i');
/** "left Tusculum at the first watch", also "had left" ("Clodius had left Tusculum at the first watch, …": held-out corpus 90, ck16). */
const PAST_LEFT = /^\s+(?:had\s+)?(?:(?:only|just)\s+)?(?:left|quit)\b([^,;:.!?—–()]*)/i;
/** A journey's end told as going on straight to where the scene is: "came straight to the Curia", "without going home". */
const ON_HERE = new RegExp(String.raw`\b(?:${JOURNEY_PAST}|${JOURNEY_NOW}|went)\s+straight\s+(?:to|here|up|in|on|into)\b|\bwithout\s+(?:going|stopping)\s+(?:at\s+)?home\b`, 'i');
/**
 * A journey there and back ("rode up to Faesulae to count Manlius' fires … and came straight back down to the
 * city", "since then he had ridden north to Faesulae … and ridden back again": held-out corpora 7, u16, and
 * 71, br16): both legs within the days since the person's last scene. Read as this scene's only when the
 * return is "straight" or told in the scene's perfect ("has ridden to Ostia and back"; "had" in a scene told
 * in the past), or a recent time is in its clause; a simple past with none of these is backstory.
 */
const ROUND_TRIP = new RegExp(
  String.raw`^\s+((?:has|have|had)\s+)?(?:${JOURNEY_PAST}|${JOURNEY_PERFECT}|went|gone)\s+(?:[\p{L}'’]+\s+){0,3}?(?:to|as far as)\s+([^,;:.!?—–()]*?)\band\s+(?:(?:has|have|had)\s+)?(?:(?:${JOURNEY_PAST}|${JOURNEY_PERFECT}|went|gone)\s+)?((?:straight|directly)\s+)?back\b`,
  'iu',
);
/**
 * A coming in "straight off" or "fresh from" a place or its road, in either tense: the arrival into this
 * scene, whose journey is bounded by the days since the person's last scene ("Crassus came in last,
 * straight off the Ostia road, with … a night in the saddle stiff in his back": held-out corpus 70, bq16).
 * At most three small words and a comma between the verb and "straight": no other clause's subject.
 */
const COMING_IN = String.raw`^\s+(?:(?:only|just)\s+)?(?:${JOURNEY_PAST}|${JOURNEY_NOW}|strode)\b(?:\s+\p{Ll}+){0,3},?\s+`;
const STRAIGHT_OFF = new RegExp(String.raw`${COMING_IN}(?:straight|directly|fresh)\s+(?:off|from)\s+([^,;:.!?—–()]*)`, 'iu');
/**
 * A coming in told with the days it took ("Cato came in last, three days in the saddle from Manlius' camp at Faesulae":
 * held-out corpus 96, cq16): from that place, within those days.
 */
const SADDLE_FROM = new RegExp(String.raw`${COMING_IN}${FEW_DAYS}\s+${IN_THE_SADDLE}\s+from\s+([^,;:.!?—–()]*)`, 'iu');
/**
 * A coming told with, after a comma, the days of its road from a place ("Cato had come to the Palatine straight off the
 * Cassian Way, four hard days down from Faesulae, …": held-out corpus 99, ct16): from that place, within those days.
 */
const DAYS_DOWN_FROM = new RegExp(String.raw`^\s+(?:(?:has|have|had)\s+)?(?:(?:only|just)\s+)?(?:${JOURNEY_PAST}|${JOURNEY_PERFECT}|${JOURNEY_NOW})\b[^.;:!?"“”]*?,\s*${FEW}\s+(?:(?:hard|long|short|full|good)\s+)?(?:days?|nights?)\s+(?:(?:down|up|out|back|south|north)\s+)?from\s+([^,;:.!?—–()]*)`, 'iu');
const RECENT = /\b(?:yesterday|last night|overnight|this (?:morning|afternoon|evening)|today|(?:an?|one|two|three|a few) hours? ago|at (?:dawn|first light|daybreak|sunrise|cockcrow)|before (?:dawn|first light|daybreak)|at the (?:first|second|third|fourth) watch|(?:at|by|before) the (?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth) hour)\b/i;
/** Told in the past, the scene's own day is "that" day ("that dawn", "that morning", "the day before"). */
const RECENT_PAST = /\b(?:that (?:dawn|morning|afternoon|evening|night|day)|the (?:day|night|evening) before|the previous (?:day|night|evening))\b/i;
/** A relative clause on the name, after a comma or a dash: its verb is the name's ("Crassus, who has come from Ostia, sits"; "Clodius — who had ridden in at dawn from … Faesulae — put his head through": held-out corpus 122, dq16). */
const WHO = /^\s*[,—–]\s*who\s+/i;
/** Words that put a stay in the past, or a question: not the night before this scene. */
const DISTANT = new RegExp(
  String.raw`\b(?:once|(?<!\b(?:hours?|${FEW_DAYS})\s+)ago|years?|months?|last (?:year|month|spring|summer|autumn|winter)|used to|as a (?:boy|girl|young man)|in (?:his|her) youth|when (?:he|she) was)\b|\?`,
  'i',
);
/**
 * Words that put a journey in a mind, a condition or someone's mouth, read before it: the words
 * before the name and the journey's own. One after it is about something else ("had come straight
 * down from Faesulae …, to see the camp before he said another word about it": held-out corpus 16, j16).
 * A chorus telling each other, or a household that "has it that", reports (held-out corpus 125, dt10).
 */
const FRAMED = /\b(?:dreams?|dreamed|remembers?|recalls?|imagines?|if|unless|would|could|might|says|said|claims?|pretends?|rumou?rs?|supposedly|perhaps|telling each other|told each other|(?:has|had|have) it that)\b/i;
/** A denial: of the arrival only before its journey's end in its own clause ("has not come from Ostia"; not "…, and has not stopped to sleep"). */
const DENIED = /\b(?:not|never)\b/i;
/**
 * A subject pronoun opening a clause, after a time of the last few days or not, or after a participial phrase of
 * "having" opening the sentence ("Having ridden all night from Faesulae, his cloak still wet, he comes in": the
 * journey is frontedJourney's): who it is, pronoun-doer.ts decides.
 */
const HAVING_LEAD = /^\s*having\b/i;
const PRONOUN = new RegExp(String.raw`(?:^|[;:—–]\s*|,\s+(?:and|where)\s+|${HAVING_LEAD.source}[^;:.!?"“]*,\s*)(?:(?:${TIME_LEAD}|since then)\s*,?\s+)?(he|she)\b`, 'gi');

/**
 * The names a location may go by: its whole name (without "The"), and its last word when no person has it and no
 * other location shares it, or only locations no travel apart: "the Palatine" of "House of Cicero on the Palatine"
 * and "House of Crassus on the Palatine" is one quarter, a day from Ostia either way (prose audit 2, f6), read as
 * the scene's own when it is one of them.
 */
export function namesOf(ctx: VerifyContext, r: Reading): Map<string, { id: string; name: string }> {
  const locs = ctx.locations ?? [];
  const last = (n: string) => n.split(/\s+/).pop() ?? '';
  const out = new Map<string, { id: string; name: string }>();
  for (const l of locs) {
    out.set(l.name.replace(/^The\s+/, ''), l);
    const w = last(l.name);
    const sharing = locs.filter((o) => last(o.name) === w);
    const together = sharing.every((o) => o === l || ctx.travelDays?.(o.id, l.id) === 0);
    if (!/^\p{Lu}/u.test(w) || !together || r.index.forms.has(w.toLowerCase()) || out.has(w)) continue;
    const one = sharing.find((o) => o.id === ctx.packet.setting.location) ?? l;
    out.set(w, sharing.length > 1 ? { id: one.id, name: `the ${w}` } : one);
  }
  return out;
}

/**
 * The first world location named in `words`, as a whole word; with `located`, only one right after a
 * word of place (LOCATIVE); with `anyCase`, in capitals too (a screenplay's slugline: sluglines.ts).
 */
export function placeIn(words: string, names: Map<string, { id: string; name: string }>, located = false, anyCase = false): { id: string; name: string } | undefined {
  let best: { at: number; loc: { id: string; name: string } } | undefined;
  for (const [n, loc] of names) {
    const m = new RegExp(`(?<![\\p{L}])${escapeRegExp(n)}(?![\\p{L}])`, anyCase ? 'iu' : 'u').exec(words);
    if (m && located && !LOCATIVE.test(words.slice(0, m.index))) continue;
    if (m && (!best || m.index < best.at)) best = { at: m.index, loc };
  }
  return best?.loc;
}

/** A person spoken of in a sentence: a name or a subject pronoun, where its word starts and ends. */
type Spoken = { id: string; start: number; end: number };

/** The subject pronouns of `n` that stand for one person beyond doubt (pronounPerson), as mentions of them. */
function pronounsIn(n: Narration, r: Reading, ctx: VerifyContext): Spoken[] {
  if (n.said || n.pronoun || n.narr.includes('?') || FRAME.test(n.narr)) return [];
  const out: Spoken[] = [];
  for (const p of n.narr.matchAll(PRONOUN)) {
    const end = p.index! + p[0].length;
    // After a fronted "having" phrase the names in it are its objects ("from Manlius' camp"), not whom the pronoun means.
    const inSentence = !HAVING_LEAD.test(p[0]) && n.mentions.some((m) => m.start < end);
    const id = inSentence ? earlierInSentence(n, p[1]!, p.index!, r.index, ctx) : pronounPerson(n, p[1], r.index, ctx, 'paragraph') ?? soleCastMember(n, p[1]!, r.index, ctx);
    if (id) out.push({ id, start: end - p[1]!.length, end });
  }
  return out;
}

/** Every cast member the narration says has come from, or spent the night at, a place too far for the days they had. */
export function arrivalsElsewhere(r: Reading, ctx: VerifyContext): ArrivalElsewhere[] {
  const pk = ctx.packet;
  if (!ctx.travelDays || !ctx.locations?.length) return [];
  let names: Map<string, { id: string; name: string }> | undefined;
  const out: ArrivalElsewhere[] = [];
  for (const n of r.narration) {
    if (n.line <= 0) continue;
    for (const m of [...n.mentions, ...pronounsIn(n, r, ctx)]) {
      // A word of distance in time in the journey's clause: "…, and looks about her as if the city were a
      // place she had once read about" is another clause's (held-out corpus 22, c16).
      if (DISTANT.test(formerly(clauseAt(n.narr, Math.max(0, m.end - 1)).text))) continue;
      const c = pk.cast.find((x) => x.id === m.id);
      const j = c ? (whereJourney(n.narr, m.start, m.end) ?? journey(n.narr, m.end, n.past === true) ?? frontedJourney(n.narr, m.start)) : null;
      if (!c || !j || FRAMED.test(n.narr.slice(0, m.end) + j.told)) continue;
      const loc = placeIn(j.words, (names ??= namesOf(ctx, r)), j.located);
      if (loc && tooFar(loc, c, j.within, ctx, j.roundTrip)) out.push({ id: c.id, place: loc.name, line: n.line, text: n.text });
    }
  }
  return out;
}

/**
 * Whether a cast member told, in a scene told in the past, as being at a place mid-scene ("Within the hour Clodius was
 * back in the Subura, …" in a scene at Ostia: held-out corpus 104, cy16; places.ts placedThen) is at a world location
 * they could not reach within the scene: a day or more away, and not their last scene's place.
 */
export function placedFar(words: string, id: string, r: Reading, ctx: VerifyContext): boolean {
  const c = ctx.packet.cast.find((x) => x.id === id);
  if (!c || !ctx.travelDays || !ctx.locations?.length) return false;
  const loc = placeIn(words, namesOf(ctx, r));
  return !!loc && tooFar(loc, c, 0, ctx);
}

/**
 * Whether cast member `c`, at `loc` at most `within` days ago, could not have reached the scene's place:
 * not that place nor their last scene's, and more travel days away than the days they had (with
 * `roundTrip`, the way there from their last scene's place as well). One test
 * for the narration's whereabouts (above) and a speaker's own (spoken-whereabouts.ts).
 */
export function tooFar(loc: { id: string }, c: { previous_location?: string | null; days_since_previous: number }, within: number, ctx: VerifyContext, roundTrip = false): boolean {
  const here = ctx.packet.setting.location;
  const back = ctx.travelDays?.(loc.id, here);
  // There and back: from the last scene's place (or here) to it, and from it here.
  const out = roundTrip ? ctx.travelDays?.(c.previous_location ?? here, loc.id) : 0;
  if (back === undefined || out === undefined) return false;
  // The last scene's place is within reach of the days since it, unless a time word says the person was there later.
  const last = loc.id === c.previous_location && within >= c.days_since_previous;
  return loc.id !== here && !last && back + out > Math.min(c.days_since_previous, within);
}

/** A journey into the scene: the words naming where from, the days it can have taken, the words that tell it. */
interface Journey {
  words: string;
  within: number;
  told: string;
  /** The place must follow a word of place ("at", "in"): a whereabouts, not a journey's start. */
  located?: boolean;
  roundTrip?: boolean;
}

/**
 * A place, then a relative "where" whose subject is the person, being there at a time of the last few days ("Nepos
 * still smells of the Ostia quays, where he stood at dawn today": prose audit 2, f6): the place is the words before
 * "where", in their clause; the time bounds the journey. Without a time it is backstory ("the Subura, where he grew up").
 */
const WHERE_BEFORE = /([^;:.!?—–()]*?),?\s+where\s+$/i;
const BEING_THERE = /^\s+(?:(?:still|once)\s+)?(?:was|were|(?:had|has|have)\s+been|stood|sat|waited|slept|lay|stayed|lodged|spent)\b[^,;:.!?—–()]*/i;
function whereJourney(narr: string, start: number, end: number): Journey | null {
  const place = WHERE_BEFORE.exec(narr.slice(0, start));
  const there = place ? BEING_THERE.exec(narr.slice(end)) : null;
  const days = there ? daysBack(there[0]) : null;
  return place && there && days !== null && !DENIED.test(there[0]) ? { words: place[1]!, within: days, told: there[0] } : null;
}

/**
 * A journey told in a participial phrase before the name that is the sentence's subject ("Having ridden through the
 * night from his villa at Tusculum, the mud of the Latin Way still drying on the hem of his toga, Cicero comes in":
 * held-out corpus 85, cf16): no time word needed, as with an arrival right after the name.
 */
const HAVING_FROM = new RegExp(String.raw`^\s*(?:(?:and|then|so|but)\s+)?having\s+(?:just\s+)?(?:${JOURNEY_PERFECT}|galloped|set out)\b[^,;:.!?—–()]*?\b(?:from|out of)\b([^,;:.!?—–()]*)[^;:.!?]*,\s*$`, 'i');
function frontedJourney(narr: string, start: number): Journey | null {
  const m = HAVING_FROM.exec(narr.slice(0, start));
  return m && !DENIED.test(m[0]) ? { words: m[1]!, within: Infinity, told: m[0] } : null;
}

/**
 * The journey told right after a person's name (or past a relative "who" on it): the words where the
 * place is named, and the days it can have taken (a recent past: at most one), or null: none, or one
 * denied in its own clause, or a past one with no recent time.
 */
function journey(narr: string, end: number, past: boolean): Journey | null {
  const rel = WHO.exec(narr.slice(end));
  // An aside in dashes is its own clause: a word of distance in time anywhere in it ("— who had ridden in from …
  // Faesulae once, years ago, on a bet —") makes its journey backstory.
  if (rel && /[—–]/.test(rel[0]) && DISTANT.test(formerly(narr.slice(end + rel[0].length).split(/[—–]/)[0]!))) return null;
  const after = narr.slice(end).replace(WHO, ' ');
  const { text: clause, start } = clauseAt(narr, end);
  // Denied before the journey's end, in its clause: a "not" after it is another verb's ("He rode in
  // from Manlius' camp at Faesulae at dawn and has not yet been home": held-out corpus 19, f16).
  const denied = (m: RegExpExecArray) => DENIED.test(narr.slice(start, end)) || DENIED.test(after.slice(0, m.index) + m[0].split(/\s(?:and|but|while|yet)\s/)[0]);
  const v = (past || STRAIGHT_HAD.test(after) ? HAD_ARRIVED : ARRIVED).exec(after) ?? NIGHT.exec(after);
  // "has come straight from … the Palatine, not an hour ago" (prose audit 2, f6): a time in its clause bounds the journey.
  if (v) return denied(v) ? null : { words: v[2]!, within: daysBack(`${clause} ${v[0]}`) ?? Infinity, told: v[0] };
  const trip = ROUND_TRIP.exec(after);
  if (trip && !denied(trip)) {
    const perfect = !!trip[1] && /^had/i.test(trip[1]) === past;
    const days = daysBack(`${clause} ${trip[0]}`);
    if (perfect || trip[3] || days !== null) return { words: trip[2]!, within: days ?? Infinity, told: trip[0], roundTrip: true };
  }
  const straight = STRAIGHT_OFF.exec(after);
  if (straight) return denied(straight) ? null : { words: straight[1]!, within: Infinity, told: straight[0] };
  const saddle = SADDLE_FROM.exec(after) ?? DAYS_DOWN_FROM.exec(after);
  if (saddle && !denied(saddle)) return { words: saddle[2]!, within: numberIn(saddle[1]!) ?? Infinity, told: saddle[0] };
  const was = past ? null : WAS_AT.exec(after);
  const doing = past || was ? null : WAS_DOING.exec(after);
  const had = was || doing ? null : (past ? HAD_BEEN_AT : HAS_BEEN_AT).exec(after);
  // Told in the present, a past perfect of being somewhere is backstory but with a time of the last few days
  // ("Crassus had stood on the Tiber wharves at Ostia at first light this same morning, …": held-out corpus 100, cu16).
  const pastPerfect = was || doing || had || past ? null : HAD_BEEN_AT.exec(after);
  const at = was ?? doing ?? had ?? pastPerfect;
  if (at && !denied(at)) {
    // "Two nights ago Cato was standing among Manlius' tents at Faesulae" (held-out corpus 59, bf16): those days.
    const t = `${clause} ${at[0]}`;
    // "Yesterday at dawn" is a day back, not this dawn (held-out corpus 88, ci10): daysBack reads the days before the hour.
    const days = daysBack(t);
    if (days !== null) return { words: at[1]!, within: days, told: at[0], located: !!(doing ?? had ?? pastPerfect) };
    const on = pastPerfect ? null : THEN_HERE.exec(after.slice(at.index + at[0].length));
    if (on && !DENIED.test(on[0])) {
      const road = ON_THE_ROAD.exec(on[0]);
      const n = road ? numberIn((road[1] ?? road[2] ?? road[3])!) : undefined;
      return { words: at[1]!, within: n ?? Infinity, told: at[0] + on[0], located: true };
    }
  }
  const p = PAST_FROM.exec(after) ?? PAST_LEFT.exec(after);
  if (p && denied(p)) return null;
  const when = `${clause} ${p?.[0] ?? ''}`;
  // "left Manlius' camp at Faesulae four days ago" (held-out corpus 35, ah16): the journey had those days.
  // "the day before yesterday", two (not the one of the "yesterday" in it).
  const back = daysBack(when);
  if (p && back) return { words: p[1]!, within: back, told: p[0] };
  if (p && (RECENT.test(when) || (past && RECENT_PAST.test(when)))) return { words: p[1]!, within: 1, told: p[0] };
  // "rode up from Ostia in the dark and came straight to the Curia without going home" (held-out corpus 72, bs16):
  // a past journey that ends in this scene, with no time to bound it but the days since the last scene.
  return p && ON_HERE.test(after.split(/[.;!?]/)[0]!) ? { words: p[1]!, within: Infinity, told: p[0] } : null;
}
