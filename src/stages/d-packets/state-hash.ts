import { createHash, type Hash } from 'node:crypto';

/**
 * hashValue (core/hash.ts) of a sequence of world states, byte for byte, without re-serialising
 * what the states share. Stage D hashes the state before every scene; on a 10,000-principal world
 * each canonical serialisation is ~27 MB and took ~0.5 s, 24 times per episode. Deltas are applied
 * copy-on-write, so consecutive states share almost every character, edge and secret object: each
 * array element's canonical JSON is kept for the life of one StateHasher (one buildPackets call,
 * during which nothing mutates the states), and a state's text is assembled from those pieces.
 *
 * The text is exactly JSON.stringify(canonicalize(value)) (core/json.ts): keys sorted by code
 * unit, undefined members left out, undefined/function array elements as null, non-finite
 * numbers refused with the same error, and the key order of the plain object canonicalize
 * builds (see jsonKeyOrder). test/stages/planning/scale.test.ts compares the two.
 */
export class StateHasher {
  private readonly pieces = new WeakMap<object, string>();

  hash(value: unknown): string {
    // Streamed into the digest in ~64 KB chunks (issue 18): the whole state's text (megabytes on an
    // imported city, once per scene) is never built, which was most of stage D's garbage. Chunks
    // are joined from whole JSON tokens, so no surrogate pair is ever split and the bytes hashed
    // are exactly the canonical text's.
    const sink = new Sink(createHash('sha256'));
    this.write(value, sink);
    return sink.digest();
  }

  /** Like text(value, false), but into the sink: containers outside array elements are streamed. */
  private write(v: unknown, sink: Sink): void {
    if (v === null || typeof v !== 'object') {
      sink.push(this.text(v, false));
      return;
    }
    if (Array.isArray(v)) {
      sink.push('[');
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (i) sink.push(',');
        sink.push(x === undefined || typeof x === 'function' || typeof x === 'symbol' ? 'null' : this.text(x, true));
      }
      sink.push(']');
      return;
    }
    const rec = v as Record<string, unknown>;
    sink.push('{');
    let first = true;
    for (const k of jsonKeyOrder(Object.keys(rec).sort())) {
      const x = rec[k];
      if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
      sink.push((first ? '' : ',') + JSON.stringify(k) + ':');
      first = false;
      this.write(x, sink);
    }
    sink.push('}');
  }

  private text(v: unknown, element: boolean): string {
    if (v === null) return 'null';
    switch (typeof v) {
      case 'number':
        if (!Number.isFinite(v)) throw new Error(`cannot serialise non-finite number ${v}`);
        return JSON.stringify(v);
      case 'string':
      case 'boolean':
        return JSON.stringify(v);
      case 'object': break;
      default: return JSON.stringify(v) as string; // bigint throws as JSON.stringify does
    }
    const o = v as object;
    // Array elements (a character, an edge) are reused. Whole arrays are not kept: each scene's state
    // has its own 14 MB character list text, and keeping 24 of them cost more memory than it saved time.
    const keep = element;
    if (keep) {
      const hit = this.pieces.get(o);
      if (hit !== undefined) return hit;
    }
    let out: string;
    if (Array.isArray(o)) {
      const parts: string[] = new Array(o.length);
      for (let i = 0; i < o.length; i++) {
        const x: unknown = o[i];
        parts[i] = x === undefined || typeof x === 'function' || typeof x === 'symbol' ? 'null' : this.text(x, true);
      }
      out = '[' + parts.join(',') + ']';
    } else {
      const rec = o as Record<string, unknown>;
      const parts: string[] = [];
      for (const k of jsonKeyOrder(Object.keys(rec).sort())) {
        const x = rec[k];
        if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
        parts.push(JSON.stringify(k) + ':' + this.text(x, false));
      }
      out = '{' + parts.join(',') + '}';
    }
    if (keep) this.pieces.set(o, out);
    return out;
  }
}

const isIndexKey = (k: string): boolean => /^(?:0|[1-9]\d*)$/.test(k) && Number(k) < 4294967295;

/**
 * The order JSON.stringify writes the keys of an object they were inserted into in `sorted`
 * order: array-index keys ("0", "12") first, numerically, then the rest as inserted; and
 * "__proto__", which an assignment turns into the prototype instead of a key, not at all.
 */
function jsonKeyOrder(sorted: string[]): string[] {
  if (!sorted.some((k) => k === '__proto__' || isIndexKey(k))) return sorted;
  const idx = sorted.filter(isIndexKey).sort((a, b) => Number(a) - Number(b));
  return [...idx, ...sorted.filter((k) => !isIndexKey(k) && k !== '__proto__')];
}

/** Text into a hash in chunks of whole pieces (a flat string per update, never one per token). */
class Sink {
  private buf: string[] = [];
  private size = 0;
  constructor(private readonly h: Hash) {}
  push(s: string): void {
    this.buf.push(s);
    this.size += s.length;
    if (this.size >= 65536) this.flush();
  }
  private flush(): void {
    if (this.buf.length) this.h.update(this.buf.join(''));
    this.buf = [];
    this.size = 0;
  }
  digest(): string {
    this.flush();
    return this.h.digest('hex');
  }
}
