import { FORBIDDEN_KEYS } from './json-parse-keys.js';

/**
 * The fast path of parseJson (issue 18): most world files are clean, and building momoa's tree
 * for a 4.6 MB characters.json (with a location on every node) was ~15% of planning on the DPRR
 * world and most of its memory. JSON.parse gives the same value when the text has no duplicate and
 * no forbidden key, which is checked here without a tree: the member count of the text (`members`,
 * counted by json-parse.ts's pre-scan, which skips strings) equals the key count of the value
 * exactly when no key was repeated in an object, and every key is looked at, escaped spellings of
 * `__proto__` included. Anything else
 * (or a syntax error) returns null and parseJson takes the momoa path, which reports it.
 */
export function fastParse(text: string, members: number): unknown | typeof NOT_FAST {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return NOT_FAST;
  }
  const keys = countKeys(value);
  if (keys < 0 || keys !== members) return NOT_FAST;
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
