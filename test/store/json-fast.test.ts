import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_DEPTH, parseJson } from '../../src/store/json-parse.js';
import { countStrings, fastParse, NOT_FAST, quotedColons } from '../../src/store/json-fast.js';
import { FORBIDDEN_KEYS } from '../../src/store/json-parse-keys.js';

/** parseJson's JSON.parse fast path must answer exactly as the momoa path does (issue 18). */
describe('parseJson fast path', () => {
  it('a clean file: same value, no findings, and locations still given on demand', () => {
    const text = '{\n  "a": [1, {"b": "x\\": y"}],\n  "c": {"d": null, "e": "\\u0041"}\n}\n';
    const r = parseJson(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toEqual(JSON.parse(text));
    expect(r.keys).toEqual([]);
    expect(r.locate('/c/e')).toMatchObject({ line: 3, column: 20 });
    expect(r.locate('/a/1/b')).toMatchObject({ line: 2, column: 13 });
  });

  it('duplicate keys, even only in a nested object, still reach the strict path', () => {
    const r = parseJson('{"a": {"x": 1, "y": 2, "x": 3}, "b": "x:"}');
    expect(r.ok && r.keys.map((k) => [k.kind, k.pointer])).toEqual([['duplicate', '/a/x']]);
  });

  it('a forbidden key, escaped or not, is reported and left out', () => {
    for (const text of ['{"__proto__": {"polluted": 1}}', '{"a": {"__pro\\u0074o__": 1}}', '{"constructor": 1}']) {
      const r = parseJson(text);
      expect(r.ok, text).toBe(true);
      if (!r.ok) continue;
      expect(r.keys.map((k) => k.kind), text).toEqual(['forbidden']);
      expect(JSON.stringify(r.value), text).not.toMatch(/proto|constructor/);
    }
  });

  it('syntax errors still come with line:col', () => {
    const r = parseJson('{\n  "a": 1,\n}');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.line).toBe(3);
  });

  it('bounds every string of the value, keys included, by its longest literal (escapes only shorten)', () => {
    const texts = [
      '{"name": "Cicero", "k": [1, "ab"]}',
      `{"${'k'.repeat(30)}": "x"}`,
      '{"a": "\\u0041\\u0042\\n\\"q\\""}',
      '{"a": {"b": "x", "a": 1, "b": "yyyyyyyyy"}}', // a duplicate: the strict path
      '["\u00e9\u00e9", "\ud83d\ude00"]',
    ];
    for (const text of texts) {
      const r = parseJson(text);
      expect(r.ok, text).toBe(true);
      if (!r.ok) continue;
      const strings: string[] = [];
      const walk = (v: unknown): void => {
        if (typeof v === 'string') strings.push(v);
        else if (Array.isArray(v)) v.forEach(walk);
        else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) (strings.push(k), walk(x));
      };
      walk(r.value);
      const literals = [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.length);
      // The fast path gives the longest string itself, the strict path the longest literal.
      expect(r.longestString, text).toBe(Math.max(...(text.includes('"b": "x", "a"') ? literals : strings.map((x) => x.length))));
      for (const x of strings) expect(x.length, text).toBeLessThanOrEqual(r.longestString);
    }
  });

  it('counts members and the longest literal of any valid text as a character-by-character scan does', () => {
    // Strings full of quotes, backslashes, colons and non-ASCII, keys included; compact or indented.
    const str = fc.string({ unit: fc.constantFrom('"', '\\', ':', ' ', 'a', '\n', 'é', '\u2028', '😀', '{', ']') , maxLength: 8 });
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.integer(), str, tie('arr'), tie('obj')),
      arr: fc.array(tie('value'), { maxLength: 4 }),
      obj: fc.dictionary(str, tie('value'), { maxKeys: 4 }),
    }));
    fc.assert(fc.property(json.value, fc.constantFrom(0, 2), (v, indent) => {
      const text = JSON.stringify(v, null, indent);
      const literals = [...text.matchAll(/"((?:[^"\\]|\\.)*)"(\s*:)?/g)];
      expect(countStrings(text)).toEqual({ members: literals.filter((m) => m[2]).length, longest: Math.max(0, ...literals.map((m) => m[1]!.length)) });
      const fast = fastParse(text, MAX_DEPTH);
      expect(fast !== NOT_FAST && fast.value).toEqual(v);
      expect(quotedColons(text)).toBeGreaterThanOrEqual(countStrings(text).members);
      // The same text with its first member repeated is no longer clean.
      const dup = text.replace(/^(\{\s*)("(?:[^"\\]|\\.)*"\s*:\s*(?:null|-?\d+|"(?:[^"\\]|\\.)*"|\[\]|\{\}))/, '$1$2,$2');
      if (dup !== text) {
        expect(fastParse(dup, MAX_DEPTH)).toBe(NOT_FAST);
        const r = parseJson(dup);
        expect(r.ok && r.keys.map((k) => k.kind)).toEqual(['duplicate']);
      }
    }), { numRuns: 400 });
  });

  it('refuses every key a character-by-character count would: repeats anywhere, all forbidden keys, escaped spellings', () => {
    // The old proof (members counted string by string) and the new one (colons after a quote) must
    // send exactly the same texts to the strict path: same findings, with line:col.
    const key = fc.oneof(fc.constantFrom('a', 'b', ':', ' :', '"', '\\', 'x": "y', ...FORBIDDEN_KEYS), fc.string({ maxLength: 4 }));
    const write = (v: unknown, escape: boolean): string => {
      // Escaped spellings: every lower-case letter of a literal as a \u escape (still valid JSON).
      const str = (k: string) => (escape ? JSON.stringify(k).replace(/[a-z]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) : JSON.stringify(k));
      if (v && typeof v === 'object' && 'members' in v) return '{' + (v as { members: [string, unknown][] }).members.map(([k, x]) => `${str(k)} : ${write(x, escape)}`).join(',') + '}';
      if (Array.isArray(v)) return '[' + v.map((x) => write(x, escape)).join(', ') + ']';
      return typeof v === 'string' ? str(v) : JSON.stringify(v);
    };
    const tree = fc.letrec((tie) => ({
      value: fc.oneof({ maxDepth: 3 }, fc.constant(null), fc.integer(), key, tie('arr'), tie('obj')),
      arr: fc.array(tie('value'), { maxLength: 3 }),
      obj: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((members) => ({ members })),
    })).value;
    fc.assert(fc.property(tree, fc.boolean(), (v, escape) => {
      const text = write(v, escape);
      const parsed = JSON.parse(text) as unknown;
      let keys = 0;
      let bad = false;
      const count = (x: unknown): void => {
        if (Array.isArray(x)) x.forEach(count);
        else if (x && typeof x === 'object') for (const k of Object.keys(x)) (keys++, (bad ||= FORBIDDEN_KEYS.has(k)), count((x as Record<string, unknown>)[k]));
      };
      count(parsed);
      const oldClean = !bad && keys === countStrings(text).members;
      expect(fastParse(text, MAX_DEPTH) !== NOT_FAST, text).toBe(oldClean);
      if (!oldClean) {
        const r = parseJson(text);
        expect(r.ok && r.keys.length > 0 && r.keys.every((k) => k.line >= 1 && k.column >= 1), text).toBe(true);
      }
    }), { numRuns: 300 });
  });

  it('refuses each of FORBIDDEN_KEYS on the fast path, plain or escaped, at any depth', () => {
    for (const k of FORBIDDEN_KEYS) {
      const escaped = k.replace(/o/g, '\\u006f');
      for (const text of [`{"${k}": 1}`, `{"a": [{"${escaped}": {}}]}`]) {
        expect(fastParse(text, MAX_DEPTH), text).toBe(NOT_FAST);
        expect(parseJson(text).ok && (parseJson(text) as { keys: { kind: string }[] }).keys.map((x) => x.kind), text).toEqual(['forbidden']);
      }
    }
  });

  it('counts a string value opening with a colon exactly (quotedColons overcounts it, the fallback does not)', () => {
    const text = '{"a": ":x", "b": " : y", "c": {"d": "\\\\", "e": ":"}}';
    expect(quotedColons(text)).toBeGreaterThan(countStrings(text).members);
    expect(fastParse(text, MAX_DEPTH)).not.toBe(NOT_FAST);
    expect(fastParse('{"a": ":x", "a": 1}', MAX_DEPTH)).toBe(NOT_FAST);
  });

  it('leaves nesting deeper than the limit, and a root that is not an object, to the strict path or counts nothing', () => {
    expect(fastParse('['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1), MAX_DEPTH)).toBe(NOT_FAST);
    expect(fastParse('['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH), MAX_DEPTH)).not.toBe(NOT_FAST);
    expect(fastParse('"a:b"', MAX_DEPTH)).toEqual({ value: 'a:b', counts: { members: 0, longest: 3 } });
  });
});
