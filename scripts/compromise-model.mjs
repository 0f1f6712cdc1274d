// compromise's pre-tagger model as the build computes it, and the data modules that carry it into
// the bundle: the esbuild plugin (scripts/compromise-load.mjs) loads them; the lines of compromise
// that read them are in scripts/compromise-edits.mjs.
//
// - the module 2-two/preTagger/model/index.js unpacks its packed word lists (efrt tries),
//   pluralises its noun/verb switches, then expands the whole lexicon (conjugations, plurals,
//   comparatives: ~24,000 words, model/_expand). That depends on compromise's own files only: the
//   bundle's copy of the module takes its four results (lexicon, switches, _multiCache,
//   uncountable) from one JSON literal, computed here by importing the module itself, and loads
//   neither the word lists nor the expansion. Its conjugation models (model/models/index.js:
//   suffix-thumb rules unpacked and reversed) are one JSON literal the same way.
//
// - the pre-tagger's words merged into the world's lexicon (issue 18, eleventh pass): extend()'s
//   mergeDeep set the ~24,400 words one at a time into the lexicon the world already holds (205
//   abbreviations and such from the 'one' plugins), after JSON.parse had made them once already:
//   ~27 ms of CPU at load, and a second 24,400-word object kept for the rest of the run. The data
//   module's lexicon is that merge's result, made here (mergedLexicon); the bundle's mergeDeep makes
//   it the world's lexicon when the world's is, as JSON, the one it was merged with, and merges the
//   pre-tagger's own words as published otherwise (LEXICON_MERGE). Its data are files beside the
//   chunks (written by the plugin), not a string literal compiled with the chunk; since the
//   thirteenth pass its words are looked up in a sorted words file, not built as an object
//   (scripts/compromise-lexicon.mjs).
//
// - the rest of the pre-tagger's model (issue 18, thirteenth pass): mergeDeep copied each of its
//   tables key by key (~12,300 keys). The world takes the tables nothing else holds as they are
//   (leafPaths, merge), and compromise's transforms read them faster than the copies.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { INDEX_FILE, packLexicon, WORDS_FILE } from './compromise-lexicon.mjs';

/** The lazy lexicon's run-time half, bundled into the chunk that loads compromise. */
export const LEXICON_RUNTIME = fileURLToPath(new URL('./compromise-lexicon.mjs', import.meta.url));

/** The module whose results are precomputed, inside compromise's package folder. */
export const MODEL_MODULE = 'src/2-two/preTagger/model/index.js';
/** The conjugation models (suffix-thumb's unpacked rules), one plain object: the bundle's copy of the module is that object. */
export const MODELS_MODULE = 'src/2-two/preTagger/model/models/index.js';

/**
 * value as JSON text that JSON.parse gives back as it is, and the objects it reaches more than once
 * (compromise's lexicon shares an array between words, e.g. his/her/its: ['Possessive', 'Pronoun']):
 * each later reach is written null and listed as [its path, the first reach's path], for the module
 * to link back after parsing. Throws on anything else than strings, finite numbers, booleans, null,
 * arrays and plain objects, and on a "__proto__" key (an assignment of which sets the prototype).
 */
export function plainData(value) {
  const first = new Map();
  const links = [];
  const copy = (v, at) => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    const where = at.join('.') || '(root)';
    if (typeof v !== 'object' || (!Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype)) throw new Error(`compromise-load: ${where} is not JSON data`);
    if (first.has(v)) {
      links.push([at, first.get(v)]);
      return null;
    }
    first.set(v, at);
    if (Array.isArray(v)) return v.map((x, i) => copy(x, [...at, i]));
    const out = {};
    for (const key of Object.keys(v)) {
      if (key === '__proto__') throw new Error(`compromise-load: ${where} has a __proto__ key`);
      out[key] = copy(v[key], [...at, key]);
    }
    return out;
  };
  return { json: JSON.stringify(copy(value, [])), links };
}

/**
 * The four results of MODEL_MODULE, and MODELS_MODULE's export as MODEL_MODULE leaves it (its
 * expansion reads the models), computed by importing them (a fresh module graph of their own).
 */
export async function precomputed(dir) {
  const load = async (m) => (await import(pathToFileURL(path.join(dir, m)).href)).default;
  const model = await load(MODEL_MODULE);
  const merged = mergedLexicon(lexiconBefore(dir), model.one.lexicon);
  return {
    lexicon: { lexicon: merged.lexicon, switches: model.two.switches, _multiCache: model.one._multiCache, uncountable: model.two.uncountable },
    merge: merged.merge,
    leaves: leafPaths(model),
    models: await load(MODELS_MODULE),
  };
}

/** Run in a child process (a module graph of its own): the world's lexicon once src/one.js's plugins are loaded, as JSON. */
const BEFORE = `const nlp = (await import(process.argv[1])).default;
process.stdout.write(JSON.stringify(nlp.model().one.lexicon));`;

/**
 * The lexicon the world holds when the pre-tagger's plugin is merged into it (src/two.js loads that
 * plugin first, right after src/one.js), as JSON text. A child process: this one may have loaded
 * the whole library already (compromise-net.mjs), which adds its words to the same world.
 */
export function lexiconBefore(dir) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', BEFORE, pathToFileURL(path.join(dir, 'src/one.js')).href], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`compromise-load: reading compromise's lexicon before the pre-tagger failed: ${r.stderr}`);
  return r.stdout;
}

const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);
const INDEX = /^(?:0|[1-9]\d*)$/;

/**
 * extend()'s mergeDeep of the pre-tagger's words (`words`) into the world's lexicon (`beforeText`,
 * JSON), as published: the world's words first in their order, each word of `words` in its order
 * (a word the world has keeps its place and takes the new value; mergeDeep skips unsafe keys), and
 * what LEXICON_MERGE needs at run time: the world's lexicon it was merged with (`before`), the
 * world's words the merge leaves (`kept`: their values are put back from the live world, so the
 * very objects stay), and where each word both have stands among the pre-tagger's own (`common`).
 * Throws on what would make mergeDeep do more than set each word (a plain-object value: it
 * recurses) or the key order differ from insertion order (an array-index key).
 */
export function mergedLexicon(beforeText, words) {
  const before = JSON.parse(beforeText);
  const own = [];
  for (const k in words) if (!UNSAFE.has(k)) own.push(k);
  const all = [...Object.keys(before), ...own];
  const odd = all.find((k) => INDEX.test(k) || UNSAFE.has(k));
  if (odd !== undefined) throw new Error(`compromise-load: the lexicon has the word "${odd}", whose place in a JS object is not where it was set`);
  const plain = own.find((k) => words[k] && typeof words[k] === 'object' && !Array.isArray(words[k]));
  if (plain !== undefined) throw new Error(`compromise-load: the pre-tagger's word "${plain}" has an object value, which mergeDeep merges into, not sets`);
  const lexicon = {};
  for (const k of Object.keys(before)) lexicon[k] = before[k];
  for (const k of own) lexicon[k] = words[k];
  const at = new Map(own.map((k, i) => [k, i]));
  const beforeKeys = Object.keys(before);
  return {
    lexicon,
    merge: {
      before: beforeText,
      size: beforeKeys.length,
      kept: beforeKeys.filter((k) => !at.has(k)),
      common: beforeKeys.filter((k) => at.has(k)).map((k) => [k, at.get(k)]).sort((a, b) => a[1] - b[1]),
    },
  };
}

/**
 * The bundle's extend() asks merge(model, key, value) before it merges an object value into the
 * world's model (mergeDeep): null when it is the data's merged lexicon and the world's lexicon is,
 * as JSON, the one it was merged with (then the merged lexicon, with the world's own values put back
 * for the words the merge leaves, is the world's lexicon now), or when it is one of the data's
 * leaves (adoptable, below) and the world has nothing at that key (then it is the world's: the
 * copy mergeDeep would make of it, key by key, would hold the same keys in the same order and the
 * same values); otherwise the value to merge: the pre-tagger's own words, rebuilt in their order,
 * or any other value as it is.
 */
const LEXICON_MERGE = `export function merge(model, key, value) {
  if (value !== data.lexicon) {
    if (!adoptable.has(value) || model[key]) return value;
    model[key] = value;
    return null;
  }
  const into = model[key];
  if (into && Object.getPrototypeOf(into) === Object.prototype && JSON.stringify(into) === merged.before) {
    for (const k of merged.kept) value[k] = into[k];
    model[key] = value;
    return null;
  }
  const keys = Object.keys(value).slice(merged.size);
  for (const [k, i] of merged.common) keys.splice(i, 0, k);
  const own = {};
  for (const k of keys) own[k] = value[k];
  return own;
}`;

/** Keys mergeDeep skips (isUnsafeKey): an object holding one is not what mergeDeep would copy of it. */
const SKIPPED = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The paths of a plugin model's leaves that the world may take as they are (issue 18, thirteenth
 * pass): plain objects reached once (an object two paths share, such as the conjugation models' fwd
 * of one and rev of another, is two copies in the published world), holding no object (mergeDeep
 * would recurse into it; a RegExp or a Set it makes {}) and no key mergeDeep skips. mergeDeep copied
 * each of them into a fresh object key by key: of the pre-tagger's model, ~12,300 keys (switches,
 * the conjugation models, irregular plurals, patterns), ~15–30 ms of CPU at load, for a copy of an
 * object nothing else reads (the pre-tagger's model module is imported only by its plugin).
 */
export function leafPaths(value) {
  const count = new Map();
  const reach = (v) => {
    if (v === null || typeof v !== 'object') return;
    count.set(v, (count.get(v) ?? 0) + 1);
    if (count.get(v) === 1) for (const k of Object.keys(v)) reach(v[k]);
  };
  reach(value);
  // mergeDeep recurses into what isObject() says is an object (a RegExp, a Set too: copied as {}), and sets anything else.
  const object = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  const plain = (v) => object(v) && Object.getPrototypeOf(v) === Object.prototype && count.get(v) === 1;
  const out = [];
  const walk = (v, at) => {
    const keys = Object.keys(v);
    if (at.length && !keys.some((k) => SKIPPED.has(k) || object(v[k]))) out.push(at);
    else for (const k of keys) if (plain(v[k])) walk(v[k], [...at, k]);
  };
  if (plain(value)) walk(value, []);
  return out;
}

/** The file beside the bundle's chunks that holds the lexicon's data but its words (written by the plugin). */
export const LEXICON_FILE = 'compromise-lexicon.json';

/**
 * The lexicon's data module (`code`), and the files it reads beside the chunk it ends up in
 * (`files`, name → contents): LEXICON_FILE, the switches, _multiCache and uncountable as JSON (as
 * dataModule's, the objects they reach more than once linked back), and the lexicon's words packed
 * (compromise-lexicon.mjs: a look-up, not a 24,600-key object built on every run); the merge its
 * lexicon was made by (mergedLexicon) is exported. Files, not string literals in the chunk:
 * compiling the chunk scanned and copied those ~700 KB on every run (~15–30 ms of CPU, measured in
 * the eleventh pass), while a read is one system call.
 */
export function lexiconModule(value, merge, leaves = []) {
  const { lexicon, ...rest } = value;
  const { json, links } = plainData(rest);
  const packed = packLexicon(lexicon);
  const file = (name) => `new URL(${JSON.stringify(`./${name}`)}, import.meta.url)`;
  const code = [
    "import { readFileSync as __aureusReadFileSync } from 'node:fs';",
    `import { lazyLexicon as __aureusLazyLexicon } from ${JSON.stringify(LEXICON_RUNTIME)};`,
    `const data = JSON.parse(__aureusReadFileSync(${file(LEXICON_FILE)}, 'utf8'));`,
    `const at = (path) => path.reduce((o, k) => o[k], data);`,
    `for (const [to, from] of ${JSON.stringify(links)}) at(to.slice(0, -1))[to[to.length - 1]] = at(from);`,
    'export const adoptable = new WeakSet();',
    `export const leaves = ${JSON.stringify(leaves)};`,
    `data.lexicon = __aureusLazyLexicon(__aureusReadFileSync(${file(WORDS_FILE)}, 'utf8'), __aureusReadFileSync(${file(INDEX_FILE)}), ${JSON.stringify(packed.meta)});`,
    'export default data;',
    `const merged = ${JSON.stringify(merge)};`,
    LEXICON_MERGE,
  ].join('\n');
  return { code, files: { [LEXICON_FILE]: json, [WORDS_FILE]: packed.words, [INDEX_FILE]: packed.bytes } };
}

/** A module whose default export is a copy of `value` (plainData), shared objects shared again. */
export function dataModule(value) {
  const { json, links } = plainData(value);
  // One JSON.parse of a string literal (measured as fast as an object literal of the same data, 24,000 keys).
  return [
    `const data = JSON.parse(${JSON.stringify(json)});`,
    `const at = (path) => path.reduce((o, k) => o[k], data);`,
    `for (const [to, from] of ${JSON.stringify(links)}) at(to.slice(0, -1))[to[to.length - 1]] = at(from);`,
    'export default data;',
  ].join('\n');
}
