import { round } from '../core/json.js';
import type { Rng } from '../core/rng.js';
import type { Relationship, WeightName } from '../domain/world.js';
import { WEIGHT_NAMES } from '../domain/world.js';
import type { SourceTie } from './model.js';

/** Source ties merged per directed pair (strongest weight, union of flags), with a little seeded noise. */
export function mergeTies(ties: SourceTie[], ids: Set<string>, rng: Rng): Map<string, Relationship> {
  const edges = new Map<string, Relationship>();
  for (const t of ties) {
    if (!ids.has(t.from) || !ids.has(t.to) || t.from === t.to) continue;
    const key = `${t.from}\u0000${t.to}`;
    let e = edges.get(key);
    if (!e) {
      e = { from: t.from, to: t.to, weights: Object.fromEntries(WEIGHT_NAMES.map((w) => [w, 0])) as Record<WeightName, number>, flags: [] };
      edges.set(key, e);
    }
    for (const [w, v] of Object.entries(t.weights) as [WeightName, number][]) e.weights[w] = Math.max(e.weights[w], v);
    for (const f of t.flags) if (!e.flags.includes(f)) e.flags.push(f);
  }
  // A little seeded noise, so two brothers of the same father are not carbon copies.
  for (const e of edges.values()) {
    const r = rng.fork(`edge/${e.from}/${e.to}`);
    for (const w of WEIGHT_NAMES) {
      const v = e.weights[w];
      e.weights[w] = v === 0 ? 0 : round(Math.max(0, Math.min(1, v + (r.next() - 0.5) * 0.16)), 2);
    }
    e.flags.sort();
  }
  return edges;
}

/**
 * The world's relationships: the source ties, then invented political ties so every principal has
 * allies and rivals among the other principals (the planner needs targets), sorted by (from, to).
 */
export function relationshipsOf(edges: Map<string, Relationship>, principalList: string[], principalIds: Set<string>, factionById: Map<string, string>, rng: Rng): Relationship[] {
  const addEdge = (from: string, to: string, weights: Partial<Record<WeightName, number>>, flags: string[]) => {
    const key = `${from}\u0000${to}`;
    if (edges.has(key) || from === to) return;
    const w = Object.fromEntries(WEIGHT_NAMES.map((n) => [n, round(weights[n] ?? 0, 2)])) as Record<WeightName, number>;
    edges.set(key, { from, to, weights: w, flags: [...flags].sort() });
  };
  if (principalList.length > 1) {
    const princDegree = new Map<string, number>(principalList.map((id) => [id, 0]));
    for (const e of edges.values()) if (principalIds.has(e.from) && principalIds.has(e.to)) princDegree.set(e.from, princDegree.get(e.from)! + 1);
    for (const id of principalList) {
      const r = rng.fork(`invented-ties/${id}`);
      for (let tries = 0; princDegree.get(id)! < 3 && tries < 8; tries++) {
        const other = r.pick(principalList);
        if (other === id || edges.has(`${id}\u0000${other}`)) continue;
        const same = factionById.get(id) === factionById.get(other);
        if (same) {
          addEdge(id, other, { loyalty: 0.45 + r.next() * 0.3, trust: 0.4 + r.next() * 0.3, affection: 0.2 + r.next() * 0.3 }, ['ally', 'invented']);
          addEdge(other, id, { loyalty: 0.4 + r.next() * 0.3, trust: 0.35 + r.next() * 0.3, affection: 0.2 + r.next() * 0.3 }, ['ally', 'invented']);
        } else if (r.next() < 0.3) {
          addEdge(id, other, { debt: 0.4 + r.next() * 0.4, fear: 0.1 + r.next() * 0.3, trust: 0.2 + r.next() * 0.2 }, ['debtor', 'invented']);
          addEdge(other, id, { rivalry: 0.1 + r.next() * 0.2, trust: 0.2 + r.next() * 0.2 }, ['creditor', 'invented']);
        } else {
          addEdge(id, other, { rivalry: 0.5 + r.next() * 0.35, fear: 0.1 + r.next() * 0.3, trust: r.next() * 0.15 }, ['invented', 'rival']);
          addEdge(other, id, { rivalry: 0.45 + r.next() * 0.35, fear: 0.1 + r.next() * 0.3, trust: r.next() * 0.15 }, ['invented', 'rival']);
        }
        princDegree.set(id, princDegree.get(id)! + 1);
        princDegree.set(other, (princDegree.get(other) ?? 0) + 1);
      }
    }
  }
  return [...edges.values()].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0));
}
