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
import { OverlayMap } from './overlay-map.js';
import { copyOrigin, isFinished, sealedPositions } from './finished-lists.js';

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
  /** Outgoing edges per character id, in file order, each `to` once (the first such edge; edgeOf looks one up). */
  readonly edgesFrom: ReadonlyMap<string, readonly Relationship[]>;
  /** Incoming edges per character id, in file order. */
  readonly edgesTo: ReadonlyMap<string, readonly Relationship[]>;
  readonly ledger: ReadonlyMap<string, LedgerAccount>;
  /** All-pairs shortest travel days; a missing entry means unreachable. travel.get(a).get(a) = 0. */
  readonly travel: ReadonlyMap<string, ReadonlyMap<string, number>>;
}


/**
 * Lookups built from one array, reused while the array holds the very same elements. Deltas are
 * applied copy-on-write (core/deltas), so a projected world shares every list a scene did not
 * touch with the state before it: the Director and the packet builder index a state per move and
 * per scene, and on a 10,000-principal world rebuilding the relationship maps each time dominated
 * planning. The reuse check compares element identities (cheap next to building a Map), so an
 * array edited in place (a test fixture pushing a character) is rebuilt, never served stale; over a
 * finished list (core/finished-lists.ts: the delta engine's results, the loaded world's) only its
 * length is checked (issue 18: the copies and comparisons of the loaded lists were ~15 ms of a
 * 10,000-character plan).
 */
const listMemo = new WeakMap<readonly object[], Map<Function, { items: readonly object[] | number; value: unknown }>>();

/**
 * Derives `build(items)` from `build(original)`: `changed` lists the positions where items differ
 * from original (replaced or appended; never shorter). Returns undefined to rebuild instead.
 */
export type Patch = (prev: unknown, original: readonly object[], items: readonly object[], changed: readonly number[]) => unknown;
const patchers = new Map<Function, Patch>();

/** Lets memoList derive `build`'s value over a copy from the original's (see Patch). */
export function registerPatch(build: Function, patch: Patch): void {
  patchers.set(build, patch);
}

/** Whether `items` still holds what `snapshot` (taken when a lookup was memoised: a copy, or a finished list's length) held. */
function unchanged(snapshot: readonly object[] | number, items: readonly object[]): boolean {
  return typeof snapshot === 'number' ? snapshot === items.length : sameItems(snapshot, items);
}

function sameItems(a: readonly object[], b: readonly object[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * `build(items)`, memoised per array and per builder (one list feeds several lookups: the id map,
 * the metrics' exposure and enmity maps). `build` must be a module-level function (its identity is the key).
 */
export function memoList<T extends object, V>(items: readonly T[], build: (items: readonly T[]) => V): V {
  let byBuilder = listMemo.get(items);
  const hit = byBuilder?.get(build);
  if (hit && unchanged(hit.items, items)) return hit.value as V;
  const value = (derived(items, build) ?? build(items)) as V;
  if (!byBuilder) listMemo.set(items, (byBuilder = new Map()));
  // A finished list is not edited in place: its length is its snapshot.
  byBuilder.set(build, { items: isFinished(items) ? items.length : items.slice(), value });
  return value;
}

/**
 * The lookup over a copy, patched from its nearest memoised original (a few copies up), or undefined.
 * Where the copy differs from that original: when every list from the copy up to it is finished (so
 * none was edited in place), the union of the positions each noted (noteChanges); otherwise found by
 * comparing every element. Why (issue 18): stage D and the Director index states several batches on
 * from the last one indexed, and comparing 10,000-35,000 elements for each was most of deriving.
 */
function derived(items: readonly object[], build: Function): unknown {
  const patch = patchers.get(build);
  if (!patch) return undefined;
  let noted: Set<number> | undefined = new Set();
  let list = items;
  let original = copyOrigin(items);
  for (let up = 0; original && up < 4; up++, list = original, original = copyOrigin(original)) {
    const step = sealedPositions(list);
    if (noted && step) for (const i of step) noted.add(i);
    else noted = undefined;
    const prev = listMemo.get(original)?.get(build);
    if (!prev || !unchanged(prev.items, original)) continue;
    if (items.length < original.length) return undefined;
    let changed: number[];
    if (noted && isFinished(original)) changed = [...noted].sort((a, b) => a - b);
    else {
      changed = [];
      for (let i = 0; i < items.length; i++) if (i >= original.length || items[i] !== original[i]) changed.push(i);
    }
    if (changed.length * 4 > items.length + 64) return undefined; // a rebuild is as cheap
    return patch(prev.value, original, items, changed);
  }
  return undefined;
}

/**
 * A first-occurrence map by key, patched: a replaced element must keep its key and have been the
 * first of it; an appended one is added unless its key is already there.
 */
function keyedPatch<T, V>(key: (t: T) => string, value: (t: T, i: number) => V): Patch {
  return (prevValue, original, items, changed) => {
    const prev = prevValue as ReadonlyMap<string, V>;
    const set: [string, V][] = [];
    const addedKeys = new Set<string>();
    for (const i of changed) {
      const nw = items[i] as T;
      const k = key(nw);
      if (i < original.length) {
        const old = original[i] as T;
        if (key(old) !== k) return undefined;
        if (prev.get(k) !== value(old, i)) continue; // not the first of its key: the map does not hold it
        if (value(nw, i) !== value(old, i)) set.push([k, value(nw, i)]);
      } else if (!prev.has(k) && !addedKeys.has(k)) {
        addedKeys.add(k);
        set.push([k, value(nw, i)]);
      }
    }
    return set.length ? OverlayMap.derive(prev, set) : prev;
  };
}

function buildById<T extends { id: string }>(items: readonly T[]): ReadonlyMap<string, T> {
  const m = new Map<string, T>();
  // First occurrence wins: duplicates are a validation error reported by the store, and the
  // index must stay deterministic even on an invalid world.
  for (const it of items) if (!m.has(it.id)) m.set(it.id, it);
  return m;
}
patchers.set(buildById, keyedPatch((t: { id: string }) => t.id, (t) => t));

/** The first entity of each id, memoised per list (the delta engine's drafts find entities by it). */
export function entitiesById<T extends { id: string }>(items: readonly T[]): ReadonlyMap<string, T> {
  return memoList(items, buildById);
}

/**
 * The first edge of each `${from}>${to}` of a list, looked up in its ends' lists (memoised per
 * list): the delta engine's drafts find relationships by that key. Ids are `^[a-z0-9_]+$` (the
 * schema), so the key's first `>` separates its ends.
 */
export function edgesByKey(items: readonly Relationship[]): { get(key: string): Relationship | undefined; readonly size: number } {
  const maps = memoList(items, buildEdges);
  return {
    get: (key) => {
      const cut = key.indexOf('>');
      return cut < 0 ? undefined : inList(maps.edgesFrom.get(key.slice(0, cut)), key.slice(cut + 1));
    },
    get size() {
      let n = 0;
      for (const l of maps.edgesFrom.values()) n += l.length;
      return n;
    },
  };
}

function byId<T extends { id: string }>(items: readonly T[] | undefined): ReadonlyMap<string, T> {
  return items ? memoList(items, buildById) : new Map<string, T>();
}

interface EdgeMaps {
  edgesFrom: ReadonlyMap<string, readonly Relationship[]>;
  edgesTo: ReadonlyMap<string, readonly Relationship[]>;
}

/**
 * The first edge from → to: in `from`'s list of edges (which holds each `to` once). Lists are a few
 * edges long (at most 59 on the DPRR world), so a short one is scanned and a long one gets a map of
 * its `to`s, once (a published list is never edited). No map keyed by joined ids of every edge is
 * built (issue 18: at 10,000 characters, 35,000 keys made for a few hundred lookups a plan).
 */
export function edgeOf(index: Pick<WorldIndex, 'edgesFrom'>, from: string, to: string): Relationship | undefined {
  return inList(index.edgesFrom.get(from), to);
}

const SCAN_MAX = 16;
const toMaps = new WeakMap<readonly Relationship[], Map<string, Relationship>>();

function inList(list: readonly Relationship[] | undefined, to: string): Relationship | undefined {
  if (!list) return undefined;
  if (list.length <= SCAN_MAX) return scanTo(list, to);
  let m = toMaps.get(list);
  if (!m) {
    m = new Map();
    for (const r of list) m.set(r.to, r);
    toMaps.set(list, m);
  }
  return m.get(to);
}

function scanTo(list: readonly Relationship[], to: string): Relationship | undefined {
  for (const r of list) if (r.to === to) return r;
  return undefined;
}

function buildEdges(rels: readonly Relationship[]): EdgeMaps {
  const edgesFrom = new Map<string, Relationship[]>();
  const edgesTo = new Map<string, Relationship[]>();
  // The `to`s of each list past SCAN_MAX edges, so that a world with a character of thousands of
  // edges does not scan its list for each of them.
  const long = new Map<string, Set<string>>();
  // A world file lists each character's edges together (sorted by `from`): the last list is reused
  // while `from` stays the same, without hashing each edge's own copy of the id (issue 18).
  let from: string | undefined;
  let out: Relationship[] | undefined;
  for (const r of rels) {
    if (out === undefined || r.from !== from) out = edgesFrom.get((from = r.from));
    if (!out) edgesFrom.set(r.from, (out = [r]));
    else {
      const seen = out.length > SCAN_MAX ? long.get(r.from) ?? long.set(r.from, new Set(out.map((x) => x.to))).get(r.from)! : undefined;
      if (seen ? seen.has(r.to) : scanTo(out, r.to)) continue; // a later duplicate: not indexed
      out.push(r);
      seen?.add(r.to);
    }
    const into = edgesTo.get(r.to);
    if (into) into.push(r);
    else edgesTo.set(r.to, [r]);
  }
  return { edgesFrom, edgesTo };
}

/** buildEdges of a copy from its original's: replaced edges swapped in place in their lists, new ones appended. */
function patchEdges(prevValue: unknown, original: readonly object[], items: readonly object[], changed: readonly number[]): EdgeMaps | undefined {
  const prev = prevValue as EdgeMaps;
  const lists = { from: new Map<string, Relationship[]>(), to: new Map<string, Relationship[]>() };
  const current = (id: string): readonly Relationship[] => lists.from.get(id) ?? prev.edgesFrom.get(id) ?? [];
  const listOf = (side: 'from' | 'to', id: string): Relationship[] => {
    let l = lists[side].get(id);
    if (!l) lists[side].set(id, (l = [...((side === 'from' ? prev.edgesFrom : prev.edgesTo).get(id) ?? [])]));
    return l;
  };
  for (const i of changed) {
    const r = items[i] as Relationship;
    if (i < original.length) {
      const old = original[i] as Relationship;
      if (old.from !== r.from || old.to !== r.to) return undefined;
      if (scanTo(current(r.from), r.to) !== old) continue; // a later duplicate: not indexed
      for (const side of ['from', 'to'] as const) {
        const l = listOf(side, r[side]);
        l[l.indexOf(old)] = r;
      }
    } else if (!scanTo(current(r.from), r.to)) {
      listOf('from', r.from).push(r);
      listOf('to', r.to).push(r);
    }
  }
  return {
    edgesFrom: lists.from.size ? OverlayMap.derive(prev.edgesFrom, lists.from) : prev.edgesFrom,
    edgesTo: lists.to.size ? OverlayMap.derive(prev.edgesTo, lists.to) : prev.edgesTo,
  };
}
patchers.set(buildEdges, patchEdges);

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

const EMPTY: readonly never[] = [];
const travelMemo = new WeakMap<object, WeakMap<object, Map<string, Map<string, number>>>>();

/**
 * The travel matrix of an index, shared by every state with the same locations and travel lists (planning
 * indexes hundreds of states per episode and moves never edit the map). It is only read (travelDays).
 */
function sharedTravel(world: World): Map<string, Map<string, number>> {
  const locs = world.world?.locations ?? EMPTY;
  const travel = world.world?.travel ?? EMPTY;
  let byTravel = travelMemo.get(locs);
  if (!byTravel) travelMemo.set(locs, (byTravel = new WeakMap()));
  let m = byTravel.get(travel);
  if (!m) byTravel.set(travel, (m = travelMatrix(world)));
  return m;
}

export function indexWorld(world: World): WorldIndex {
  const rels = world.relationships?.relationships;
  const { edgesFrom, edgesTo } = rels ? memoList(rels, buildEdges) : buildEdges([]);
  return {
    world,
    characters: byId(world.characters?.characters),
    secrets: byId(world.secrets?.secrets),
    threads: byId(world.threads?.threads),
    locations: byId(world.world?.locations),
    factions: byId(world.factions?.factions),
    operators: byId(world.operators?.operators),
    edgesFrom,
    edgesTo,
    ledger: byId(world.assets?.cash_ledger),
    travel: sharedTravel(world),
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

const stateMemos = new WeakMap<object, Map<unknown, unknown>>();

/**
 * `compute()` once per state and key. A WorldIndex (or a World) is one immutable state, and planning
 * asks the same questions of it many times (which characters can act, which threads are resolved,
 * which hard constraints already break, a candidate's prerequisites): each such memo is a key here
 * rather than a WeakMap of its own. `key` is any stable identity (a module's function or symbol).
 */
export function perState<V>(state: object, key: unknown, compute: () => V): V {
  let m = stateMemos.get(state);
  if (!m) stateMemos.set(state, (m = new Map()));
  if (m.has(key)) return m.get(key) as V;
  const v = compute();
  m.set(key, v);
  return v;
}
