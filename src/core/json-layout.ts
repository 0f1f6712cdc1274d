import { canonicalShared, refuseNonFinite, stableStringify } from './json.js';

/**
 * How a world file's JSON was laid out when it was loaded, so that an episode commit that changes the
 * file writes it back the same way: the diff then shows the episode's change, not the author's
 * 4-space or tab indentation (or key order) turned into aureus's. A file aureus wrote itself
 * (canonical: sorted keys, 2 spaces, a final newline) is written canonically, byte for byte as
 * before. Nothing here depends on a file's bytes being canonical: the state hash is taken over
 * values (core/state-hash.ts), and the derived index is keyed by whatever bytes the files hold
 * (store/derived-index/key.ts), so a file written with its author's layout is a new key, checked once.
 */
export interface JsonLayout {
  /** The indent unit: '  ', '    ', '\t', or '' for a file on one line. */
  indent: string;
  /** Keys in sorted order throughout (the parser's mark, core/json.ts isParsedCanonical): written sorted, new keys in place. */
  sorted: boolean;
  /** The file ended with a line break. */
  finalNewline: boolean;
}

export const CANONICAL_LAYOUT: JsonLayout = { indent: '  ', sorted: true, finalNewline: true };

/** Layouts by loaded value (the file's top-level object): loaded values are never edited in place (copy-on-write deltas). */
const layouts = new WeakMap<object, JsonLayout>();

export const isCanonicalLayout = (l: JsonLayout): boolean => l.indent === '  ' && l.sorted && l.finalNewline;

/** Note how the file `value` was parsed from was laid out (a canonical layout needs no note). */
export function noteJsonLayout(value: unknown, layout: JsonLayout): void {
  if (value !== null && typeof value === 'object' && !isCanonicalLayout(layout)) layouts.set(value, layout);
}

/** The layout noted for a loaded value; canonical for anything else (a value built in memory). */
export function jsonLayoutOf(value: unknown): JsonLayout {
  return (value !== null && typeof value === 'object' && layouts.get(value)) || CANONICAL_LAYOUT;
}

/**
 * `value` as JSON text in `layout`. Sorted: canonicalShared's order (a key an episode adds goes in
 * its sorted place); not sorted: the order the value holds, which for a loaded entity is the file's
 * (the delta engine copies an entity with its keys in order, a key it adds comes last). A number
 * that is not finite is refused either way, as stableStringify refuses it.
 */
export function layoutText(value: unknown, layout: JsonLayout): string {
  if (isCanonicalLayout(layout)) return stableStringify(value);
  const text = layout.sorted ? JSON.stringify(canonicalShared(value), null, layout.indent) : JSON.stringify(value, finiteOnly, layout.indent);
  return layout.finalNewline ? `${text}\n` : text;
}

/** The text an episode commit writes for a world file's new value: laid out as the file it replaces was when loaded. */
export function worldFileText(value: unknown, loaded: unknown): string {
  return layoutText(value, jsonLayoutOf(loaded));
}

function finiteOnly(_key: string, v: unknown): unknown {
  if (typeof v === 'number') refuseNonFinite(v);
  return v;
}
