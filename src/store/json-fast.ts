import { isIndexKey, markParsedCanonical } from '../core/json.js';
import type { TextCounts } from './json-parse.js';

/**
 * The fast path of parseJson (issue 18): most world files are clean, and building momoa's tree
 * for a 4.6 MB characters.json (with a location on every node) was ~15% of planning on the DPRR
 * world and most of its memory. JSON.parse gives the same value when the text has no duplicate and
 * no forbidden key and nests no deeper than the pre-scan allows, which is checked here without a tree: the
 * member count of the text (quotedColons, or countStrings) equals the key count of the value exactly when no key
 * was repeated in an object, and every key is looked at, escaped spellings of `__proto__` included.
 * Anything else (or a syntax error) returns NOT_FAST and parseJson takes its strict path (the
 * pre-scan, then momoa), which reports it as before.
 *
 * JSON.parse runs first: once it has accepted the text, the text is valid JSON, so its strings can
 * be found by searching for quotes (native String#indexOf) instead of reading every character,
 * and control characters or unterminated strings (the pre-scan's other findings) cannot occur.
 */
export function fastParse(text: string, maxDepth: number): { value: unknown; counts: TextCounts } | typeof NOT_FAST {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return NOT_FAST;
  }
  const walk: Walk = { sorted: true, longest: typeof value === 'string' ? value.length : 0 };
  const keys = value !== null && typeof value === 'object' ? countKeys(value, 0, maxDepth, walk) : 0;
  if (keys < 0) return NOT_FAST;
  // The text's members are at least the value's keys (a repeated key is kept once) and at most its
  // quoted colons (every member name is one), so `keys === quotedColons` proves no repeat with one
  // native search per colon instead of two per string; the rare text where it overcounts (a string
  // value opening with a colon) is counted exactly.
  if (keys !== quotedColons(text) && keys !== countStrings(text).members) return NOT_FAST;
  // The key walk noted whether the value is canonical throughout (core/json.ts parsedCanonical).
  if (walk.sorted && value !== null && typeof value === 'object') markParsedCanonical(value);
  return { value, counts: { members: keys, longest: walk.longest } };
}

export const NOT_FAST: unique symbol = Symbol('not fast');

/** What the key walk notes besides the count: canonical order throughout, and the longest string. */
interface Walk {
  sorted: boolean;
  longest: number;
}

/**
 * Own keys of every object in the value; -1 when one is a forbidden key (FORBIDDEN_KEYS, spelt out
 * here because a Set look-up per key cost more; a test ties the two) or the nesting is deeper
 * than maxDepth (json-parse.ts MAX_DEPTH, the pre-scan's limit: the strict path reports it). For JSON.parse's plain
 * objects, for…in visits exactly the own keys, in Object.keys order, without a key array.
 * `walk.sorted` is cleared where isCanonical would say no: keys out of sorted order or an
 * array-index key, or a number that is not finite (JSON.parse reads 1e999 as Infinity).
 * `walk.longest` is the longest key or string value (load.ts skips checkStringLengths below it).
 */
function countKeys(v: object, depth: number, maxDepth: number, walk: Walk): number {
  if (depth >= maxDepth) return -1;
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const k = countChild(v[i], depth, maxDepth, walk);
      if (k < 0) return -1;
      n += k;
    }
    return n;
  }
  const rec = v as Record<string, unknown>;
  let prev: string | undefined;
  for (const key in rec) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype' || !Object.prototype.hasOwnProperty.call(rec, key)) return -1;
    n++;
    if (walk.sorted && ((prev !== undefined && !(prev < key)) || isIndexKey(key))) walk.sorted = false;
    if (key.length > walk.longest) walk.longest = key.length;
    prev = key;
    const k = countChild(rec[key], depth, maxDepth, walk);
    if (k < 0) return -1;
    n += k;
  }
  return n;
}

/** An element or member value: a leaf is noted (0 keys), an object or array is walked one level deeper. */
function countChild(x: unknown, depth: number, maxDepth: number, walk: Walk): number {
  if (x !== null && typeof x === 'object') return countKeys(x, depth + 1, maxDepth, walk);
  leaf(x, walk);
  return 0;
}

function leaf(x: unknown, walk: Walk): void {
  if (typeof x === 'string') {
    if (x.length > walk.longest) walk.longest = x.length;
  } else if (typeof x === 'number' && !Number.isFinite(x)) walk.sorted = false;
}

/**
 * In a valid JSON text: the colons with an unescaped quote before them (whitespace between). Every
 * member name ends so, and each colon is looked at once, so this is at least the member count; it
 * is more only where a string literal opens with (whitespace and) a colon.
 */
export function quotedColons(text: string): number {
  let n = 0;
  for (let at = text.indexOf(':'); at >= 0; at = text.indexOf(':', at + 1)) {
    let q = at - 1;
    for (let w = text.charCodeAt(q); w === 32 || w === 9 || w === 10 || w === 13; w = text.charCodeAt(--q));
    if (text.charCodeAt(q) === 0x22 && !(text.charCodeAt(q - 1) === 0x5c && escapedQuote(text, q))) n++;
  }
  return n;
}

/**
 * In a valid JSON text: the member names (strings followed by a colon) and the longest string
 * literal in characters between its quotes (json-parse.ts TextCounts). Outside strings a quote only
 * opens one; inside, a quote ends it unless an odd run of backslashes stands before it.
 */
export function countStrings(text: string): TextCounts {
  let members = 0;
  let longest = 0;
  for (let open = text.indexOf('"'); open >= 0; ) {
    let close = text.indexOf('"', open + 1);
    while (text.charCodeAt(close - 1) === 0x5c && escapedQuote(text, close)) close = text.indexOf('"', close + 1);
    if (close - open - 1 > longest) longest = close - open - 1;
    let j = close + 1;
    for (let w = text.charCodeAt(j); w === 32 || w === 9 || w === 10 || w === 13; w = text.charCodeAt(++j));
    if (text.charCodeAt(j) === 0x3a) members++;
    open = text.indexOf('"', j);
  }
  return { members, longest };
}

/** Whether the quote at `at` is escaped: an odd number of backslashes right before it. */
function escapedQuote(text: string, at: number): boolean {
  let n = 0;
  while (text.charCodeAt(at - 1 - n) === 0x5c) n++;
  return n % 2 === 1;
}
