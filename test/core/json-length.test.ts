import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalCompact, canonicalize, canonicalShared, compactLength, stableStringify } from '../../src/core/json.js';

/** The canonical text by its definition: a sorted copy, then JSON.stringify. */
const canonicalText = (v: unknown): string => JSON.stringify(canonicalize(v));

describe('compactLength (core/json.ts)', () => {
  it('is the length of the canonical compact text of any JSON-like value, keys in any order', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.string(), fc.string({ unit: 'grapheme' }), tie('arr'), tie('obj')),
      arr: fc.array(fc.oneof(tie('value'), fc.constant(undefined)), { maxLength: 4 }),
      obj: fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(tie('value'), fc.constant(undefined)), { maxKeys: 5 }),
    }));
    fc.assert(fc.property(json.value, (v) => {
      expect(compactLength(v)).toBe(canonicalText(v).length);
      expect(compactLength({ z: v, a: [v, { y: v, b: 1 }] })).toBe(canonicalText({ z: v, a: [v, { y: v, b: 1 }] }).length);
    }), { numRuns: 500 });
  });

  it('measures what JSON.stringify and the canonical text write differently on the canonical text', () => {
    // An own "__proto__" key (canonicalize drops it), index keys, toJSON (canonicalize copies the
    // own keys instead), functions and holes: each gives another length from JSON.stringify as is.
    const odd = JSON.parse('{"__proto__":{"a":1},"10":2,"2":[3],"b":{"1":0,"":1},"":null}') as unknown;
    expect(JSON.stringify(odd).length).not.toBe(canonicalText(odd).length);
    expect(compactLength(odd)).toBe(canonicalText(odd).length);
    const dated = { d: new Date(0), f: () => 1, l: [() => 1, undefined], s: Symbol('x') };
    expect(JSON.stringify(dated).length).not.toBe(canonicalText(dated).length);
    expect(compactLength(dated)).toBe(canonicalText(dated).length);
    // eslint-disable-next-line no-sparse-arrays
    const holes = { b: [1, , 3], a: 'é"\\\u0001' };
    expect(compactLength(holes)).toBe(canonicalCompact(holes).length);
    expect(() => compactLength({ b: 1, a: [NaN] })).toThrow(/non-finite/);
    // A boxed string: JSON.stringify writes the string, the canonical text the object's own keys ("0", "1").
    // eslint-disable-next-line no-new-wrappers
    const boxed = { s: new String('ab'), n: [1] };
    expect(JSON.stringify(boxed).length).not.toBe(canonicalText(boxed).length);
    expect(compactLength(boxed)).toBe(canonicalText(boxed).length);
  });
});

describe('stableStringify and canonicalShared (core/json.ts)', () => {
  const byDefinition = (v: unknown): string => JSON.stringify(canonicalize(v), null, 2) + '\n';

  it('write what the canonical copy writes, for any JSON-like value, keys in any order', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.string(), tie('arr'), tie('obj')),
      arr: fc.array(fc.oneof(tie('value'), fc.constant(undefined)), { maxLength: 4 }),
      obj: fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(tie('value'), fc.constant(undefined)), { maxKeys: 5 }),
    }));
    fc.assert(fc.property(json.value, (v) => {
      expect(stableStringify(v)).toBe(byDefinition(v));
      expect(stableStringify({ z: v, a: [v, { y: v, b: 1 }] })).toBe(byDefinition({ z: v, a: [v, { y: v, b: 1 }] }));
    }), { numRuns: 500 });
    const odd = JSON.parse('{"__proto__":{"a":1},"10":2,"2":[3],"b":{"1":0,"":1},"":null}') as unknown;
    // eslint-disable-next-line no-sparse-arrays, no-new-wrappers
    for (const v of [odd, { d: new Date(0), f: () => 1, l: [() => 1, undefined], s: Symbol('x') }, { b: [1, , 3], a: 'é' }, { s: new String('ab'), n: [1] }, Object.assign(Object.create(null), { b: 1, a: 2 })]) {
      expect(stableStringify(v)).toBe(byDefinition(v));
      expect(stableStringify({ a: v })).toBe(byDefinition({ a: v }));
    }
    expect(() => stableStringify({ b: 1, a: [Infinity] })).toThrow(/non-finite/);
  });

  it('share the parts already in canonical order and copy only the way to one that is not', () => {
    const sortedPart = { a: 1, b: [{ c: 'x', d: null }] };
    const whole = { a: sortedPart, z: { y: 1, x: 2 }, m: [sortedPart, { k: 1 }] };
    const out = canonicalShared(whole) as typeof whole;
    expect(out).not.toBe(whole);
    expect(out.a).toBe(sortedPart);
    expect(out.m).toBe(whole.m);
    expect(Object.keys(out.z)).toEqual(['x', 'y']);
    expect(Object.keys(out)).toEqual(['a', 'm', 'z']);
    const canonical = { a: sortedPart, b: [1, 'two', { u: undefined, v: true }] };
    expect(canonicalShared(canonical)).toBe(canonical);
  });
});
