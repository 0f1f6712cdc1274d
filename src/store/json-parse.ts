import { parse as momoaParse, type DocumentNode, type ValueNode } from '@humanwhocodes/momoa';
import { FORBIDDEN_KEYS } from './json-parse-keys.js';
import { escapePointerSegment } from '../core/json-pointer.js';
import { fastParse, NOT_FAST } from './json-fast.js';

/**
 * Strict JSON with locations, on @humanwhocodes/momoa (a JSON parser that keeps the line:column
 * of every node): what JSON.parse cannot give — the position of a syntax error, duplicate keys
 * (JSON.parse silently keeps the last), prototype-polluting keys — and, through `locate`, the
 * line:column of any JSON pointer, so schema and reference errors carry both. Forbidden keys are
 * reported and left out of the value, so no caller ever sees an own `__proto__` property.
 *
 * Before momoa runs, one linear pre-scan refuses what it would accept or choke on: nesting deeper
 * than MAX_DEPTH (its parser recurses), and raw control characters or line breaks inside strings
 * (strict JSON forbids them; momoa lets them through). Pure: text in, value + findings out.
 */

export { FORBIDDEN_KEYS };

/** Deeper nesting than this is refused instead of overflowing the stack. */
export const MAX_DEPTH = 256;

export interface JsonPosition {
  offset: number;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
}

export interface JsonSyntaxError extends JsonPosition {
  message: string;
}

export interface JsonKeyFinding extends JsonPosition {
  kind: 'forbidden' | 'duplicate';
  key: string;
  /** RFC 6901 pointer of the offending member. */
  pointer: string;
}

/**
 * What a scan of the text counts (the pre-scan, or on clean text json-fast.ts's countStrings):
 * object members (json-fast.ts compares them with the parsed value's keys), and the longest string
 * literal in characters between its quotes — no string of the value, key or value, is longer (an
 * escape only ever shortens), so a file whose literals all fit needs no walk for over-long strings.
 * (The fast path's `longest` is the longest key or string of the value itself, from its key walk.)
 */
export interface TextCounts {
  members: number;
  longest: number;
}

export type JsonParseResult =
  | { ok: true; value: unknown; keys: JsonKeyFinding[]; locate: (pointer: string) => JsonPosition | null; longestString: number }
  | { ok: false; error: JsonSyntaxError; keys: JsonKeyFinding[] };

/** At most this many key findings are kept (a hostile file could hold millions). */
export const MAX_KEY_FINDINGS = 100;


export function pointerOf(segments: readonly (string | number)[]): string {
  return segments.map((s) => '/' + escapePointerSegment(String(s))).join('');
}

export function positionOf(text: string, offset: number): JsonPosition {
  let line = 1;
  let start = 0;
  const at = Math.min(offset, text.length);
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) (line++, (start = i + 1));
  return { offset, line, column: at - start + 1 };
}

function describe(text: string, at: number): string {
  if (at >= text.length) return 'the end of the file';
  const c = text[at]!;
  if (c === '\n' || c === '\r') return 'a line break';
  return JSON.stringify(c);
}

/** The pre-scan: depth and string contents, which momoa does not check. Returns a failure or what it counted. */
function prescan(text: string): { message: string; offset: number } | TextCounts {
  let depth = 0;
  let members = 0;
  let longest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: runs to the next unescaped quote; no raw control characters inside.
      const start = i;
      for (i++; ; i++) {
        if (i >= text.length) return { message: 'unterminated string', offset: start };
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
        else if (s < 0x20) return { message: s === 10 ? 'line break inside a string (unterminated string?)' : 'control character inside a string', offset: i };
      }
      if (i - start - 1 > longest) longest = i - start - 1;
      // A member name: the string is followed (after white space) by a colon.
      let j = i + 1;
      for (let w = text.charCodeAt(j); w === 32 || w === 9 || w === 10 || w === 13; w = text.charCodeAt(++j));
      if (text.charCodeAt(j) === 0x3a) members++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) return { message: `nesting deeper than ${MAX_DEPTH} levels`, offset: i };
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return { members, longest };
}

/** momoa's "Unexpected token RBrace found." in words a world author reads, with the likely cause. */
function explain(text: string, offset: number, raw: string): { message: string; offset: number } {
  const rest = text.slice(offset);
  const before = text.slice(0, offset).trimEnd().slice(-1);
  // The input stops inside a value: momoa points at the end, or at the last token before it.
  if (/end of input/i.test(raw) || (/Unexpected token/.test(raw) && /^("(?:[^"\\]|\\.)*"|[^\s,\]}:"]+)\s*$/.test(rest))) {
    return { message: 'unexpected end of the file, expected a value, a comma or a closing bracket', offset: text.trimEnd().length };
  }
  const c = text[offset];
  let message = `unexpected ${describe(text, offset)}`;
  if (c === "'") message = before === '{' || before === ',' ? "expected a double-quoted key, found ' (strings must use double quotes)" : "strings must use double quotes, found ' (single quote)";
  else if ((c === '}' || c === ']') && before === ',') message += ', expected a value (a trailing comma?)';
  else if (c === '"' && before !== ',' && before !== '{' && before !== '[' && before !== ':') message = `expected ',' before ${describe(text, offset)} (a missing comma?)`;
  else if (c === '\\' || text[offset - 1] === '\\') message = `invalid escape \\${(c === '\\' ? text[offset + 1] : c) ?? ''} in a string`;
  else if (/^[0-9.]/.test(rest) || /[0-9]\.$/.test(text.slice(0, offset))) {
    // Point at the start of the malformed number, not at the character after it.
    const end = /^[0-9.]/.test(rest) ? offset + 1 : offset;
    const start = /-?[0-9][0-9.eE+-]*$/.exec(text.slice(0, end));
    return { message: 'invalid number (leading zero or malformed fraction/exponent)', offset: start ? end - start[0].length : offset };
  }
  else if (/identifier/.test(raw)) message += ', expected a value (true, false, null, a number, a string, an object or an array)';
  else if (/[}\]]/.test(before) && isComplete(text.slice(0, offset))) message += ' after the end of the JSON value';
  return { message, offset };
}

function isComplete(prefix: string): boolean {
  try {
    momoaParse(prefix, { mode: 'json' });
    return true;
  } catch {
    return false;
  }
}

interface Built {
  value: unknown;
  keys: JsonKeyFinding[];
}

function build(node: ValueNode, pointer: string, keys: JsonKeyFinding[]): unknown {
  switch (node.type) {
    case 'Object': {
      const out: Record<string, unknown> = {};
      const seen = new Set<string>();
      for (const m of node.members) {
        const key = m.name.type === 'String' ? m.name.value : String(m.name.name);
        const p = `${pointer}/${escapePointerSegment(key)}`;
        const at = { offset: m.name.loc.start.offset, line: m.name.loc.start.line, column: m.name.loc.start.column };
        if (FORBIDDEN_KEYS.has(key)) {
          if (keys.length < MAX_KEY_FINDINGS) keys.push({ kind: 'forbidden', key, pointer: p, ...at });
          continue;
        }
        if (seen.has(key) && keys.length < MAX_KEY_FINDINGS) keys.push({ kind: 'duplicate', key, pointer: p, ...at });
        seen.add(key);
        out[key] = build(m.value, p, keys);
      }
      return out;
    }
    case 'Array':
      return node.elements.map((e, i) => build(e.value, `${pointer}/${i}`, keys));
    case 'String':
    case 'Number':
    case 'Boolean':
      return node.value;
    case 'Null':
      return null;
    default:
      return undefined; // JSON mode has no other node types
  }
}

type ObjectNode = Extract<ValueNode, { type: 'Object' }>;
type MemberNode = ObjectNode['members'][number];

/**
 * The line:column of the node a pointer names, or of its deepest existing ancestor. Each object's
 * members are indexed by name the first time a pointer passes through it (the last of duplicate
 * names wins, as in the value): searching the members once per pointer made locating the
 * diagnostics of a file with N unknown keys cost N² comparisons (32,000 keys took 40 s).
 */
export function locator(doc: DocumentNode): (pointer: string) => JsonPosition | null {
  const indexes = new Map<ObjectNode, Map<string, MemberNode>>();
  const memberOf = (node: ObjectNode, name: string): MemberNode | undefined => {
    let index = indexes.get(node);
    if (!index) {
      index = new Map();
      for (const m of node.members) if (m.name.type === 'String') index.set(m.name.value, m);
      indexes.set(node, index);
    }
    return index.get(name);
  };
  return (pointer) => {
    let node: ValueNode = doc.body;
    let at = node.loc.start;
    const segments = pointer === '' || pointer === '/' ? [] : pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    for (const seg of segments) {
      if (node.type === 'Object') {
        const m = memberOf(node, seg);
        if (!m) break;
        at = m.name.loc.start;
        node = m.value;
      } else if (node.type === 'Array') {
        const e = node.elements[Number(seg)];
        if (!/^\d+$/.test(seg) || !e) break;
        node = e.value;
        at = node.loc.start;
      } else break;
    }
    return { offset: at.offset, line: at.line, column: at.column };
  };
}

/** Parse JSON text. Never throws for bad input: syntax errors come back with their position. */
export function parseJson(text: string): JsonParseResult {
  // A clean file (no duplicate or forbidden key, no deeper than MAX_DEPTH) parses with JSON.parse;
  // momoa's tree is built only if a diagnostic asks for a location (json-fast.ts).
  const fast = fastParse(text, MAX_DEPTH);
  if (fast !== NOT_FAST) {
    let locate: ((pointer: string) => JsonPosition | null) | undefined;
    return { ok: true, value: fast.value, keys: [], locate: (pointer) => (locate ??= locator(momoaParse(text, { mode: 'json' })))(pointer), longestString: fast.counts.longest };
  }
  const pre = prescan(text);
  if ('message' in pre) return { ok: false, error: { message: pre.message, ...positionOf(text, pre.offset) }, keys: [] };
  let doc: DocumentNode;
  try {
    doc = momoaParse(text, { mode: 'json' });
  } catch (e) {
    const err = e as Error & { offset?: number };
    const offset = typeof err.offset === 'number' ? err.offset : 0;
    const x = explain(text, offset, err.message);
    return { ok: false, error: { message: x.message, ...positionOf(text, x.offset) }, keys: [] };
  }
  const keys: JsonKeyFinding[] = [];
  const built: Built = { value: build(doc.body, '', keys), keys };
  return { ok: true, value: built.value, keys: built.keys, locate: locator(doc), longestString: pre.longest };
}
