// The lines of compromise's modules that the bundle's copy changes (EDITS), and editedSource, which
// applies them: the esbuild plugin (scripts/compromise-load.mjs) loads each module listed here, with
// its edits, instead of the published file.
//
// - the pre-tagger's model module (MODEL_MODULE) takes its results from the lexicon's data module
//   and loads neither the packed word lists nor the expansion; its leaves are marked as ones the
//   world may take as they are (the data, and why: scripts/compromise-model.mjs).
// - extend() merges each plugin's model into the world's with mergeDeep, which copied the ~24,000
//   words one `Object.assign(model, { [key]: value })` at a time (a fresh object each): the
//   bundle's copy assigns `model[key] = value`, the same [[Set]] without the object (a third of
//   the cost). It asks the data module's merge() first whether the value is to be merged at all
//   (LEXICON_MERGE in scripts/compromise-model.mjs).
// - the post-tagger's sweep (issue 18, tenth pass) lists, for each sentence, the matches whose
//   hooks (words, tags) the sentence has: getHooks walked all ~730 hook keys of the net, copied the
//   list at each hit (concat) and dropped repeats through an object keyed by each match's text, for
//   ~300 matches a sentence. The bundle's copy walks the sentence's own keys (~20) in the net's key
//   order and drops repeats through a number per match text, both indexed once per net: the same
//   list, in the same order (test/scripts/compromise-load.test.ts compares the two on every corpus
//   sentence), ~4× faster, and it is most of tagging a short sentence.
// - parseRegs keeps a match string's parse per world (PARSE_REGS_KEPT, below).
// - the post-tagger's compute step takes its match network from the network's data module
//   (scripts/compromise-net.mjs) instead of building it at the first document.
//
// Each edit is checked as it is applied (editedSource): a compromise release that moves a line
// fails the build.
import { MODEL_MODULE } from './compromise-model.mjs';
import { POST_TAGGER_MODULE } from './compromise-net.mjs';

/** The namespace of the modules the edited sources import (the lexicon's data, the network), which the plugin resolves. */
export const NAMESPACE = 'aureus-compromise-lexicon';

/** The post-tagger's sweep: which matches to try on each sentence. */
export const GET_HOOKS_MODULE = 'src/1-one/sweep/methods/sweep/01-getHooks.js';
/** compromise 14's getHooks, as published. */
const GET_HOOKS = `const getHooks = function (docCaches, hooks) {
  return docCaches.map((set, i) => {
    let maybe = []
    Object.keys(hooks).forEach(k => {
      if (docCaches[i].has(k)) {
        maybe = maybe.concat(hooks[k])
      }
    })
    // remove duplicates
    const already = {}
    maybe = maybe.filter(m => {
      if (typeof already[m.match] === 'boolean') {
        return false
      }
      already[m.match] = true
      return true
    })
    return maybe
  })
}`;
/**
 * The same list, from an index made once per net (a net is never changed once built: buildNet makes
 * a fresh one and sweep only reads it): each hook key's place in Object.keys order, and each match's
 * number, shared by matches of the same text. A repeat is a match whose text came earlier; the
 * published `already[text]` never marks "__proto__" (the assignment sets no own property), so that
 * text gets no number and is never dropped, as there.
 */
const GET_HOOKS_INDEXED = `const aureusIndexes = new WeakMap()
const aureusIndex = function (hooks) {
  let ix = aureusIndexes.get(hooks)
  if (!ix) {
    const order = new Map()
    const nums = new Map()
    const byText = new Map()
    Object.keys(hooks).forEach((k, at) => {
      order.set(k, at)
      hooks[k].forEach(m => {
        const text = String(m.match)
        if (text === '__proto__' || nums.has(m)) return
        if (!byText.has(text)) byText.set(text, byText.size)
        nums.set(m, byText.get(text))
      })
    })
    ix = { order, nums, count: byText.size }
    aureusIndexes.set(hooks, ix)
  }
  return ix
}
const getHooks = function (docCaches, hooks) {
  const { order, nums, count } = aureusIndex(hooks)
  return docCaches.map(set => {
    const keys = []
    set.forEach(k => {
      if (order.has(k)) keys.push(k)
    })
    keys.sort((a, b) => order.get(a) - order.get(b))
    const seen = new Uint8Array(count)
    const maybe = []
    keys.forEach(k => {
      hooks[k].forEach(m => {
        const n = nums.get(m)
        if (n !== undefined) {
          if (seen[n] === 1) return
          seen[n] = 1
        }
        maybe.push(m)
      })
    })
    return maybe
  })
}`;

/** Where match(), has(), if() and ifNo() read a match string (compromise's parseRegs). */
export const PARSE_REGS_MODULE = 'src/1-one/match/api/_lib.js';
const PARSE_REGS = `  if (typeof regs === 'string') {
    regs = one.killUnicode(regs, world)
    regs = one.parseMatch(regs, opts, world)
  }
  return regs`;
/**
 * A match string's parse, kept per world (at most 2,000, then all forgotten). compromise's own
 * readers call has('#Verb')-style checks with the same few strings over and over (a starter
 * episode's tagging: ~1,840 parses of 79 strings, a fifth of its CPU). Shared safely: parseRegs's
 * answer only goes to the match engine, which never writes into a parse (the post-tagger already
 * runs one parse of each of its rules on every document); growLeft/growRight, which do write into
 * theirs, parse for themselves. Kept only without options and without a {root} (the inflections of
 * a root come from the model, which addWords may extend); the rest of a parse depends on the
 * model's unicode and prefix lists, which only a plugin changes, and Aureus adds none at run time
 * (test/scripts/compromise-load.test.ts checks that src/ calls no plugin, extend or addWords).
 */
const PARSE_REGS_KEPT = `  if (typeof regs === 'string') {
    const keep = opts === undefined && !regs.includes('{')
    let kept = keep ? aureusParses.get(world) : undefined
    if (keep && !kept) aureusParses.set(world, (kept = new Map()))
    const hit = kept ? kept.get(regs) : undefined
    if (hit !== undefined) return hit
    const text = regs
    regs = one.killUnicode(regs, world)
    regs = one.parseMatch(regs, opts, world)
    if (kept) {
      if (kept.size >= 2000) kept.clear()
      kept.set(text, regs)
    }
  }
  return regs`;

/** Per module of compromise, the lines the bundle's copy changes, each present exactly once in its source. */
export const EDITS = {
  [MODEL_MODULE]: [
    [
      "import { lexicon, switches, frozenLex } from './lexicon/index.js'",
      `import frozenLex from './lexicon/frozenLex.js'\nimport __aureusLexicon from '${NAMESPACE}:data'\nconst { lexicon, switches } = __aureusLexicon`,
    ],
    ["import expandLexicon from './_expand/index.js'", ''],
    ['_multiCache: {},', '_multiCache: __aureusLexicon._multiCache,'],
    ['uncountable: {},', 'uncountable: __aureusLexicon.uncountable,'],
    ['model = expandLexicon(model)', ''],
    // Its leaves (leafPaths in compromise-model.mjs, listed by the build from the published model) may become the world's as they are.
    ['export default model', `import { adoptable as __aureusAdoptable, leaves as __aureusLeaves } from '${NAMESPACE}:data'\nfor (const p of __aureusLeaves) __aureusAdoptable.add(p.reduce((o, k) => o[k], model))\nexport default model`],
  ],
  'src/API/extend.js': [
    ['const isObject = function (item) {', `import { merge as __aureusMerge } from '${NAMESPACE}:data'\nconst isObject = function (item) {`],
    ['if (!model[key]) Object.assign(model, { [key]: {} })', 'const value = __aureusMerge(model, key, plugin[key])\n        if (value === null) continue\n        if (!model[key]) model[key] = {}'],
    ['mergeDeep(model[key], plugin[key]) //recursion', 'mergeDeep(model[key], value) //recursion'],
    ['Object.assign(model, { [key]: plugin[key] })', 'model[key] = plugin[key]'],
  ],
  [GET_HOOKS_MODULE]: [[GET_HOOKS, GET_HOOKS_INDEXED]],
  [PARSE_REGS_MODULE]: [
    ['export const parseRegs = function (regs, opts, world) {', 'const aureusParses = new WeakMap()\nexport const parseRegs = function (regs, opts, world) {'],
    [PARSE_REGS, PARSE_REGS_KEPT],
  ],
  [POST_TAGGER_MODULE]: [
    ['let net = null', `import __aureusNet from '${NAMESPACE}:net'\nlet net = null`],
    ['net = net || methods.one.buildNet(model.two.matches, world)', 'net = net || __aureusNet(model.two.matches) || methods.one.buildNet(model.two.matches, world)'],
  ],
};

/** A module's source with its EDITS applied; throws when a line is missing or repeated. */
export function editedSource(module, source) {
  let text = source;
  for (const [from, to] of EDITS[module]) {
    const at = text.indexOf(from);
    if (at < 0 || text.indexOf(from, at + 1) >= 0) {
      throw new Error(`compromise-load: "${from}" is not in compromise's ${module} exactly once (a compromise release changed it): update scripts/compromise-edits.mjs`);
    }
    text = text.slice(0, at) + to + text.slice(at + from.length);
  }
  return text;
}
