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
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new Error(`cannot serialise non-finite number ${value}`);
  }
  return value;
}

export function stableStringify(value: unknown): string {
  return JSON.stringify(canonicalize(value), null, 2) + '\n';
}

/** Compact canonical form, for hashing. */
export function canonicalCompact(value: unknown): string {
  return JSON.stringify(canonicalize(value));
}

/** Round to a fixed number of decimals so float noise never reaches files or hashes. */
export function round(n: number, decimals = 4): number {
  const f = 10 ** decimals;
  return Math.round(n * f) / f;
}
