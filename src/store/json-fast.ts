import { FORBIDDEN_KEYS } from './json-parse-keys.js';

/**
 * The fast path of parseJson (issue 18): most world files are clean, and building momoa's tree
 * for a 4.6 MB characters.json (with a location on every node) was ~15% of planning on the DPRR
 * world and most of its memory. JSON.parse gives the same value when the text has no duplicate and
 * no forbidden key, which is checked here without a tree: the member count of the text (a linear
 * scan that skips strings) equals the key count of the value exactly when no key was repeated in
 * an object, and every key is looked at, escaped spellings of `__proto__` included. Anything else
 * (or a syntax error) returns null and parseJson takes the momoa path, which reports it.
 */
export function fastParse(text: string): unknown | typeof NOT_FAST {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return NOT_FAST;
  }
  const keys = countKeys(value);
  if (keys < 0 || keys !== countMembers(text)) return NOT_FAST;
  return value;
}

export const NOT_FAST: unique symbol = Symbol('not fast');

/** Own keys of every object in the value; -1 when one is a forbidden key. */
function countKeys(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (const x of v) {
      const k = countKeys(x);
      if (k < 0) return -1;
      n += k;
    }
    return n;
  }
  for (const key of Object.keys(v)) {
    if (FORBIDDEN_KEYS.has(key)) return -1;
    const k = countKeys((v as Record<string, unknown>)[key]);
    if (k < 0) return -1;
    n += k + 1;
  }
  return n;
}

/** Object members in JSON text: strings followed (after white space) by a colon. */
function countMembers(text: string): number {
  let n = 0;
  const len = text.length;
  for (let i = 0; i < len; i++) {
    if (text.charCodeAt(i) !== 34) continue; // "
    for (i++; i < len; i++) {
      const c = text.charCodeAt(i);
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) break;
    }
    let j = i + 1;
    while (j < len) {
      const c = text.charCodeAt(j);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
      j++;
    }
    if (text.charCodeAt(j) === 58) n++; // :
  }
  return n;
}
