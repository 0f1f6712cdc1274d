// compromise's post-tagger match network, built by the build instead of at the first document
// (issue 18, tenth pass; scripts/compromise-load.mjs bundles it). compromise 14's post-tagger parses
// its ~570 match rules (match syntax → token objects) and indexes them by the words and tags they
// need (buildNet) when it tags its first document: ~40–60 ms of CPU on the critical path of every
// `episode run`, from compromise's own files only. The bundle's copy takes the network from a data
// module made here by running the published buildNet, and only when the rules it is handed are
// exactly (as JSON) the ones it was made from; otherwise it builds the network as published.
// As buildNet does, it writes each rule's parsed fields onto the rule object the world holds and
// indexes those very objects, so the world after the first document is the published one too
// (test/scripts/compromise-load.test.ts compares the two worlds and their readings).
import { pathToFileURL } from 'node:url';
import path from 'node:path';

/** The post-tagger's compute step, whose first call builds the network. */
export const POST_TAGGER_MODULE = 'src/2-two/postTagger/compute/index.js';

/**
 * value as plain data, and where its Sets (of strings: compromise's fastOr) and RegExps were: each
 * Set is written as the array of its entries, each RegExp as null, and listed by path for the
 * module to make again after one JSON.parse (a walk over every object to revive them cost as much
 * as the parse it saves).
 */
function plainRules(value) {
  const sets = [];
  const regexps = [];
  const copy = (v, at) => {
    if (v instanceof Set) {
      if (![...v].every((x) => typeof x === 'string')) throw new Error(`compromise-net: ${at.join('.')} is a Set of something else than strings`);
      sets.push(at);
      return [...v];
    }
    if (v instanceof RegExp) {
      regexps.push([at, v.source, v.flags]);
      return null;
    }
    if (Array.isArray(v)) return v.map((x, i) => copy(x, [...at, i]));
    if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).map((k) => [k, copy(v[k], [...at, k])]));
    return v;
  };
  return { rules: copy(value, []), sets, regexps };
}

/**
 * The network of the published compromise in `dir`, as data: the rules as the post-tagger holds
 * them (`source`, JSON), each rule once parsed (`rules`, with its Sets' and RegExps' paths), and the
 * network's hooks and always-list as indexes into the rules. Built on a copy of the rules: the
 * importer's world is left as it was.
 */
export async function netData(dir) {
  const nlp = (await import(pathToFileURL(path.join(dir, 'src/three.js')).href)).default;
  const world = nlp.world();
  const source = JSON.stringify(world.model.two.matches);
  const rules = JSON.parse(source);
  const net = world.methods.one.buildNet(rules, world);
  const at = new Map(rules.map((r, i) => [r, i]));
  const index = (list) =>
    list.map((r) => {
      if (!at.has(r)) throw new Error('compromise-net: the network holds a rule that is not one of the rules it was built from');
      return at.get(r);
    });
  return { source, net: { ...plainRules(rules), hooks: Object.keys(net.hooks).map((k) => [k, index(net.hooks[k])]), always: index(net.always) } };
}

/**
 * The bundle's data module (`json`: netData's `net` as plainData writes it): `aureusNet(rules)`, the
 * network for these rules, or null when they are not, as JSON, the `source` it was made from.
 */
export function netModule(source, json) {
  return [
    `const source = ${JSON.stringify(source)};`,
    `const json = ${JSON.stringify(json)};`,
    `const at = (o, path) => path.reduce((x, k) => x[k], o);`,
    `export default function aureusNet(live) {`,
    `  if (!Array.isArray(live) || JSON.stringify(live) !== source) return null;`,
    `  const data = JSON.parse(json);`,
    `  for (const p of data.sets) at(data.rules, p.slice(0, -1))[p[p.length - 1]] = new Set(at(data.rules, p));`,
    `  for (const [p, re, flags] of data.regexps) at(data.rules, p.slice(0, -1))[p[p.length - 1]] = new RegExp(re, flags);`,
    `  live.forEach((rule, i) => Object.assign(rule, data.rules[i]));`,
    `  const hooks = {};`,
    `  for (const [k, ids] of data.hooks) hooks[k] = ids.map((i) => live[i]);`,
    `  return { hooks, always: data.always.map((i) => live[i]) };`,
    `}`,
  ].join('\n');
}
