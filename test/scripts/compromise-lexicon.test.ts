import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script (plain ESM, no types)
import { lazyLexicon, packLexicon } from '../../scripts/compromise-lexicon.mjs';
// @ts-expect-error: a build script (plain ESM, no types)
import { compromiseDir } from '../../scripts/compromise-load.mjs';
// @ts-expect-error: a build script (plain ESM, no types)
import { lexiconBefore, mergedLexicon, MODEL_MODULE } from '../../scripts/compromise-model.mjs';

/**
 * The bundle's lexicon (scripts/compromise-lexicon.mjs) is a look-up over the sorted words the build
 * packed, not the object JSON.parse made: it must answer every read and write as that object does,
 * or the bundled CLI would tag prose differently from dist/ and the tests.
 */
type Lexicon = Record<string | symbol, unknown>;
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function lazyOf(plain: Lexicon): Lexicon {
  const { words, bytes, meta } = packLexicon(plain) as { words: string; bytes: Buffer; meta: unknown };
  // As the bundle reads them: the text decoded from UTF-8, the index as a Buffer from a file.
  return lazyLexicon(Buffer.from(words, 'utf8').toString('utf8'), Buffer.from(bytes), meta) as Lexicon;
}

/** The lexicon the build packs: the pre-tagger's words merged into the world's, as compromise-model.mjs makes it. */
async function builtLexicon(): Promise<Lexicon> {
  const dir = compromiseDir(repo) as string;
  const words = ((await import(pathToFileURL(path.join(dir, MODEL_MODULE)).href)).default as { one: { lexicon: Lexicon } }).one.lexicon;
  return (mergedLexicon(lexiconBefore(dir), words) as { lexicon: Lexicon }).lexicon;
}

describe('the bundle’s lexicon, looked up (scripts/compromise-lexicon.mjs)', () => {
  it('reads every word of compromise’s lexicon as the plain object does: keys in order, values, shared values', async () => {
    const plain = await builtLexicon();
    const lazy = lazyOf(plain);
    const keys = Object.keys(plain);
    expect(keys.length).toBeGreaterThan(24_000);
    expect(Object.keys(lazy)).toEqual(keys);
    expect(JSON.stringify(lazy)).toBe(JSON.stringify(plain));
    expect(Object.getPrototypeOf(lazy)).toBe(Object.prototype);
    for (const k of keys) {
      expect(Object.prototype.hasOwnProperty.call(lazy, k) && k in lazy).toBe(true);
      // The same object on every read.
      expect(lazy[k]).toBe(lazy[k]);
    }
    // Words whose value is another word's very object (his/her/…: ['Possessive', 'Pronoun']) still
    // share it, and equal values that were two objects are still two.
    const firstOf = new Map<unknown, string>();
    let shared = 0;
    let twins = 0;
    const byJson = new Map<string, string>();
    for (const k of keys) {
      const v = plain[k];
      if (v === null || typeof v !== 'object') continue;
      if (firstOf.has(v)) {
        shared++;
        expect(lazy[k]).toBe(lazy[firstOf.get(v)!]);
      } else firstOf.set(v, k);
      const twin = byJson.get(JSON.stringify(v));
      if (twin !== undefined && plain[twin] !== v) {
        twins++;
        expect(lazy[k]).not.toBe(lazy[twin]);
      }
      byJson.set(JSON.stringify(v), k);
    }
    expect(shared).toBeGreaterThan(0);
    expect(twins).toBeGreaterThan(100);
    // What is not a word reads as on a plain object: inherited, or nothing.
    for (const k of ['constructor', 'hasOwnProperty', 'toString', '__proto__', 'valueOf', '', 'aureus', 'zzzzzz', '20th century', 'Noun']) {
      expect([k in lazy, Object.prototype.hasOwnProperty.call(lazy, k), lazy[k]]).toEqual([k in plain, Object.prototype.hasOwnProperty.call(plain, k), plain[k]]);
    }
  }, 60_000);

  it('takes writes and deletes as a plain object does (place kept, new words last, indexes first)', () => {
    const plain: Lexicon = { zebra: 'Noun', apple: ['Noun', 'Singular'], mango: 'Noun', 'µg': 'Unit', banana: 'Noun' };
    const lazy = lazyOf(JSON.parse(JSON.stringify(plain)) as Lexicon);
    const sym = Symbol('s');
    const steps: ((o: Lexicon) => unknown)[] = [
      (o) => (o.mango = 'Verb'),
      (o) => Object.assign(o, { cherry: 'Noun', apple: 'Adjective' }),
      (o) => delete o.zebra,
      (o) => (o.zebra = 'Animal'),
      (o) => (o['7'] = 'Value'),
      (o) => delete o.cherry,
      (o) => (o.cherry = 'Fruit'),
      (o) => Object.defineProperty(o, 'kiwi', { value: 'Noun', writable: true, enumerable: true, configurable: true }),
      (o) => (o[sym] = 1),
      (o) => delete o.nothing,
    ];
    for (const step of steps) {
      step(plain);
      step(lazy);
      expect(Reflect.ownKeys(lazy)).toEqual(Reflect.ownKeys(plain));
      expect(JSON.stringify(lazy)).toBe(JSON.stringify(plain));
      for (const k of Reflect.ownKeys(plain)) expect(lazy[k]).toEqual(plain[k]);
    }
    expect(Object.keys(lazy)).toEqual(['7', 'apple', 'mango', 'µg', 'banana', 'zebra', 'cherry', 'kiwi']);
    expect('zebra' in lazy && !('nothing' in lazy)).toBe(true);
    // A value written is that very object.
    const value = ['Noun'];
    lazy.apple = value;
    expect(lazy.apple).toBe(value);
  });

  it('refuses what the packed files cannot hold', () => {
    expect(() => packLexicon({ 'two\nlines': 'Noun' })).toThrow(/cannot be a line/);
    expect(() => packLexicon({ 12: 'Value' })).toThrow(/cannot be a line/);
    expect(() => packLexicon({ a: { b: 1 }, c: undefined })).toThrow(/not JSON data/);
  });
});
