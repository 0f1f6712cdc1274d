// compromise's lexicon as the bundle loads it (issue 18, thirteenth pass): looked up, not built.
//
// The pre-tagger's lexicon is ~24,600 words. Made as a JS object at load (JSON.parse of its
// 620 KB, then the world's lexicon: scripts/compromise-model.mjs), it cost ~30–45 ms of CPU on every
// run that verifies prose, nearly all of it V8 inserting 24,600 keys into a dictionary-mode object
// (a loop of assignments, Object.fromEntries and a Map were measured: none cheaper than ~17 ms).
// A run reads a few hundred of those words: the tagger looks up each term's word, aliases and
// stem, a handful of sentences per scene.
//
// So the build writes the words sorted, one a line (WORDS_FILE), and a binary index (INDEX_FILE:
// each word's offset in that text, each word's place in the lexicon's key order, each word's value
// as a number into the list of distinct values), and the bundle's lexicon is lazyLexicon(): a Proxy
// that answers like the plain object JSON.parse made (same keys in the same order, same values,
// the same value object every time, values shared between words shared again, writes and deletes
// as on an object) by a binary search of the sorted words, decoding a word's value on its first
// read. test/scripts/compromise-lexicon.test.ts holds it to the plain object on every word and on
// writes; test/scripts/compromise-load.test.ts compares the whole bundled world, lexicon included,
// and its reading of the corpus with the published library's.

/** The sorted words, one a line, beside the bundle's chunks. */
export const WORDS_FILE = 'compromise-words.txt';
/** The words' offsets, key order and value numbers, beside the bundle's chunks. */
export const INDEX_FILE = 'compromise-words.bin';

const INDEX = /^(?:0|[1-9]\d*)$/;

/**
 * A lexicon (a plain object of words to JSON values) as lazyLexicon reads it: `words` (text), `bytes`
 * (the index) and `meta` (the word count, the distinct values as JSON, and the words whose value is
 * another word's very object, as pairs of sorted places). Throws on what the encoding cannot hold.
 */
export function packLexicon(lexicon) {
  const keys = Object.keys(lexicon);
  const n = keys.length;
  const odd = keys.find((k) => k.includes('\n') || k === '__proto__' || INDEX.test(k) || Buffer.from(k, 'utf8').toString('utf8') !== k);
  if (odd !== undefined) throw new Error(`compromise-lexicon: the word ${JSON.stringify(odd)} cannot be a line of the words file in its key order`);
  if (n >= 1 << 16) throw new Error(`compromise-lexicon: ${n} words do not fit the 16-bit key order`);
  const sorted = keys.map((k, at) => ({ k, at })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  const place = new Map(sorted.map((s, i) => [s.k, i]));
  const values = [];
  const code = new Map();
  const first = new Map();
  const links = [];
  const off = new Int32Array(n + 1);
  const order = new Uint16Array(n);
  const codes = new Uint8Array(n);
  let text = '';
  sorted.forEach(({ k }, i) => {
    off[i] = text.length;
    text += `${k}\n`;
    const v = lexicon[k];
    const json = JSON.stringify(v);
    if (json === undefined || JSON.stringify(JSON.parse(json)) !== json) throw new Error(`compromise-lexicon: the value of ${JSON.stringify(k)} is not JSON data`);
    if (!code.has(json)) code.set(json, values.push(json) - 1);
    codes[i] = code.get(json);
  });
  off[n] = text.length;
  if (values.length > 256) throw new Error(`compromise-lexicon: ${values.length} distinct values do not fit a byte`);
  // Shared objects, in key order: the first word holding one owns it, later ones link to it.
  keys.forEach((k, at) => {
    order[at] = place.get(k);
    const v = lexicon[k];
    if (v === null || typeof v !== 'object') return;
    if (first.has(v)) links.push([place.get(k), place.get(first.get(v))]);
    else first.set(v, k);
  });
  const bytes = Buffer.concat([Buffer.from(off.buffer), Buffer.from(order.buffer), Buffer.from(codes.buffer)]);
  return { words: text, bytes, meta: { n, values, links } };
}

/** Whether a property key is an array index, which an object lists first, in ascending order. */
function isIndex(key) {
  return INDEX.test(key) && Number(key) < 2 ** 32 - 1;
}

/**
 * The look-up over the words packLexicon packed: `wordAt(i)`, the word at sorted place i; `order`,
 * the sorted places in the lexicon's key order; `placeOf(key)`, a word's sorted place or -1 (a
 * binary search of the sorted words, kept for words found: at most n); `valueAt(i)`, the value at
 * sorted place i, decoded on its first read and the same object on every read (a word linked to
 * another's value gets that very object).
 */
function packedWords(words, bytes, { n, values, links }) {
  const ab = new Uint8Array(bytes).buffer; // a copy, so the typed views below are aligned
  const off = new Int32Array(ab, 0, n + 1);
  const order = new Uint16Array(ab, 4 * (n + 1), n);
  const codes = new Uint8Array(ab, 4 * (n + 1) + 2 * n, n);
  const linked = new Map(links);
  const wordAt = (i) => words.slice(off[i], off[i + 1] - 1);
  const search = (key) => {
    let lo = 0;
    let hi = n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const w = wordAt(mid);
      if (w === key) return mid;
      if (w < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  };
  const places = new Map(); // word → sorted place, for words found (at most n)
  const decoded = new Map(); // sorted place → value, the same object on every read
  const placeOf = (key) => {
    let at = places.get(key);
    if (at === undefined) {
      at = search(key);
      if (at >= 0) places.set(key, at);
    }
    return at;
  };
  const valueAt = (i) => {
    if (linked.has(i)) return valueAt(linked.get(i));
    if (!decoded.has(i)) decoded.set(i, JSON.parse(values[codes[i]]));
    return decoded.get(i);
  };
  return { wordAt, order, placeOf, valueAt };
}

/**
 * The own keys of an object holding `words` (string keys, in the order they were set) and `t`'s own
 * properties, in the order the object lists them: array indexes first, ascending, then the other
 * strings, then the symbols.
 */
function ownKeysWith(words, t) {
  const own = Reflect.ownKeys(t);
  const strings = [...words, ...own.filter((k) => typeof k === 'string')];
  const indexes = strings.filter(isIndex).sort((a, b) => Number(a) - Number(b));
  return [...indexes, ...strings.filter((k) => !isIndex(k)), ...own.filter((k) => typeof k !== 'string')];
}

/**
 * The lexicon packLexicon packed, as an object (a Proxy over an empty plain object): see above.
 * Only string keys other than "__proto__" are words; symbols and "__proto__" go to the object itself.
 */
export function lazyLexicon(words, bytes, meta) {
  const { n } = meta;
  const { wordAt, order, placeOf, valueAt } = packedWords(words, bytes, meta);
  // Writes: a packed word's new value (it keeps its place), a word deleted, a word added (at the end).
  const changed = new Map();
  const deleted = new Set();
  const added = new Map();
  const isWord = (key) => typeof key === 'string' && key !== '__proto__';
  const owns = (key) => added.has(key) || (!deleted.has(key) && (changed.has(key) || placeOf(key) >= 0));
  const read = (key) => (added.has(key) ? added.get(key) : changed.has(key) ? changed.get(key) : valueAt(placeOf(key)));
  const write = (key, value) => {
    if (!deleted.has(key) && !added.has(key) && placeOf(key) >= 0) changed.set(key, value);
    else added.set(key, value);
  };
  const target = {};
  const proxy = new Proxy(target, {
    get: (t, key, receiver) => (isWord(key) && owns(key) ? read(key) : Reflect.get(t, key, receiver)),
    has: (t, key) => (isWord(key) && owns(key)) || Reflect.has(t, key),
    set: (t, key, value, receiver) => {
      if (!isWord(key) || receiver !== proxy) return Reflect.set(t, key, value, receiver);
      write(key, value);
      return true;
    },
    getOwnPropertyDescriptor: (t, key) => (isWord(key) ? (owns(key) ? { value: read(key), writable: true, enumerable: true, configurable: true } : undefined) : Reflect.getOwnPropertyDescriptor(t, key)),
    defineProperty: (t, key, desc) => {
      if (!isWord(key)) return Reflect.defineProperty(t, key, desc);
      // A word is a plain data property: only a value can be given (compromise only assigns words).
      if ('get' in desc || 'set' in desc || desc.writable === false || desc.enumerable === false || desc.configurable === false) return false;
      write(key, 'value' in desc ? desc.value : owns(key) ? read(key) : undefined);
      return true;
    },
    deleteProperty: (t, key) => {
      if (!isWord(key)) return Reflect.deleteProperty(t, key);
      if (added.delete(key)) return true;
      if (!deleted.has(key) && placeOf(key) >= 0) {
        changed.delete(key);
        deleted.add(key);
      }
      return true;
    },
    ownKeys: (t) => {
      const keys = [];
      for (let p = 0; p < n; p++) {
        const k = wordAt(order[p]);
        if (!deleted.has(k)) keys.push(k);
      }
      keys.push(...added.keys());
      return ownKeysWith(keys, t);
    },
  });
  return proxy;
}
