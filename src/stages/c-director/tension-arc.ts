import type { Operator, World } from '../../domain/world.js';
import type { EpisodeShape } from './shape.js';

/**
 * The episode's tension arc (spec §10.1 tension; issue 17, item 5): the Director does not only
 * report tension, it plans to it. Each scene has a target tension: act 1 settles a little below
 * the opening (the aftermath of the last cliffhanger), then acts 2-4 climb by RISE (more as the
 * season nears its finale). Every candidate move carries its expected effect on tension (from its
 * effects and risks, weighted by their odds); while the projection is below the scene's target,
 * moves that raise tension score higher and moves that lower it score lower, and the other way
 * round above it. So the acts build, and the order of moves within an episode follows the arc.
 *
 * Tension is (threat_to_goals + scandal_temp + unrest) / 3 (core/tension.ts). The expected effect
 * reads the two global terms exactly (a metric's change over its declared range, on 0..10, / 3);
 * threat_to_goals moves with secrets' exposure and rivalries, which a move shifts by a little.
 */

/** How far act 1 settles below the opening tension at the season's start (points of 10; none at the finale). */
export const SETTLE = 0.8;
/** The climb from the end of act 1 to the end of act 4 at the season's start, and at its finale. */
export const RISE = { start: 2.4, finale: 3.4 } as const;
/**
 * No target above this, which rises with the season (at its start, at its finale): an episode in
 * the middle of the season climbs, but the season keeps its highest peaks for its last third.
 */
export const CEILING = { start: 5.4, finale: 9 } as const;
/** Score per point of expected tension change, at full pull, at the season's start (x1.5 at its finale). */
export const TENSION_WEIGHT = 30;

/**
 * The arc's weight in the score: stronger as the finale nears, when fewer fresh public moves are
 * left (cooldowns, the fallen, secrets already out) and the season's peak is still to come.
 */
export function arcWeight(seasonProgress: number): number {
  return TENSION_WEIGHT * (1 + 0.5 * Math.min(1, Math.max(0, seasonProgress)));
}
/** A gap of this many points between the projection and its target pulls at full strength. */
const PULL_SCALE = 0.3;

/** Tension's global terms (core/tension.ts). */
const TENSION_GLOBALS = new Set(['scandal_temp', 'unrest']);
/** Rough tension change of a secret's new status (its subject's exposure rises). */
const SECRET_STATUS: Record<string, number> = { revealed: 0.08, rumored: 0.04, inert: -0.04 };
/** Rough tension change per unit of rivalry added on an edge. */
const RIVALRY = 0.1;

type Effect = Operator['effects'][number];

function effectTension(e: Effect, world: World): number {
  const path = String(e.path);
  const g = /^world\.global\.([a-z0-9_]+)$/.exec(path);
  if (g && TENSION_GLOBALS.has(g[1]!) && typeof e.value === 'number') {
    const m = world.world.global[g[1]!];
    if (!m || !(m.max > m.min)) return 0;
    const sign = e.op === 'add' ? 1 : e.op === 'subtract' ? -1 : 0;
    return (sign * e.value * 10) / (m.max - m.min) / 3;
  }
  if (/\.status$/.test(path) && /^secret/.test(path) && typeof e.value === 'string') return SECRET_STATUS[e.value] ?? 0;
  if (/\.rivalry$/.test(path) && typeof e.value === 'number') return (e.op === 'add' ? 1 : e.op === 'subtract' ? -1 : 0) * e.value * RIVALRY;
  return 0;
}

const expected = new WeakMap<Operator, number>();

/** The operator's expected change of tension: its effects if no risk triggers, each risk's effects at its odds. */
export function expectedTension(op: Operator, world: World): number {
  let v = expected.get(op);
  if (v !== undefined) return v;
  const pSuccess = op.side_effect_risks.reduce((p, r) => p * (1 - r.prob), 1);
  v = pSuccess * op.effects.reduce((n, e) => n + effectTension(e, world), 0);
  for (const r of op.side_effect_risks) v += r.prob * (r.effects ?? []).reduce((n, e) => n + effectTension(e, world), 0);
  expected.set(op, v);
  return v;
}

/** The target tension after each scene (index = scene number - 1). */
export function tensionTargets(opening: number, shape: EpisodeShape, seasonProgress: number): number[] {
  const p = Math.min(1, Math.max(0, seasonProgress));
  const rise = RISE.start + (RISE.finale - RISE.start) * p;
  const ceiling = CEILING.start + (CEILING.finale - CEILING.start) * p;
  // Late in the season act 1 no longer settles: the finale's episodes hold their heat from the start.
  const act1 = Math.max(0, opening - SETTLE * (1 - p));
  const ends = [opening, act1, act1 + rise / 3, act1 + (2 * rise) / 3, act1 + rise].map((t) => Math.min(ceiling, t));
  return shape.scenes.map((s) => {
    const inAct = shape.scenes.filter((x) => x.act === s.act);
    const pos = (inAct.indexOf(s) + 1) / inAct.length;
    return ends[s.act - 1]! + (ends[s.act]! - ends[s.act - 1]!) * pos;
  });
}

/** How hard the arc pulls: +1 well below the target (raise tension), -1 well above it (lower it). */
export function tensionPull(target: number, current: number): number {
  return Math.max(-1, Math.min(1, (target - current) / PULL_SCALE));
}
