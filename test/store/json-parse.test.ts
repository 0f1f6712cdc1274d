import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, MAX_KEY_FINDINGS, parseJson, pointerOf, positionOf } from '../../src/store/json-parse.js';

describe('parseJson (momoa, with locations)', () => {
  it('agrees with JSON.parse on every JSON value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        for (const text of [JSON.stringify(v), JSON.stringify(v, null, 2)]) {
          const r = parseJson(text);
          expect(r.ok).toBe(true);
          // Forbidden keys are dropped by design; the generator may produce them.
          const expected = JSON.parse(text, (k, val) => (k === '__proto__' || k === 'constructor' || k === 'prototype' ? undefined : val));
          if (r.ok) expect(r.value).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('decodes escapes exactly', () => {
    const r = parseJson(String.raw`{"a":"line\nbreak \"q\" \\ \/ \u00e9 \ud83d\ude00"}`);
    expect(r.ok && (r.value as { a: string }).a).toBe('line\nbreak "q" \\ / é 😀');
  });

  it.each([
    ['{"a": 1,}', 1, 9, 'unexpected "}", expected a value (a trailing comma?)'],
    ['[1, 2,]', 1, 7, 'expected a value (a trailing comma?)'],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, "expected ',' before \"\\\"\" (a missing comma?)"],
    ["{'a': 1}", 1, 2, 'expected a double-quoted key'],
    ['{"a": \'x\'}', 1, 7, 'single quote'],
    ['{"a": "unterminated', 1, 7, 'unterminated string'],
    ['{"a": "line\nbreak"}', 1, 12, 'line break inside a string'],
    ['{"a": "bad \\x escape"}', 1, 12, 'invalid escape \\x'],
    ['{"a": 01}', 1, 7, 'invalid number'],
    ['{"a": 1.}', 1, 7, 'invalid number'],
    ['{"a": tru}', 1, 7, 'unexpected "t", expected a value'],
    ['{"a": 1} x', 1, 10, 'after the end of the JSON value'],
    ['', 1, 1, 'unexpected end of the file'],
    ['{"a": [1, 2', 1, 12, 'unexpected end of the file'],
  ])('reports %j at its line and column', (text, line, column, message) => {
    const r = parseJson(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect([r.error.line, r.error.column]).toEqual([line, column]);
      expect(r.error.message).toContain(message);
    }
  });

  it('reports forbidden keys with pointer and position, and leaves them out of the value', () => {
    const text = '{\n  "a": {"__proto__": {"x": 1}},\n  "constructor": 2,\n  "b": [{"prototype": 3}]\n}';
    const r = parseJson(text);
    expect(r.ok).toBe(true);
    expect(r.keys).toEqual([
      { kind: 'forbidden', key: '__proto__', pointer: '/a/__proto__', offset: 10, line: 2, column: 9 },
      { kind: 'forbidden', key: 'constructor', pointer: '/constructor', offset: 36, line: 3, column: 3 },
      { kind: 'forbidden', key: 'prototype', pointer: '/b/0/prototype', offset: 63, line: 4, column: 10 },
    ]);
    if (r.ok) {
      expect(r.value).toEqual({ a: {}, b: [{}] });
      const a = (r.value as { a: object }).a;
      expect(Object.getPrototypeOf(a)).toBe(Object.prototype);
      expect((a as { x?: number }).x).toBeUndefined();
    }
    expect(({} as { x?: number }).x).toBeUndefined();
  });

  it('reports duplicate keys (JSON.parse would silently keep the last)', () => {
    const r = parseJson('{"id": "a", "id": "b"}');
    expect(r.keys).toEqual([{ kind: 'duplicate', key: 'id', pointer: '/id', offset: 12, line: 1, column: 13 }]);
  });

  it('escapes pointer segments (RFC 6901)', () => {
    const r = parseJson('{"a/b": {"c~d": {"__proto__": 1}}}');
    expect(r.keys[0]!.pointer).toBe('/a~1b/c~0d/__proto__');
    expect(pointerOf(['a/b', 0, 'c~d'])).toBe('/a~1b/0/c~0d');
  });

  it('refuses nesting deeper than MAX_DEPTH instead of overflowing the stack', () => {
    const r = parseJson('['.repeat(MAX_DEPTH + 10) + ']'.repeat(MAX_DEPTH + 10));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain(`nesting deeper than ${MAX_DEPTH}`);
    expect(parseJson('['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH)).ok).toBe(true);
  });

  it('caps the number of key findings', () => {
    const text = '{' + Array.from({ length: 500 }, () => '"k": 1').join(',') + '}';
    expect(parseJson(text).keys).toHaveLength(MAX_KEY_FINDINGS);
  });

  it('positionOf counts lines and columns from 1', () => {
    expect(positionOf('ab\ncd\n', 0)).toMatchObject({ line: 1, column: 1 });
    expect(positionOf('ab\ncd\n', 4)).toMatchObject({ line: 2, column: 2 });
    expect(positionOf('ab\ncd\n', 6)).toMatchObject({ line: 3, column: 1 });
  });
});
