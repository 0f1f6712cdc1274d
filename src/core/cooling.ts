import type { ResolvedDelta } from '../domain/delta.js';
import type { World } from '../domain/world.js';
import { round } from './json.js';

/**
 * The world cools between episodes (issue 17, item 5; docs/planning.md "Season model"). A global
 * metric that declares `rest` and `half_life_days` (world.json) relaxes toward its rest level as
 * the days of the calendar pass — gossip cools, the streets calm, the price of grain settles:
 *
 *   value' = rest + (value - rest) x 0.5 ^ (days / half_life_days)      (rounded to 2 decimals)
 *
 * Without it the season's heat only accumulates: every metric tension reads would sit at its
 * maximum by mid-season and no episode could build. Stage H applies it (event "cooling") over the
 * days the episode spanned plus the gap before the next one, after the decay pass and thread
 * progress, before the calendar moves. Returns `set` deltas, in the metrics' name order.
 */
export function coolingDeltas(world: World, days: number): ResolvedDelta[] {
  if (!(days > 0)) return [];
  const out: ResolvedDelta[] = [];
  const global = world.world?.global ?? {};
  for (const name of Object.keys(global).sort()) {
    const m = global[name]!;
    if (typeof m.rest !== 'number' || !(typeof m.half_life_days === 'number' && m.half_life_days > 0)) continue;
    const next = round(m.rest + (m.value - m.rest) * Math.pow(0.5, days / m.half_life_days), 2);
    const clamped = Math.min(m.max, Math.max(m.min, next));
    if (clamped !== m.value) out.push({ path: `world.global.${name}`, op: 'set', value: clamped });
  }
  return out;
}
