import { numberIn } from './parse.js';

/**
 * How many days back a time word puts someone's whereabouts or the start of their journey: the days
 * the journey to this scene had. One table for every reader of a whereabouts told with its time:
 * a narration's "Two nights ago Cato was standing among Manlius' tents at Faesulae" (arrivals.ts) and
 * a speaker's own "I was at Faesulae the day before yesterday" (spoken-whereabouts.ts).
 */

/** A time of this very day: the journey had no day at all. */
export const SAME_DAY = /\b(?:this (?:morning|afternoon)|today|earlier today|(?:an?|one|two|three|a few) hours? (?:ago|before)|at (?:dawn|first light|daybreak|sunrise|cockcrow)|before (?:dawn|first light|daybreak))\b/i;
/** A few, in words or digits. */
const FEW_WORDS = String.raw`(?:one|two|three|four|five|six|seven|\d+)`;
/** The same, captured. */
export const FEW = `(${FEW_WORDS})`;
/** A few days or nights: "four days ago" bounds a journey (DAYS_AGO) and is no distant past. */
export const FEW_DAYS = String.raw`${FEW}\s+(?:days?|nights?)`;
/**
 * Said after a few days: back from now. "ago", and in a scene told in the past its "before" or "earlier" standing
 * alone ("Two days before, Cato had been sitting his horse on a ridge above Faesulae": held-out corpus 103, cx16);
 * not "two days before the Ides", a time of something else.
 */
const BACK = String.raw`(?:ago|earlier|before(?=\s*[,.;:!?—–]|\s*$))`;
/** A journey's start a few days ago: its days bound the journey, as "yesterday" bounds it to one. */
export const DAYS_AGO = new RegExp(String.raw`\b${FEW_DAYS}\s+${BACK}`, 'i');
/**
 * Two days back, said as English says it (held-out corpora 63–65, bj16, bk16 and bl16: "the day before
 * yesterday" at Faesulae). Looked for before ONE_DAY, whose "yesterday" is inside it: read as one day,
 * a journey begun the day before yesterday was judged to have had one day, not two.
 */
export const TWO_DAYS = /\b(?:the day before yesterday|the night before last)\b/i;
/** One day back. */
const ONE_DAY = /\b(?:yesterday|last night|overnight)\b/i;

/** The days a time word in `text` gives a journey (a few days ago, two, one, none), or null when it names none of these. */
export function daysBack(text: string): number | null {
  const ago = DAYS_AGO.exec(text);
  if (ago) return numberIn(ago[1]!) ?? 1;
  if (TWO_DAYS.test(text)) return 2;
  if (ONE_DAY.test(text)) return 1;
  return SAME_DAY.test(text) ? 0 : null;
}

/**
 * A time of the last few days as a clause's opening words, before its subject ("The day before
 * yesterday he was …": arrivals.ts): the same times as above, written as a phrase.
 */
export const TIME_LEAD = String.raw`(?:the day before yesterday|the night before last|yesterday|last night|this morning|earlier today|at (?:dawn|first light|daybreak)|${FEW_WORDS}\s+(?:days?|nights?)\s+${BACK})`;
