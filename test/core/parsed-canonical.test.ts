import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalize, isCanonical, isParsedCanonical } from '../../src/core/json.js';
import { hashValue } from '../../src/core/hash.js';
import { CHUNK, StateHasher } from '../../src/core/state-hash.js';
import { fastParse, NOT_FAST } from '../../src/store/json-fast.js';
import { MAX_DEPTH } from '../../src/store/json-parse.js';
import { loadWorld } from '../../src/store/load.js';

const MINIMAL = path.resolve(import.meta.dirname, '../fixtures/worlds/minimal');

/** Keys a world file may hold, index-like ones ("0", "10", "01") and "$schema" among them. */
const key = fc.oneof(fc.constantFrom('0', '1', '10', '01', '4294967295', '$schema', 'a', 'b', 'id', 'name', 'Z'), fc.string({ maxLength: 4 }));
const { value: jsonish } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.string({ maxLength: 6 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), tie('list'), tie('object')),
  list: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
}));
/** A value as a file holds it: half the time canonical (keys sorted, as Aureus writes files), else as generated. */
const fileText = fc.tuple(fc.array(jsonish, { maxLength: CHUNK * 2 + 5 }), fc.boolean(), fc.boolean()).map(([list, sorted, infinite]) => {
  const value = { $schema: 'x.json', list, n: 1 };
  const text = JSON.stringify(sorted ? canonicalize(value) : value);
  // JSON.parse reads 1e999 as Infinity: not canonical (canonicalCompact refuses it).
  return infinite ? text.replace('"n":1', '"n":1e999') : text;
});

/**
 * The world files' parser marks values canonical as it walks their keys, and StateHasher.flatHash then
 * skips checking their elements (issue 18). The mark must say exactly what isCanonical says.
 */
describe('parsed-canonical marks', () => {
  it('fastParse marks a value exactly when isCanonical accepts it', () => {
    fc.assert(
      fc.property(fileText, (text) => {
        const r = fastParse(text, MAX_DEPTH);
        if (r === NOT_FAST) return; // a forbidden or repeated key: the strict path, never marked
        expect(isParsedCanonical(r.value)).toBe(isCanonical(r.value));
      }),
      { numRuns: 400 },
    );
  });

  it('index keys, keys out of order and non-finite numbers, at any depth, leave a value unmarked', () => {
    const marked = (text: string) => {
      const r = fastParse(text, MAX_DEPTH);
      return r !== NOT_FAST && isParsedCanonical(r.value);
    };
    expect(marked('{"a":[{"b":1,"c":[true,null,"x"]}],"d":{"e":2.5}}')).toBe(true);
    expect(marked('{"a":[{"c":1,"b":2}]}')).toBe(false);
    expect(marked('{"a":[{"0":1,"b":2}]}')).toBe(false);
    expect(marked('{"a":[{"b":[1,2,1e999]}]}')).toBe(false);
    expect(marked('{"a":{"b":-1e400}}')).toBe(false);
    expect(marked('{"a":1,"a":1}')).toBe(false);
  });

  it('flatHash of parsed values (marked or not) is hashValue, the full computation', () => {
    fc.assert(
      fc.property(fileText, fc.boolean(), (text, wrap) => {
        const r = fastParse(text, MAX_DEPTH);
        if (r === NOT_FAST) return;
        const value = wrap ? { file: r.value, other: { plain: [r.value] } } : r.value;
        let full: string;
        try {
          full = hashValue(value);
        } catch {
          expect(() => new StateHasher().flatHash(value)).toThrow(); // Infinity: both refuse
          return;
        }
        expect(new StateHasher().flatHash(value)).toBe(full);
      }),
      { numRuns: 300 },
    );
  });

  it('a loaded world: its canonically written files come marked, and the seed hash is the full one', async () => {
    const r = await loadWorld(MINIMAL);
    const world = r.world!;
    expect(isParsedCanonical(world.characters)).toBe(true);
    expect(isParsedCanonical(world.relationships)).toBe(true);
    expect(new StateHasher().flatHash(world)).toBe(hashValue(world));
    // A copy (as a delta makes) carries no mark, and hashes the same.
    const copy = { ...world, characters: { ...world.characters, characters: [...world.characters.characters] } };
    expect(isParsedCanonical(copy.characters)).toBe(false);
    expect(new StateHasher().flatHash(copy)).toBe(hashValue(world));
  });
});
