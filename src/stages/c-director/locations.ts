import type { Operator } from '../../domain/world.js';
import type { Rng } from '../../core/rng.js';
import { travelDays, type WorldIndex } from '../../core/world-index.js';
import { TIMES, type Candidate, type WhereaboutsBook } from './candidates.js';

/** Where a scene is set and when it can start: the places an operator allows, the cast's journeys. */
export function settingOk(index: WorldIndex, op: Operator, location: string): boolean {
  const l = index.locations.get(location);
  return !!l && op.settings.includes(l.setting);
}

/**
 * Location variety ("good drama"): an episode should not live in one house. A place that already
 * holds LOCATION_SOFT_CAP scenes is used again only when the move allows nowhere else (or
 * everywhere else is full too); below that, each earlier scene there costs LOCATION_REUSE_COST.
 */
export const LOCATION_SOFT_CAP = 4;
export const LOCATION_REUSE_COST = 0.75;
export const LOCATION_FULL_COST = 100;
/** A character staying where they already are (no journey, the scene plays on their ground). */
export const LOCATION_HOME_BONUS = 1;
/** Each day of travel of each bound character; a day's ride (Ostia, Tusculum) beats a full house. */
export const LOCATION_TRAVEL_COST = 1.5;
/** Candidate score lost per scene over the cap of the least-used place its operator allows. */
export const LOCATION_FULL_PENALTY = 0.5;

export const allowedPlaces = (index: WorldIndex, op: Operator): string[] =>
  [...index.locations.values()].filter((l) => op.settings.includes(l.setting)).map((l) => l.id).sort();

export function minUses(index: WorldIndex, op: Operator, uses: ReadonlyMap<string, number>): number {
  let m = Infinity;
  for (const l of allowedPlaces(index, op)) m = Math.min(m, uses.get(l) ?? 0);
  return m === Infinity ? 0 : m;
}

/**
 * The scene's place among those the operator's settings allow, cheapest first:
 *   cost = travel days of the bound characters x LOCATION_TRAVEL_COST
 *        + earlier scenes there x LOCATION_REUSE_COST (LOCATION_FULL_COST once at the soft cap)
 *        - LOCATION_HOME_BONUS if a bound character is already there.
 * Unreachable places are never chosen; ties go to the seed.
 */
export function pickLocation(index: WorldIndex, c: Candidate, where: WhereaboutsBook, uses: ReadonlyMap<string, number>, rng: Rng): string | null {
  const allowed = allowedPlaces(index, c.op);
  if (allowed.length === 0) return null;
  let best: string[] = [];
  let bestCost = Infinity;
  for (const l of allowed) {
    let travel = 0;
    let unreachable = false;
    let home = false;
    for (const id of c.chars) {
      if (index.characters.get(id)?.location === l) home = true;
      const from = where.get(id)?.location ?? index.characters.get(id)?.location ?? l;
      const d = travelDays(index, from, l);
      if (d === null) unreachable = true;
      else travel += d;
    }
    if (unreachable) continue;
    const n = uses.get(l) ?? 0;
    const cost = Math.round((travel * LOCATION_TRAVEL_COST + (n >= LOCATION_SOFT_CAP ? LOCATION_FULL_COST + n : n * LOCATION_REUSE_COST) - (home ? LOCATION_HOME_BONUS : 0)) * 100) / 100;
    if (cost < bestCost) { bestCost = cost; best = [l]; }
    else if (cost === bestCost) best.push(l);
  }
  if (best.length === 0) return null;
  // Equally near places: the seed chooses, so scenes do not all drift to the first id in the alphabet.
  return best.length === 1 ? best[0]! : rng.fork(`place/${c.key}`).pick(best);
}

/** The earliest (day, time) at `loc` no earlier than `from` that every cast member can reach. */
export function sceneTime(index: WorldIndex, cast: string[], loc: string, where: WhereaboutsBook, from: { day: number; tod: number }): { day: number; tod: number } | null {
  let day = from.day;
  let tod = from.tod;
  while (tod >= TIMES.length) { tod -= TIMES.length; day += 1; }
  if (tod < 0) tod = 0;
  for (const id of cast) {
    const w = where.get(id);
    const cur = index.characters.get(id)?.location ?? w?.location;
    if (!cur) continue;
    // An effect may have moved the character since their last scene (a flight, an arrest): the
    // journey counts from both places, as the time_and_place check replays it from the last scene.
    const d0 = travelDays(index, cur, loc);
    const d1 = w && w.location !== cur ? travelDays(index, w.location, loc) : d0;
    if (d0 === null || d1 === null) return null;
    const d = Math.max(d0, d1);
    const earliest = (w?.day ?? 0) + d;
    if (d > 0 && earliest > day) { day = earliest; tod = 1; }
    else if (d > 0 && earliest === day && w && w.day === day) { /* arrives the same day it left only if d == 0 */ }
  }
  return { day, tod };
}

