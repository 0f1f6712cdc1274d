/**
 * A memo of computed values by key that forgets everything once it holds `limit` entries. The
 * verifier and the expression parser keep their answers per exact string (a sentence, an
 * expression's source): a season reads the same ones again and again, but a long one would
 * otherwise keep every string it ever saw. Clearing at once is cheaper than tracking recency,
 * and a forgotten value is only computed again. `undefined` is never stored.
 */
export class BoundedMemo<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly limit: number) {}

  /** How many values are kept now (never more than the limit). */
  get size(): number {
    return this.map.size;
  }

  /** The value already computed for key, if any (nothing is computed). */
  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Remember a value computed elsewhere; returns it. */
  set(key: K, value: V): V {
    if (this.map.size >= this.limit) this.map.clear();
    this.map.set(key, value);
    return value;
  }

  /** The value for key, computed (and remembered) on the first ask. */
  get(key: K, compute: (key: K) => V): V {
    const hit = this.map.get(key);
    return hit !== undefined ? hit : this.set(key, compute(key));
  }
}
