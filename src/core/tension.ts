import type { World } from '../domain/world.js';
import { round } from './json.js';
import { OverlayMap } from './overlay-map.js';
import { memoList, registerPatch, type Patch } from './world-index.js';

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
  // memoised per list, and the per-principal threats are patched at the keys whose exposure or
  // enmity changed (issue 18: on 10,000 characters each state re-read 6,667 principals' maps).
  const ids = memoList(world.characters?.characters ?? NONE, livingPrincipalIds);
  if (ids.length === 0) return 0;
  const exposure = memoList(world.secrets?.secrets ?? NONE, exposureBySubject);
  const enmity = memoList(world.relationships?.relationships ?? NONE, enmityByTarget);
  const threats = threatVector(ids, exposure, enmity);
  let hit = threatMean.get(threats);
  if (hit === undefined) {
    // Summed in principal order, as the definition reads: the same float result as ever.
    let sum = 0;
    for (let i = 0; i < threats.length; i++) sum += threats[i]!;
    threatMean.set(threats, (hit = clamp10((sum / ids.length) * 10)));
  }
  return hit;
}

type PerTarget = ReadonlyMap<string, number>;
type Ids = readonly string[];
const NONE: readonly never[] = [];
const threatMean = new WeakMap<Float64Array, number>();
const vectors = new WeakMap<Ids, WeakMap<PerTarget, WeakMap<PerTarget, Float64Array>>>();
const positions = new WeakMap<Ids, Map<string, number[]>>();

/** threat(p) for each living principal, in list order; memoised per (principals, exposure, enmity). */
function threatVector(ids: Ids, exposure: PerTarget, enmity: PerTarget): Float64Array {
  const byExposure = vectors.get(ids) ?? vectors.set(ids, new WeakMap()).get(ids)!;
  const byEnmity = byExposure.get(exposure) ?? byExposure.set(exposure, new WeakMap()).get(exposure)!;
  let v = byEnmity.get(enmity);
  if (v) return v;
  const e = OverlayMap.split(exposure);
  const n = OverlayMap.split(enmity);
  if (e.base === exposure && n.base === enmity) {
    v = new Float64Array(ids.length);
    for (let i = 0; i < ids.length; i++) v[i] = threatOf(ids[i]!, exposure, enmity);
  } else {
    // The maps are overlays: the vector over their plain bases, re-read at the keys they change.
    v = threatVector(ids, e.base, n.base).slice();
    const at = positionsOf(ids);
    for (const changed of [e.changed, n.changed]) {
      for (const k of changed) for (const i of at.get(k) ?? NONE) v[i] = threatOf(k, exposure, enmity);
    }
  }
  byEnmity.set(enmity, v);
  return v;
}

const threatOf = (id: string, exposure: PerTarget, enmity: PerTarget): number => Math.min(1, Math.max(exposure.get(id) ?? 0, enmity.get(id) ?? 0));

function positionsOf(ids: Ids): Map<string, number[]> {
  let m = positions.get(ids);
  if (!m) {
    m = new Map();
    ids.forEach((id, i) => (m!.get(id) ?? m!.set(id, []).get(id)!).push(i));
    positions.set(ids, m);
  }
  return m;
}

type Char = World['characters']['characters'][number];
const isLivingPrincipal = (c: Char): boolean => Boolean(c.principal) && c.status === 'alive';

function livingPrincipalIds(chars: readonly Char[]): Ids {
  const ids: string[] = [];
  for (const c of chars) if (isLivingPrincipal(c)) ids.push(c.id);
  return ids;
}
// A copy whose changed characters neither became nor stopped being living principals (a stat or
// a belief changed) has the very same list: the vectors memoised over it stay valid.
registerPatch(livingPrincipalIds, (prev, original, items, changed) => {
  for (const i of changed) {
    const nw = items[i] as Char;
    if (i >= original.length) {
      if (isLivingPrincipal(nw)) return undefined;
      continue;
    }
    const old = original[i] as Char;
    if (isLivingPrincipal(old) !== isLivingPrincipal(nw) || (isLivingPrincipal(nw) && old.id !== nw.id)) return undefined;
  }
  return prev;
});

/**
 * A max-per-key map over a copy, from the original's: a replaced or appended element that raises its
 * key's max sets it; one that lowers the element that held the max cannot tell the new max, so the
 * map is rebuilt (undefined). Keys never change (the elements are the same entity).
 */
function maxPatch<T>(keyOf: (t: T) => string, valueOf: (t: T) => number): Patch {
  return (prevValue, original, items, changed) => {
    const prev = prevValue as PerTarget;
    const set = new Map<string, number>();
    const cur = (k: string) => set.get(k) ?? prev.get(k) ?? 0;
    for (const i of changed) {
      const nw = items[i] as T;
      const k = keyOf(nw);
      if (i < original.length) {
        const old = original[i] as T;
        if (keyOf(old) !== k) return undefined;
        if (valueOf(nw) < valueOf(old) && valueOf(old) >= cur(k)) return undefined;
      }
      if (valueOf(nw) > cur(k)) set.set(k, valueOf(nw));
    }
    return set.size ? OverlayMap.derive(prev, set) : prev;
  };
}

function exposureBySubject(secrets: readonly World['secrets']['secrets'][number][]): PerTarget {
  const exposure = new Map<string, number>();
  for (const s of secrets) {
    const w = EXPOSURE[s.status] ?? 0;
    const e = ((s.legal_value + s.public_damage) / 2) * w;
    if (e > (exposure.get(s.subject) ?? 0)) exposure.set(s.subject, e);
  }
  return exposure;
}

function enmityByTarget(rels: readonly World['relationships']['relationships'][number][]): PerTarget {
  const enmity = new Map<string, number>();
  for (const r of rels) {
    const v = r.weights?.rivalry ?? 0;
    // The map holds only maxima above 0: an edge without rivalry (a fifth of a synthetic world's) is not looked up.
    if (v > 0 && v > (enmity.get(r.to) ?? 0)) enmity.set(r.to, v);
  }
  return enmity;
}

const exposureOf = (s: World['secrets']['secrets'][number]) => ((s.legal_value + s.public_damage) / 2) * (EXPOSURE[s.status] ?? 0);
registerPatch(exposureBySubject, maxPatch((s: World['secrets']['secrets'][number]) => s.subject, exposureOf));
registerPatch(enmityByTarget, maxPatch((r: World['relationships']['relationships'][number]) => r.to, (r) => r.weights?.rivalry ?? 0));

/** tension = (threat_to_goals + scandal_temp + unrest) / 3, each on 0..10; rounded to 2 decimals. */
export function tension(world: World): number {
  return round((threatToGoals(world) + globalOn10(world, 'scandal_temp') + globalOn10(world, 'unrest')) / 3, 2);
}

