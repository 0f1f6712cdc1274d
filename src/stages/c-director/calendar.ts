import type { Anchor } from '../../domain/anchors.js';
import type { InWorldDate } from '../../domain/world.js';
import { addDays, compareDates } from '../../core/roman-date.js';
import { DEFAULT_EPISODES_PLANNED, type SeasonPacingGoals } from '../../core/threads.js';
import { liveAnchors } from './anchors.js';

/**
 * The season's calendar (issue 17, item 2; docs/planning.md "Season model"). An episode covers the
 * days its scenes span, then the usual gap (`days_per_episode` after a cliffhanger that allows a
 * time skip) passes before the next one. When the world declares anchors still to be played, the
 * season must reach the last of them by its finale (`episodes_planned`), or it would pass them
 * unplayed: the Director then lets days pass at the episode's act breaks ("four days later"), as
 * many as the distance left needs, spread over the episodes before the finale. Recomputed every
 * episode from the date the world is at, so a season that fell behind catches up.
 */

/** The days an episode itself usually spans (its scenes' days; journeys make it longer). */
const USUAL_SPAN = 4;
/** At most this many days pass at one act break (three breaks an episode). */
export const MAX_ACT_BREAK_DAYS = 12;
/** The act breaks of an episode (before acts 2, 3 and 4). */
const ACT_BREAKS = 3;

/** Whole days from a to b (0 when b is not later). */
export function daysUntil(a: InWorldDate, b: InWorldDate): number {
  let n = 0;
  let d = a;
  // Dates here are within a season (months apart): stepping a week at a time is cheap and exact.
  while (compareDates(addDays(d, 7), b) <= 0 && n < 3650) { d = addDays(d, 7); n += 7; }
  while (compareDates(d, b) < 0) { d = addDays(d, 1); n += 1; }
  return n;
}

/** The anchors the season still has to reach: live, dated after the opening, none of their operators played. */
export function pendingAnchors(anchors: readonly Anchor[] | null | undefined, opening: InWorldDate, played: ReadonlySet<string>): Anchor[] {
  return liveAnchors(anchors).filter((a) => compareDates(a.date, opening) > 0 && !a.operators.some((op) => played.has(op)));
}

export interface CalendarInput {
  opening: InWorldDate;
  episode: number;
  anchors: readonly Anchor[] | null | undefined;
  played: ReadonlySet<string>;
  goals: SeasonPacingGoals | null | undefined;
  daysPerEpisode: number;
}

/**
 * Days that pass at each act break of this episode: 0 when no anchor is pending or the usual pace
 * reaches the last one by the finale; else the shortfall per episode, split over the three breaks.
 */
export function actBreakDays(c: CalendarInput): number {
  const pending = pendingAnchors(c.anchors, c.opening, c.played);
  if (pending.length === 0) return 0;
  const last = pending.reduce((m, a) => (compareDates(a.date, m) > 0 ? a.date : m), pending[0]!.date);
  const finale = Math.max(1, c.goals?.episodes_planned ?? DEFAULT_EPISODES_PLANNED);
  // Episodes still to open before the finale opens (at least this one).
  const left = Math.max(1, finale - c.episode);
  const perEpisode = Math.ceil(daysUntil(c.opening, last) / left);
  const shortfall = perEpisode - Math.max(0, c.daysPerEpisode) - USUAL_SPAN;
  if (shortfall <= 0) return 0;
  return Math.min(MAX_ACT_BREAK_DAYS, Math.ceil(shortfall / ACT_BREAKS));
}
