/**
 * What is known of a list's history, for the lookups and hashes kept per list (core/world-index.ts
 * memoList, core/known-hashes.ts, core/state-hash.ts): which list a copy-on-write list was copied
 * from, where it differs from it, and whether the list is finished — never edited in place, so that
 * what was worked out from it stays valid while its length does (a push, the slip a test fixture
 * makes, still shows) without comparing its 10,000–50,000 elements again.
 *
 * Two kinds of list are finished: the delta engine's results (core/deltas/draft.ts seals them; later
 * states share them) and the loaded world's (store/load.ts notes them: deltas are applied
 * copy-on-write and nothing in src/ edits a loaded world in place; core/json.ts parsedCanonical
 * rests on the same rule). Neither is frozen: V8 (Node 20) iterates a frozen, sealed or
 * non-extensible array 4–6× slower (for-of, index loop, forEach, some, slice, measured on 35,000
 * objects), and every state reads these lists.
 */

/**
 * The list a copy-on-write list was copied from (core/deltas/draft.ts notes it). A lookup over the
 * copy is derived from the lookup over the original when the builder has a patch (world-index.ts):
 * what differs is found by comparing element identities, so the note is only a hint.
 */
const copiedFrom = new WeakMap<readonly object[], readonly object[]>();
export function noteCopy(copy: readonly object[], original: readonly object[]): void {
  copiedFrom.set(copy, original);
}
export function copyOrigin(list: readonly object[]): readonly object[] | undefined {
  return copiedFrom.get(list);
}

/**
 * A list the delta engine finished (a batch's result), sealed: `positions` (ascending) are where it
 * differs from the list noteCopy named, so deriving a lookup need not compare every element to find them.
 */
const changesOf = new WeakMap<readonly object[], readonly number[]>();
export function noteChanges(copy: readonly object[], positions: readonly number[]): void {
  changesOf.set(copy, positions);
}
/** The positions noteChanges noted for a sealed list; undefined for any other list. */
export function sealedPositions(list: readonly object[]): readonly number[] | undefined {
  return changesOf.get(list);
}

/** For a sealed list (noteChanges): the list it was copied from and the positions where it differs from it. */
export function sealedChanges(list: readonly unknown[]): { from: readonly unknown[]; changed: readonly number[] } | undefined {
  const changed = changesOf.get(list as readonly object[]);
  const from = changed && copiedFrom.get(list as readonly object[]);
  return from ? { from, changed: changed } : undefined;
}

/** The loaded world's lists (noteLoaded). */
const loaded = new WeakSet<readonly unknown[]>();

/** Note the lists of a world's files, as the loader just parsed them, as finished (the top-level list of each file). */
export function noteLoaded(files: readonly unknown[]): void {
  for (const f of files) {
    if (f === null || typeof f !== 'object' || Array.isArray(f)) continue;
    for (const v of Object.values(f)) if (Array.isArray(v)) loaded.add(v);
  }
}

/** Whether nothing edits `list` in place: sealed by the delta engine, or loaded. */
export function isFinished(list: readonly unknown[]): boolean {
  return changesOf.has(list as readonly object[]) || loaded.has(list);
}
