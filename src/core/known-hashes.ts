import { isFinished } from './finished-lists.js';

/**
 * Hashes of a loaded world that need not be taken again (issue 18): the derived world index
 * (store/derived-index) keeps, for one exact set of world files, the world's flat hash (the default
 * seed's basis) and the chunk digests of each of its lists (core/state-hash.ts); the loader notes
 * them here against the values it parsed, and every StateHasher uses them in place of walking those
 * lists. At 10,000 characters that walk (writing and hashing 18 MB of canonical text) was ~105 ms of
 * an `episode plan`'s CPU.
 *
 * Loaded states are never edited in place (copy-on-write deltas; core/json.ts parsedCanonical rests
 * on the same rule). The guard below is for the slip that rule is easiest to break by (a test
 * fixture pushing a character into a loaded list): a list's digests are used only while it holds
 * the very elements it held when noted (a finished list, core/finished-lists.ts: while it is as long),
 * and the flat hash only while each list is still where it was.
 */
interface KnownList {
  digests: readonly string[];
  /** Every element is canonical (core/json.ts): the list lies in a file parsed canonical throughout. */
  canonical: boolean;
  /** The list's elements when noted (their identities; the elements themselves are not copied), or a finished list's length. */
  snapshot: readonly unknown[] | number;
}

const lists = new WeakMap<readonly unknown[], KnownList>();
const worlds = new WeakMap<object, { flat: string; lists: readonly { path: readonly string[]; list: readonly unknown[] }[] }>();

/** One list of a world reached through objects only (the state hash's definition), by its keys from the world down. */
export interface WorldList {
  path: readonly string[];
  list: readonly unknown[];
  digests: readonly string[];
  canonical: boolean;
}

/** Note the hashes of `world`, as just loaded: its flat hash and every list's chunk digests. */
export function noteKnownHashes(world: object, flat: string, known: readonly WorldList[]): void {
  for (const k of known) lists.set(k.list, { digests: k.digests, canonical: k.canonical, snapshot: isFinished(k.list) ? k.list.length : k.list.slice() });
  worlds.set(world, { flat, lists: known.map((k) => ({ path: k.path, list: k.list })) });
}

/** The chunk digests noted for `list` and whether its elements are canonical, while it holds the same elements. */
export function knownList(list: readonly unknown[]): { digests: readonly string[]; canonical: boolean } | undefined {
  const k = lists.get(list);
  if (!k) return undefined;
  const was = k.snapshot;
  if (typeof was === 'number') return was === list.length ? k : undefined;
  if (was.length !== list.length) return undefined;
  for (let i = 0; i < list.length; i++) if (list[i] !== was[i]) return undefined;
  return k;
}

/** The flat hash noted for `world`, while every noted list is where it was and holds the same elements. */
export function knownFlatHash(world: unknown): string | undefined {
  if (world === null || typeof world !== 'object') return undefined;
  const w = worlds.get(world);
  if (!w) return undefined;
  for (const { path, list } of w.lists) if (at(world, path) !== list || !knownList(list)) return undefined;
  return w.flat;
}

/** The value at `path` (object keys only: the lists the state hash replaces are reached through objects). */
export function at(root: unknown, path: readonly string[]): unknown {
  let v = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.prototype.hasOwnProperty.call(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}
