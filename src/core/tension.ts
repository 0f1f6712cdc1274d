import type { World } from '../domain/world.js';
import { round } from './json.js';
import { memoList } from './world-index.js';

/** The tension metric of docs/metrics.md (split from core/metrics.ts, which re-exports it). */

const clamp10 = (x: number) => Math.min(10, Math.max(0, x));

/** A global metric mapped linearly from its declared min..max to 0..10 (0 when absent). */
export function globalOn10(world: World, name: string): number {
  const m = world.world?.global?.[name];
  if (!m || !Object.hasOwn(world.world.global, name) || !(m.max > m.min)) return 0;
  return clamp10(((m.value - m.min) / (m.max - m.min)) * 10);
}

const EXPOSURE: Record<string, number> = { hidden: 0.5, rumored: 0.75, revealed: 1, inert: 0 };

/**
 * threat_to_goals (0-10): how endangered the living principals are, on average.
 * For each living principal p:
 *   exposure(p) = max over non-inert secrets about p of (legal_value + public_damage) / 2
 *                 x status weight (hidden 0.5, rumored 0.75, revealed 1)
 *   enmity(p)   = max over edges x->p of rivalry (x any character)
 *   threat(p)   = max(exposure(p), enmity(p))            (0..1)
 * threat_to_goals = 10 x mean over living principals of threat(p) (0 when there are none).
 */
export function threatToGoals(world: World): number {
  // Planning asks this of every projected state, twice per scene and again in the acceptance
  // checks; states share every list a scene did not touch (copy-on-write), so each part is
  // memoised per list (issue 18): a scene that moves a secret rebuilds the exposure map only.
  const principals = memoList(world.characters?.characters ?? NONE, livingPrincipals);
  if (principals.length === 0) return 0;
  const exposure = memoList(world.secrets?.secrets ?? NONE, exposureBySubject);
  const enmity = memoList(world.relationships?.relationships ?? NONE, enmityByTarget);
  let sum = 0;
  for (const p of principals) sum += Math.min(1, Math.max(exposure.get(p.id) ?? 0, enmity.get(p.id) ?? 0));
  return clamp10((sum / principals.length) * 10);
}

const NONE: readonly never[] = [];

function livingPrincipals(chars: readonly World['characters']['characters'][number][]) {
  return chars.filter((c) => c.principal && c.status === 'alive');
}

function exposureBySubject(secrets: readonly World['secrets']['secrets'][number][]): Map<string, number> {
  const exposure = new Map<string, number>();
  for (const s of secrets) {
    const w = EXPOSURE[s.status] ?? 0;
    const e = ((s.legal_value + s.public_damage) / 2) * w;
    if (e > (exposure.get(s.subject) ?? 0)) exposure.set(s.subject, e);
  }
  return exposure;
}

function enmityByTarget(rels: readonly World['relationships']['relationships'][number][]): Map<string, number> {
  const enmity = new Map<string, number>();
  for (const r of rels) {
    const v = r.weights?.rivalry ?? 0;
    if (v > (enmity.get(r.to) ?? 0)) enmity.set(r.to, v);
  }
  return enmity;
}

/** tension = (threat_to_goals + scandal_temp + unrest) / 3, each on 0..10; rounded to 2 decimals. */
export function tension(world: World): number {
  return round((threatToGoals(world) + globalOn10(world, 'scandal_temp') + globalOn10(world, 'unrest')) / 3, 2);
}

