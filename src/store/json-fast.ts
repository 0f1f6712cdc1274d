import { Buffer } from 'node:buffer';
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
export function fastParse(text: string, maxDepth: number): FastParse | typeof NOT_FAST {
  return parseWalked(text, maxDepth, false);
}

export interface FastParse {
  value: unknown;
  counts: TextCounts;
}

/**
 * fastParse of UTF-8 bytes, without decoding them first (issue 18). A file with a single non-ASCII
 * character (characters.json has an en dash per character) decodes to a two-byte string, twice the
 * bytes (30 MB for the 10,000-character world's 15 MB), which JSON.parse then reads more slowly.
 * Here JSON.parse reads the bytes' Latin-1 view, a one-byte string of one character per byte. Every
 * non-ASCII byte is one of a JSON string's characters there (outside a string JSON.parse refuses it),
 * so the value is right but for the strings of the literals holding such bytes: those few literals
 * are found in the text and decoded from UTF-8 (latin1Mends), and the key walk puts the decoded
 * strings in place. The value is then the one fastParse gives for the decoded text.
 * NOT_FAST (the caller decodes and takes the plain path, whose diagnostics stand) for anything else: a
 * byte order mark (the decoder drops it), a key with a non-ASCII character, bytes that are not UTF-8,
 * or a literal with a \u escape of a non-ASCII character as well (a Latin-1 view cannot tell it from a
 * byte). The counts are the Latin-1 text's: the member count is the same, and a literal is at least
 * as many bytes as it is characters, so `longest` still bounds every string.
 */
export function fastParseBytes(bytes: Uint8Array, maxDepth: number): FastParse | typeof NOT_FAST {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return NOT_FAST;
  return parseWalked(latin1Text(bytes), maxDepth, true);
}

/** Node makes a decoded string over ~1 MB an external one; pieces under that are joined into one on V8's heap. */
const LATIN1_PIECE = 512 * 1024;

/**
 * The bytes as a one-byte string on V8's heap. Not node's external string of the whole buffer: that
 * memory counts as external to V8, and with the read buffers it started the 10,000-character plan's
 * first full collection early (at 24 MB of heap) and so a second one later.
 */
export function latin1Text(bytes: Uint8Array): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length <= LATIN1_PIECE) return buf.toString('latin1');
  const pieces: string[] = [];
  for (let at = 0; at < buf.length; at += LATIN1_PIECE) pieces.push(buf.toString('latin1', at, Math.min(at + LATIN1_PIECE, buf.length)));
  return pieces.join('');
}

/** What the key walk notes and mends (countKeys). */
interface Walk {
  /** Cleared where isCanonical would say no. */
  sorted: boolean;
  /** Latin-1 strings JSON.parse made and their UTF-8 decoding (latin1Mends), or null for none. */
  mends: Map<string, string> | null;
  /** No key of `mends` is shorter. */
  shortest: number;
}

function parseWalked(text: string, maxDepth: number, latin1: boolean): FastParse | typeof NOT_FAST {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return NOT_FAST;
  }
  const walk: Walk = { sorted: true, mends: null, shortest: Infinity };
  if (latin1 && !latin1Mends(text, walk)) return NOT_FAST;
  if (typeof value === 'string') value = walk.mends?.get(value) ?? value;
  const keys = value !== null && typeof value === 'object' ? countKeys(value, 0, maxDepth, walk) : 0;
  if (keys < 0) return NOT_FAST;
  const counts = countStrings(text);
  if (counts.members !== keys) return NOT_FAST;
  // The key walk noted whether the value is canonical throughout (core/json.ts parsedCanonical).
  if (walk.sorted && value !== null && typeof value === 'object') markParsedCanonical(value);
  return { value, counts };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The string literals of a valid JSON text read as Latin-1 that hold a non-ASCII byte: each as
 * JSON.parse made it (its bytes as characters: escapes of ASCII characters only make ASCII ones)
 * mapped to its UTF-8 decoding, in walk.mends. False when one is a key, is not UTF-8, or escapes a
 * non-ASCII character. Inside a literal every quote is escaped, so the nearest unescaped quotes
 * around a byte are the literal's own.
 */
function latin1Mends(text: string, walk: Walk): boolean {
  const high = /[\x80-\xff]/g;
  for (let m = high.exec(text); m !== null; m = high.exec(text)) {
    let open = text.lastIndexOf('"', m.index);
    while (escapedQuote(text, open)) open = text.lastIndexOf('"', open - 1);
    let close = text.indexOf('"', m.index);
    while (escapedQuote(text, close)) close = text.indexOf('"', close + 1);
    let j = close + 1;
    for (let w = text.charCodeAt(j); w === 32 || w === 9 || w === 10 || w === 13; w = text.charCodeAt(++j));
    const literal = text.slice(open, close + 1);
    if (text.charCodeAt(j) === 0x3a || /\\u(?!00[0-7])/.test(literal)) return false;
    const latin1 = literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1);
    let decoded: string;
    try {
      decoded = UTF8.decode(Buffer.from(latin1, 'latin1'));
    } catch {
      return false;
    }
    (walk.mends ??= new Map()).set(latin1, decoded);
    walk.shortest = Math.min(walk.shortest, latin1.length);
    high.lastIndex = close + 1;
  }
  return true;
}

export const NOT_FAST: unique symbol = Symbol('not fast');

/**
 * Own keys of every object in the value; -1 when one is a forbidden key or the nesting is deeper
 * than maxDepth (json-parse.ts MAX_DEPTH, the pre-scan's limit: the strict path reports it). For JSON.parse's plain
 * objects, for…in visits exactly the own keys, in Object.keys order, without a key array.
 * `walk.sorted` is cleared where isCanonical would say no: keys out of sorted order or an
 * array-index key, or a number that is not finite (JSON.parse reads 1e999 as Infinity).
 * On a Latin-1 view, a string of `walk.mends` is replaced by its decoding.
 */
function countKeys(v: object, depth: number, maxDepth: number, walk: Walk): number {
  if (depth >= maxDepth) return -1;
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x === null || typeof x !== 'object') {
        if (typeof x === 'number' && !Number.isFinite(x)) walk.sorted = false;
        else if (walk.mends !== null && typeof x === 'string' && x.length >= walk.shortest) {
          const mended = walk.mends.get(x);
          if (mended !== undefined) v[i] = mended;
        }
        continue;
      }
      const k = countKeys(x, depth + 1, maxDepth, walk);
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
    if (walk.sorted && ((prev !== undefined && !(prev < key)) || isIndexKey(key))) walk.sorted = false;
    prev = key;
    const x = rec[key];
    if (x === null || typeof x !== 'object') {
      if (typeof x === 'number' && !Number.isFinite(x)) walk.sorted = false;
      else if (walk.mends !== null && typeof x === 'string' && x.length >= walk.shortest) {
        const mended = walk.mends.get(x);
        if (mended !== undefined) rec[key] = mended;
      }
      continue;
    }
    const k = countKeys(x, depth + 1, maxDepth, walk);
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
