/**
 * A read-only map made of a base map and a few changed or added entries, iterating exactly as a
 * Map rebuilt with the same insertions would: the base's keys in order (with changed values),
 * then the added keys in the order they were added. Lookups built over copy-on-write lists
 * (core/world-index.ts) derive one from the previous state's map instead of rebuilding thousands of
 * entries when a scene changed a few (issue 18: planning time must not grow with the world).
 */
export class OverlayMap<K, V> implements ReadonlyMap<K, V> {
  private constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly changes: ReadonlyMap<K, V>,
    private readonly added: readonly K[],
  ) {}

  /**
   * `from` with `set` applied (later pairs win). Overlays do not stack: deriving from an overlay
   * copies its (small) change set onto the same base; past a quarter of the base, it is flattened.
   */
  static derive<K, V>(from: ReadonlyMap<K, V>, set: Iterable<readonly [K, V]>): ReadonlyMap<K, V> {
    const base = from instanceof OverlayMap ? (from.base as ReadonlyMap<K, V>) : from;
    const changes = new Map<K, V>(from instanceof OverlayMap ? (from.changes as ReadonlyMap<K, V>) : []);
    const added = from instanceof OverlayMap ? [...(from.added as readonly K[])] : [];
    for (const [k, v] of set) {
      if (!base.has(k) && !changes.has(k)) added.push(k);
      changes.set(k, v);
    }
    const derived = new OverlayMap(base, changes, added);
    return changes.size * 4 > base.size + 64 ? new Map(derived) : derived;
  }

  /**
   * The plain map an overlay (or a map) was derived from, and the keys whose values may differ from
   * it: a value computed per key over the base can be patched at those keys only (core/tension.ts).
   */
  static split<K, V>(m: ReadonlyMap<K, V>): { base: ReadonlyMap<K, V>; changed: Iterable<K> } {
    return m instanceof OverlayMap ? { base: m.base as ReadonlyMap<K, V>, changed: (m.changes as ReadonlyMap<K, V>).keys() } : { base: m, changed: [] };
  }

  get size(): number {
    return this.base.size + this.added.length;
  }
  get(k: K): V | undefined {
    return this.changes.has(k) ? this.changes.get(k) : this.base.get(k);
  }
  has(k: K): boolean {
    return this.changes.has(k) || this.base.has(k);
  }
  *entries(): MapIterator<[K, V]> {
    for (const [k, v] of this.base) yield [k, this.changes.has(k) ? (this.changes.get(k) as V) : v];
    for (const k of this.added) yield [k, this.changes.get(k) as V];
  }
  *keys(): MapIterator<K> {
    for (const [k] of this.entries()) yield k;
  }
  *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }
  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
  forEach(cb: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) cb.call(thisArg, v, k, this);
  }
}
