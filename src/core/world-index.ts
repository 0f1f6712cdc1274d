import type {
  Character,
  Faction,
  LedgerAccount,
  Location,
  Operator,
  Relationship,
  Secret,
  Thread,
  World,
} from '../domain/world.js';

/**
 * Lookup tables over one World state. Built once per state (O(n) plus the travel matrix) and
 * treated as read-only; after a scene, build a new one from the new World. Maps (not plain
 * objects) so that an id like "__proto__" or "constructor" can never hit a prototype.
 */
export interface WorldIndex {
  readonly world: World;
  readonly characters: ReadonlyMap<string, Character>;
  readonly secrets: ReadonlyMap<string, Secret>;
  readonly threads: ReadonlyMap<string, Thread>;
  readonly locations: ReadonlyMap<string, Location>;
  readonly factions: ReadonlyMap<string, Faction>;
  readonly operators: ReadonlyMap<string, Operator>;
  /** Key `${from}>${to}`. */
  readonly edges: ReadonlyMap<string, Relationship>;
  /** Outgoing edges per character id, in file order. */
  readonly edgesFrom: ReadonlyMap<string, readonly Relationship[]>;
  /** Incoming edges per character id, in file order. */
  readonly edgesTo: ReadonlyMap<string, readonly Relationship[]>;
  readonly ledger: ReadonlyMap<string, LedgerAccount>;
  /** All-pairs shortest travel days; a missing entry means unreachable. travel.get(a).get(a) = 0. */
  readonly travel: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

export const edgeKey = (from: string, to: string): string => `${from}>${to}`;

/**
 * Lookups built from one array, reused while the array holds the very same elements. Deltas are
 * applied copy-on-write (core/deltas), so a projected world shares every list a scene did not
 * touch with the state before it: the Director and the packet builder index a state per move and
 * per scene, and on a 10,000-principal world rebuilding the relationship maps each time dominated
 * planning. The reuse check compares element identities (cheap next to building a Map), so an
 * array edited in place (a test fixture pushing a character) is rebuilt, never served stale.
 */
const listMemo = new WeakMap<readonly object[], Map<Function, { items: readonly object[]; value: unknown }>>();

/**
 * `build(items)`, memoised per array and per builder (one list feeds several lookups: the id map,
 * the metrics' exposure and enmity maps). `build` must be a module-level function (its identity is the key).
 */
export function memoList<T extends object, V>(items: readonly T[], build: (items: readonly T[]) => V): V {
  let byBuilder = listMemo.get(items);
  const hit = byBuilder?.get(build);
  if (hit && hit.items.length === items.length && hit.items.every((x, i) => x === items[i])) return hit.value as V;
  const value = build(items);
  if (!byBuilder) listMemo.set(items, (byBuilder = new Map()));
  byBuilder.set(build, { items: items.slice(), value });
  return value;
}

function buildById<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  const m = new Map<string, T>();
  // First occurrence wins: duplicates are a validation error reported by the store, and the
  // index must stay deterministic even on an invalid world.
  for (const it of items) if (!m.has(it.id)) m.set(it.id, it);
  return m;
}

function byId<T extends { id: string }>(items: readonly T[] | undefined): Map<string, T> {
  return items ? memoList(items, buildById) : new Map<string, T>();
}

interface EdgeMaps {
  edges: Map<string, Relationship>;
  edgesFrom: Map<string, Relationship[]>;
  edgesTo: Map<string, Relationship[]>;
}

function buildEdges(rels: readonly Relationship[]): EdgeMaps {
  const edges = new Map<string, Relationship>();
  const edgesFrom = new Map<string, Relationship[]>();
  const edgesTo = new Map<string, Relationship[]>();
  for (const r of rels) {
    const k = edgeKey(r.from, r.to);
    if (edges.has(k)) continue;
    edges.set(k, r);
    (edgesFrom.get(r.from) ?? edgesFrom.set(r.from, []).get(r.from)!).push(r);
    (edgesTo.get(r.to) ?? edgesTo.set(r.to, []).get(r.to)!).push(r);
  }
  return { edges, edgesFrom, edgesTo };
}

/**
 * Shortest travel days between every pair of locations (Floyd–Warshall; a season has tens of
 * locations, so O(n^3) is negligible). Edges are symmetric; the shortest declared edge wins.
 */
function travelMatrix(world: World): Map<string, Map<string, number>> {
  const ids = (world.world?.locations ?? []).map((l) => l.id);
  const known = new Set(ids);
  const d = new Map<string, Map<string, number>>();
  for (const a of ids) d.set(a, new Map([[a, 0]]));
  const relax = (a: string, b: string, days: number) => {
    const row = d.get(a)!;
    const cur = row.get(b);
    if (cur === undefined || days < cur) row.set(b, days);
  };
  for (const e of world.world?.travel ?? []) {
    if (!known.has(e.from) || !known.has(e.to) || !(e.days >= 0)) continue;
    relax(e.from, e.to, e.days);
    relax(e.to, e.from, e.days);
  }
  for (const k of ids) {
    const dk = d.get(k)!;
    for (const i of ids) {
      const di = d.get(i)!;
      const ik = di.get(k);
      if (ik === undefined) continue;
      for (const [j, kj] of dk) {
        const via = ik + kj;
        const ij = di.get(j);
        if (ij === undefined || via < ij) di.set(j, via);
      }
    }
  }
  return d;
}

export function indexWorld(world: World): WorldIndex {
  const rels = world.relationships?.relationships;
  const { edges, edgesFrom, edgesTo } = rels ? memoList(rels, buildEdges) : buildEdges([]);
  return {
    world,
    characters: byId(world.characters?.characters),
    secrets: byId(world.secrets?.secrets),
    threads: byId(world.threads?.threads),
    locations: byId(world.world?.locations),
    factions: byId(world.factions?.factions),
    operators: byId(world.operators?.operators),
    edges,
    edgesFrom,
    edgesTo,
    ledger: byId(world.assets?.cash_ledger),
    travel: travelMatrix(world),
  };
}

/** Shortest travel days between two locations, or null when there is no route (or an unknown id). */
export function travelDays(index: WorldIndex, from: string, to: string): number | null {
  return index.travel.get(from)?.get(to) ?? null;
}

/** Sum of all ledger balances. */
export function ledgerTotal(world: World): number {
  let t = 0;
  for (const a of world.assets?.cash_ledger ?? []) t += a.denarii;
  return t;
}
