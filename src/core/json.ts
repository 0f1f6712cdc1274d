/**
 * Canonical JSON: sorted keys, 2-space indentation, trailing newline. Every file Aureus writes
 * goes through this, so the same data always gives the same bytes (determinism, CI regeneration)
 * and a changed value is a one-line git diff.
 */
export function canonicalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalize);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value as object).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = canonicalize(v);
    }
    return out;
  }
  if (typeof value === 'number') refuseNonFinite(value);
  return value;
}

/** JSON has no NaN or Infinity (JSON.stringify would write null): every writer of JSON refuses them. */
export function refuseNonFinite(n: number): void {
  if (!Number.isFinite(n)) throw new Error(`cannot serialise non-finite number ${n}`);
}

export function stableStringify(value: unknown): string {
  return JSON.stringify(canonicalShared(value), null, 2) + '\n';
}

/**
 * A value JSON.stringify writes exactly as it writes canonicalize(value) (indented or not), sharing
 * every part that is already canonical instead of copying it: loaded entities and what is built
 * in sorted key order are most of a packet or a plan (issue 18: the planning artefacts, ~5 MB on the
 * DPRR world, were copied whole before being written). An object is copied when its keys are out of
 * order or a part under it was; anything unusual (not a plain object, a toJSON, an index-like or
 * "__proto__" key) is canonicalize's own copy.
 */
export function canonicalShared(value: unknown): unknown {
  if (typeof value === 'number') {
    refuseNonFinite(value);
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const x: unknown = value[i];
      const y = canonicalShared(x);
      if (y !== x) (out ??= value.slice())[i] = y;
    }
    return out ?? value;
  }
  if (!isPlainObject(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return canonicalize(value);
  const rec = value as Record<string, unknown>;
  const keys = Object.keys(rec);
  let sorted = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (k === '__proto__' || isIndexKey(k)) return canonicalize(value);
    if (i && !(keys[i - 1]! < k)) sorted = false;
  }
  // Undefined members are left out of a copy, as JSON.stringify leaves them out of the value itself.
  if (!sorted) {
    const out: Record<string, unknown> = {};
    for (const k of keys.sort()) {
      const x = rec[k];
      if (x !== undefined) out[k] = canonicalShared(x);
    }
    return out;
  }
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const x = rec[keys[i]!];
    const y = canonicalShared(x);
    if (y !== x && !out) {
      out = {};
      for (let j = 0; j < i; j++) if (rec[keys[j]!] !== undefined) out[keys[j]!] = rec[keys[j]!];
    }
    if (out && y !== undefined) out[keys[i]!] = y;
  }
  return out ?? value;
}

/**
 * Compact canonical form, for hashing: exactly JSON.stringify(canonicalize(value)), written without
 * building the canonical copy. Files are written canonically, so most loaded values already have
 * sorted keys and go to the native JSON.stringify whole (issue 18: hashing a loaded world).
 */
export function canonicalCompact(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(canonicalize(value));
  return compactText(value);
}

function compactText(v: unknown): string {
  const parts: string[] = [];
  compactInto(v, parts);
  return parts.join('');
}

/**
 * canonicalCompact(v) of an object or array, handed out in pieces (whole canonical subtrees as one
 * piece each): a caller that only hashes the text need not hold it whole (core/hash.ts).
 */
export function compactInto(v: unknown, out: { push(piece: string): unknown }): void {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'number') refuseNonFinite(v);
    out.push(JSON.stringify(v));
    return;
  }
  if (isCanonical(v)) {
    out.push(JSON.stringify(v));
    return;
  }
  if (Array.isArray(v)) {
    out.push('[');
    for (let i = 0; i < v.length; i++) {
      if (i) out.push(',');
      if (!(i in v)) continue; // a hole: as Array#map + join wrote it (empty)
      const x: unknown = v[i];
      if (x === undefined || typeof x === 'function' || typeof x === 'symbol') out.push('null');
      else compactInto(x, out);
    }
    out.push(']');
    return;
  }
  const rec = v as Record<string, unknown>;
  out.push('{');
  let first = true;
  for (const k of jsonKeyOrder(Object.keys(rec).sort())) {
    const x = rec[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    out.push((first ? '' : ',') + JSON.stringify(k) + ':');
    first = false;
    compactInto(x, out);
  }
  out.push('}');
}

/** Round to a fixed number of decimals so float noise never reaches files or hashes. */
export function round(n: number, decimals = 4): number {
  const f = 10 ** decimals;
  return Math.round(n * f) / f;
}

/**
 * Whether JSON.stringify(v) is already canonicalCompact(v): every object's keys in sorted order, none
 * an array index or "__proto__" (JSON.stringify would reorder or canonicalize drop them), no
 * undefined, function or symbol value anywhere, every number finite.
 */
export function isCanonical(v: unknown): boolean {
  return plainJson(v, true);
}

/**
 * Values JSON.parse made whose every object has its keys in sorted order (none an array index or
 * "__proto__") and every number finite: isCanonical(v) was true when they were parsed (JSON.parse
 * makes plain objects with no undefined, function or symbol value). Marked by the world files'
 * parser (store/json-fast.ts), which walks every key anyway; StateHasher.flatHash then writes their
 * chunks without checking each element again (issue 18: that check was about a fifth of the seed's
 * hash of the DPRR world). Loaded states are never edited in place (copy-on-write deltas), so a
 * mark stays true; a copy is a new object and carries none.
 */
const parsedCanonical = new WeakSet<object>();

/** Note that `v`, as JSON.parse just made it, is canonical throughout (see parsedCanonical). */
export function markParsedCanonical(v: object): void {
  parsedCanonical.add(v);
}

/** Whether `v` was marked by markParsedCanonical. */
export function isParsedCanonical(v: unknown): boolean {
  return v !== null && typeof v === 'object' && parsedCanonical.has(v);
}

/**
 * canonicalCompact(value).length, without writing the canonical text where that can be avoided. The
 * order of an object's keys does not change the length of its JSON text, so for plain data (what
 * isCanonical asks, key order aside) the native JSON.stringify of the value as it stands gives the
 * length (issue 18: stage D measures every item it prunes, and the packets' items are not built in
 * sorted key order). Anything else is measured on the canonical text itself.
 */
export function compactLength(value: unknown): number {
  return plainJson(value, false) ? JSON.stringify(value).length : canonicalCompact(value).length;
}

/**
 * Whether JSON.stringify(v) writes the same entries as canonicalCompact(v) (`sorted`: also in the same
 * order): no "__proto__" key (canonicalize drops it), no toJSON, no undefined, function or symbol
 * value, every number finite; with `sorted`, every object's keys in sorted order and none an array index,
 * without it, every object a plain one.
 */
function plainJson(v: unknown, sorted: boolean): boolean {
  if (v === null) return true;
  switch (typeof v) {
    case 'string': case 'boolean': return true;
    case 'number': return Number.isFinite(v);
    case 'object': break;
    default: return false;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!plainJson(v[i], sorted)) return false;
    return true;
  }
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  // Unordered, the keys are all that is checked: a boxed primitive (new String("ab")) has none that
  // JSON.stringify writes, so only plain objects qualify.
  if (!sorted && !isPlainObject(v)) return false;
  const rec = v as Record<string, unknown>;
  let prev: string | undefined;
  for (const k in rec) {
    if (!Object.prototype.hasOwnProperty.call(rec, k) || k === '__proto__') return false;
    if (sorted) {
      if ((prev !== undefined && !(prev < k)) || isIndexKey(k)) return false;
      prev = k;
    }
    if (!plainJson(rec[k], sorted)) return false;
  }
  return true;
}

const isPlainObject = (v: object): boolean => {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** Whether `k` is a key V8 treats as an array index (JSON.stringify and canonicalize order those first). */
export const isIndexKey = (k: string): boolean => {
  const c = k.charCodeAt(0);
  return c >= 48 && c <= 57 && /^(?:0|[1-9]\d*)$/.test(k) && Number(k) < 4294967295;
};

/**
 * The order JSON.stringify writes the keys of an object they were inserted into in `sorted`
 * order: array-index keys ("0", "12") first, numerically, then the rest as inserted; and
 * "__proto__", which an assignment turns into the prototype instead of a key, not at all.
 */
export function jsonKeyOrder(sorted: string[]): string[] {
  if (!sorted.some((k) => k === '__proto__' || isIndexKey(k))) return sorted;
  const idx = sorted.filter(isIndexKey).sort((a, b) => Number(a) - Number(b));
  return [...idx, ...sorted.filter((k) => !isIndexKey(k) && k !== '__proto__')];
}
