import { isIndexKey, markParsedCanonical } from '../core/json.js';
import { FORBIDDEN_KEYS } from './json-parse-keys.js';
import type { TextCounts } from './json-parse.js';

/**
 * The fast path of parseJson (issue 18): most world files are clean, and building momoa's tree
 * for a 4.6 MB characters.json (with a location on every node) was ~15% of planning on the DPRR
 * world and most of its memory. JSON.parse gives the same value when the text has no duplicate and
 * no forbidden key and nests no deeper than the pre-scan allows, which is checked here without a tree: the
 * member count of the text (countStrings) equals the key count of the value exactly when no key
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
  const order = { sorted: true };
  const keys = value !== null && typeof value === 'object' ? countKeys(value, 0, maxDepth, order) : 0;
  if (keys < 0) return NOT_FAST;
  const counts = countStrings(text);
  if (counts.members !== keys) return NOT_FAST;
  // The key walk noted whether the value is canonical throughout (core/json.ts parsedCanonical).
  if (order.sorted && value !== null && typeof value === 'object') markParsedCanonical(value);
  return { value, counts };
}

export const NOT_FAST: unique symbol = Symbol('not fast');

/**
 * Own keys of every object in the value; -1 when one is a forbidden key or the nesting is deeper
 * than maxDepth (json-parse.ts MAX_DEPTH, the pre-scan's limit: the strict path reports it). For JSON.parse's plain
 * objects, for…in visits exactly the own keys, in Object.keys order, without a key array.
 * `order.sorted` is cleared where isCanonical would say no: keys out of sorted order or an
 * array-index key, or a number that is not finite (JSON.parse reads 1e999 as Infinity).
 */
function countKeys(v: object, depth: number, maxDepth: number, order: { sorted: boolean }): number {
  if (depth >= maxDepth) return -1;
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x === null || typeof x !== 'object') {
        if (typeof x === 'number' && !Number.isFinite(x)) order.sorted = false;
        continue;
      }
      const k = countKeys(x, depth + 1, maxDepth, order);
      if (k < 0) return -1;
      n += k;
    }
    return n;
  }
  const rec = v as Record<string, unknown>;
  let prev: string | undefined;
  for (const key in rec) {
    if (FORBIDDEN_KEYS.has(key) || !Object.prototype.hasOwnProperty.call(rec, key)) return -1;
    n++;
    if (order.sorted && ((prev !== undefined && !(prev < key)) || isIndexKey(key))) order.sorted = false;
    prev = key;
    const x = rec[key];
    if (x === null || typeof x !== 'object') {
      if (typeof x === 'number' && !Number.isFinite(x)) order.sorted = false;
      continue;
    }
    const k = countKeys(x, depth + 1, maxDepth, order);
    if (k < 0) return -1;
    n += k;
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
