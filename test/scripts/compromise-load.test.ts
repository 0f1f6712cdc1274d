import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script (plain ESM, no types)
import { compromiseDir, compromiseLoad } from '../../scripts/compromise-load.mjs';
// @ts-expect-error: a build script (plain ESM, no types)
import { editedSource, EDITS, GET_HOOKS_MODULE } from '../../scripts/compromise-edits.mjs';
// @ts-expect-error: a build script (plain ESM, no types)
import { leafPaths, LEXICON_FILE, lexiconBefore, lexiconModule, mergedLexicon, MODEL_MODULE, plainData } from '../../scripts/compromise-model.mjs';
// @ts-expect-error: a build script (plain ESM, no types)
import { netData, netModule } from '../../scripts/compromise-net.mjs';
// @ts-expect-error: a build script (plain ESM, no types)
import { INDEX_FILE, WORDS_FILE } from '../../scripts/compromise-lexicon.mjs';

/**
 * The bundle's compromise (scripts/compromise-load.mjs: its lexicon expanded at build time, two
 * lines of its extend() rewritten) must build the very world the published compromise builds, and
 * tag every text the same: if a compromise release, or an edit of the script, made them differ,
 * the prose checks of the CLI (bundled) would differ from those of dist/ and the tests.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'compromise-load-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/**
 * Run in a child process for a copy of compromise (argv[1]: its module): its world written as text
 * with every object's keys in order, a RegExp as its source and flags, a function as its name, Sets
 * and Maps by their entries, and an object reached again as a reference to the path it was first
 * reached by (so sharing counts too); then the JSON of its reading of each text of argv[2..]: its
 * terms' tags, normal forms and roots, its verbs' and numbers' readings.
 */
const SNAPSHOT = String.raw`
const nlp = (await import(process.argv[1])).default;
const { readFileSync } = await import('node:fs');
const seen = new Map();
const out = [];
const walk = (v, at) => {
  if (v === null || typeof v !== 'object' && typeof v !== 'function') return out.push(at + '=' + typeof v + ':' + String(v));
  if (seen.has(v)) return out.push(at + '=@' + seen.get(v));
  seen.set(v, at);
  if (typeof v === 'function') return out.push(at + '=function');
  if (v instanceof RegExp) return out.push(at + '=/' + v.source + '/' + v.flags);
  if (v instanceof Set || v instanceof Map) return [...v].forEach((e, i) => walk(e, at + '<' + i + '>'));
  out.push(at + '=' + (Array.isArray(v) ? 'array' : 'object') + ' ' + Object.keys(v).length);
  for (const k of Object.keys(v)) walk(v[k], at + '.' + k);
};
const world = nlp.world();
walk({ model: world.model, methods: world.methods, compute: world.compute, hooks: world.hooks }, 'world');
for (const file of process.argv.slice(2)) {
  const doc = nlp(readFileSync(file, 'utf8'));
  doc.compute('root');
  // A term's id ends in a random digit (compromise's uuid): left out.
  const text = (v) => JSON.stringify(v, (k, x) => (k === 'id' ? undefined : x));
  out.push(text(doc.json()), text(doc.verbs().json()), text(doc.numbers().json()));
}
// The post-tagger's rules once it has built its network from them (compromise-net.mjs).
seen.clear();
walk(world.model.two.matches, 'tagged.matches');
process.stdout.write(out.join('\n'));
`;

function snapshot(module: string, texts: string[]): string {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', SNAPSHOT, module, ...texts], { encoding: 'utf8', maxBuffer: 1 << 30 });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('the bundle’s compromise (scripts/compromise-load.mjs)', () => {
  it('builds the published world and reads prose as the published library does', async () => {
    const entry = path.join(tmp, 'entry.js');
    fs.writeFileSync(entry, "export { default } from 'compromise';\n");
    const plugin = (await compromiseLoad(repo)) as import('esbuild').Plugin;
    // Into a folder that does not exist yet, as dist/bundle/ on a clean clone, first without writing
    // the chunks (scripts/bundle.mjs's graph pass): the plugin writes the lexicon there all the same.
    const out = path.join(tmp, 'out');
    await build({ entryPoints: [entry], outfile: path.join(out, 'bundled.js'), write: false, bundle: true, format: 'esm', platform: 'node', nodePaths: [path.join(repo, 'node_modules')], plugins: [plugin], logLevel: 'silent' });
    expect(fs.existsSync(path.join(out, LEXICON_FILE as string))).toBe(true);
    const result = await build({ entryPoints: [entry], outfile: path.join(out, 'bundled.js'), bundle: true, format: 'esm', platform: 'node', nodePaths: [path.join(repo, 'node_modules')], plugins: [plugin], logLevel: 'silent', metafile: true });
    // The bundled copy really is the edited one: no word list, no expansion.
    const inputs = Object.values(result.metafile.outputs).flatMap((o) => Object.entries(o.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([f]) => f));
    expect(inputs.some((f) => f.includes('compromise/src/2-two/preTagger/model/clues/'))).toBe(true);
    expect(inputs.some((f) => f.includes('preTagger/model/lexicon/_data.js'))).toBe(false);
    expect(inputs.some((f) => f.includes('preTagger/model/_expand/'))).toBe(false);
    expect(inputs.some((f) => f.includes('preTagger/model/models/_data.js') || f.includes('suffix-thumb/src/compress/'))).toBe(false);
    const code = fs.readFileSync(path.join(out, 'bundled.js'), 'utf8');
    expect(code).not.toContain('Object.assign(model, { [key]: plugin[key] })');
    // The lexicon is read from the files beside the bundle, not compiled as a literal, and its words
    // are looked up in the sorted words file (compromise-lexicon.mjs), not parsed into an object.
    expect(fs.readFileSync(path.join(out, WORDS_FILE as string), 'utf8')).toContain('\n20th century fox\n');
    expect(fs.statSync(path.join(out, INDEX_FILE as string)).size).toBeGreaterThan(24_000 * 7);
    expect(fs.readFileSync(path.join(out, LEXICON_FILE as string), 'utf8')).not.toContain('20th century fox');
    expect(code).not.toContain('{"lexicon":{');
    const lazy = spawnSync(process.execPath, ['--input-type=module', '-e', "const nlp = (await import(process.argv[1])).default; process.stdout.write(String((await import('node:util')).types.isProxy(nlp.world().model.one.lexicon)));", path.join(out, 'bundled.js')], { encoding: 'utf8' });
    expect(lazy.stdout, lazy.stderr).toBe('true');
    expect(inputs).toContain('aureus-compromise-lexicon:net');

    const corpus = path.join(repo, 'test/fixtures/prose-corpus');
    const texts = fs.readdirSync(corpus).filter((f) => f.endsWith('.txt')).sort().slice(0, 16).map((f) => path.join(corpus, f));
    const published = snapshot(path.join(compromiseDir(repo), 'src/three.js'), texts);
    const bundled = snapshot(path.join(out, 'bundled.js'), texts);
    expect(published.length).toBeGreaterThan(3_000_000);
    expect(bundled === published).toBe(true);
  }, 240_000);

  it('lists the same matches in the same order as the published getHooks, for every sentence of the corpora', async () => {
    const dir = compromiseDir(repo);
    type Match = { match: string };
    type GetHooks = (caches: Set<string>[], hooks: Record<string, Match[]>) => Match[][];
    const load = async (file: string) => (await import(pathToFileURL(file).href)).default as GetHooks;
    const published = await load(path.join(dir, GET_HOOKS_MODULE));
    const file = path.join(tmp, 'getHooks.mjs');
    fs.writeFileSync(file, editedSource(GET_HOOKS_MODULE, fs.readFileSync(path.join(dir, GET_HOOKS_MODULE), 'utf8')));
    const indexed = await load(file);
    expect(indexed).not.toBe(published);
    // The published library's own net and sentence caches, as its post-tagger makes them.
    const nlp = (await import(pathToFileURL(path.join(dir, 'src/three.js')).href)).default;
    const world = nlp.world();
    const matches = structuredClone(world.model.two.matches.map((m: Record<string, unknown>) => ({ ...m })));
    const net = world.methods.one.buildNet(matches, world) as { hooks: Record<string, Match[]> };
    const pre = world.hooks.slice(0, world.hooks.indexOf('postTagger'));
    const fix = path.join(repo, 'test/fixtures');
    const lines = ['prose-corpus', 'prose-corpus-heldout', 'writer-corpus'].flatMap((d) =>
      fs.readdirSync(path.join(fix, d)).filter((f) => f.endsWith('.txt')).flatMap((f) => fs.readFileSync(path.join(fix, d, f), 'utf8').split('\n')),
    );
    let sentences = 0;
    let listed = 0;
    for (const line of new Set(lines.map((l) => l.trim()).filter(Boolean))) {
      for (const text of [line, `He ${line.slice(0, 80)}`]) {
        const doc = nlp.tokenize(text);
        doc.compute(pre);
        const caches = world.methods.one.cacheDoc(doc.docs) as Set<string>[];
        const want = published(caches, net.hooks);
        const got = indexed(caches, net.hooks);
        expect(got.length).toBe(want.length);
        got.forEach((list, i) => {
          expect(list.length, text).toBe(want[i].length);
          expect(list.every((m, j) => m === want[i][j]), text).toBe(true);
        });
        sentences += caches.length;
        listed += want.reduce((n, l) => n + l.length, 0);
      }
    }
    expect(sentences).toBeGreaterThan(3000);
    expect(listed).toBeGreaterThan(sentences * 50);
  }, 240_000);

  it('gives the post-tagger the network the published buildNet builds, and only for the rules it was made from', async () => {
    const dir = compromiseDir(repo);
    const file = path.join(tmp, 'net.mjs');
    const data = await netData(dir);
    fs.writeFileSync(file, netModule(data.source, plainData(data.net).json));
    const aureusNet = (await import(pathToFileURL(file).href)).default as (rules: unknown[]) => { hooks: Record<string, unknown[]>; always: unknown[] } | null;
    const nlp = (await import(pathToFileURL(path.join(dir, 'src/three.js')).href)).default;
    const world = nlp.world();
    const source = JSON.stringify(world.model.two.matches);
    // Two fresh copies of the rules as the world holds them before any tagging.
    const mine = JSON.parse(source) as Record<string, unknown>[];
    const theirs = JSON.parse(source) as Record<string, unknown>[];
    const got = aureusNet(mine)!;
    const want = world.methods.one.buildNet(theirs, world) as { hooks: Record<string, unknown[]>; always: unknown[] };
    // The same text: each object's keys in order, Sets' entries in order, RegExps' source and flags.
    const seen = new Map<unknown, string>();
    const lines: string[] = [];
    const walk = (v: unknown, at: string): void => {
      if (v === null || typeof v !== 'object') return void lines.push(`${at}=${typeof v}:${String(v)}`);
      if (seen.has(v)) return void lines.push(`${at}=@${seen.get(v)}`);
      seen.set(v, at);
      if (v instanceof RegExp) return void lines.push(`${at}=/${v.source}/${v.flags}`);
      if (v instanceof Set) return void [...v].forEach((e, i) => walk(e, `${at}<${i}>`));
      lines.push(`${at}=${Array.isArray(v) ? 'array' : 'object'} ${Object.keys(v).length}`);
      for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], `${at}.${k}`);
    };
    const text = (rules: unknown[], net: unknown) => {
      seen.clear();
      lines.length = 0;
      walk(rules, 'rules');
      walk(net, 'net');
      return lines.join('\n');
    };
    const expected = text(theirs, want);
    expect(expected).toContain('=/');
    expect(expected).toContain('fastOr<0>');
    expect(text(mine, got) === expected).toBe(true);
    // The network holds the very rule objects it was handed, as buildNet's does.
    expect(Object.values(got.hooks).flat().every((r) => mine.includes(r as Record<string, unknown>))).toBe(true);
    // Rules it was not made from get no network: the post-tagger builds one as published.
    const other = JSON.parse(source) as Record<string, unknown>[];
    other[0] = { ...other[0], match: `${String(other[0].match)} .` };
    expect(aureusNet(other)).toBeNull();
    expect(aureusNet(JSON.parse(source).slice(1))).toBeNull();
  }, 60_000);

  it('a parse kept by parseRegs is never written into while compromise reads the corpora', async () => {
    const dir = compromiseDir(repo);
    const nlp = (await import(pathToFileURL(path.join(dir, 'src/three.js')).href)).default;
    const one = nlp.world().methods.one;
    const parse = one.parseMatch;
    // The first parse parseRegs asks for of each string (the one the bundle keeps and shares), with its text as made.
    const made = new Map<unknown, { regs: unknown; text: string }>();
    let parses = 0;
    const text = (v: unknown) => JSON.stringify(v, (_, x) => (x instanceof Set ? [...x] : x instanceof RegExp ? String(x) : x));
    one.parseMatch = function (...args: unknown[]) {
      const regs = parse.apply(this, args);
      parses++;
      if (!made.has(args[0]) && new Error().stack!.includes('parseRegs')) made.set(args[0], { regs, text: text(regs) });
      return regs;
    };
    try {
      const fix = path.join(repo, 'test/fixtures');
      const files = ['prose-corpus', 'prose-corpus-heldout'].flatMap((d) => fs.readdirSync(path.join(fix, d)).filter((f) => f.endsWith('.txt')).sort().slice(0, 24).map((f) => path.join(fix, d, f)));
      for (const f of files) {
        const doc = nlp(fs.readFileSync(f, 'utf8'));
        doc.compute('root');
        doc.json();
        doc.verbs().json();
        doc.numbers().json();
      }
      expect(parses).toBeGreaterThan(5_000);
      expect(made.size).toBeGreaterThan(50);
      expect([...made.values()].filter((m) => text(m.regs) !== m.text).map((m) => m.text)).toEqual([]);
    } finally {
      one.parseMatch = parse;
    }
  }, 240_000);

  it('src/ adds nothing to compromise at run time (the kept parses read its model as loaded)', () => {
    const files = fs.readdirSync(path.join(repo, 'src'), { recursive: true }).map(String).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(100);
    const calls = files.filter((f) => /\b(?:nlp|compromise)\.(?:plugin|extend|addWords|addTags)\s*\(|\.addWords\s*\(/.test(fs.readFileSync(path.join(repo, 'src', f), 'utf8')));
    expect(calls).toEqual([]);
  });

  it('makes the merged lexicon the world’s when the world’s is the one it was merged with, and merges as published otherwise', async () => {
    const dir = compromiseDir(repo);
    type Lexicon = Record<string, unknown>;
    const words = ((await import(pathToFileURL(path.join(dir, MODEL_MODULE)).href)).default as { one: { lexicon: Lexicon } }).one.lexicon;
    const beforeText = lexiconBefore(dir) as string;
    const { lexicon, merge } = mergedLexicon(beforeText, words) as { lexicon: Lexicon; merge: { kept: string[]; common: [string, number][] } };
    fs.mkdirSync(path.join(tmp, 'merge'));
    const file = path.join(tmp, 'merge', 'lexicon.mjs');
    const made = lexiconModule({ lexicon, switches: { able: 'Adj|Noun', about: 'Adv|Prep' } }, merge, [['two', 'switches']]) as { code: string; files: Record<string, string | Buffer> };
    fs.writeFileSync(file, made.code);
    for (const [name, contents] of Object.entries(made.files)) fs.writeFileSync(path.join(tmp, 'merge', name), contents);
    const mod = (await import(pathToFileURL(file).href)) as { default: { lexicon: Lexicon; switches: Lexicon }; merge: (model: Lexicon, key: string, value: unknown) => unknown; adoptable: WeakSet<object>; leaves: string[][] };
    // The model module marks the leaves the build listed (as EDITS do in the bundle).
    expect(mod.leaves).toEqual([['two', 'switches']]);
    mod.adoptable.add(mod.default.switches);
    type Extend = (plugin: unknown, world: unknown) => void;
    const extend = (await import(pathToFileURL(path.join(dir, 'src/API/extend.js')).href)).default as Extend;
    // The published extend() of the pre-tagger's words (or `plugin`) into a world holding `lex`.
    const published = (lex: Lexicon, plugin: Lexicon = words) => {
      const world = { methods: {}, model: { one: { lexicon: lex } }, compute: {}, hooks: [] };
      extend({ model: { one: { lexicon: plugin } } }, world);
      return world.model.one.lexicon;
    };
    // Keys in order and values.
    const text = (o: Lexicon) => JSON.stringify(Object.entries(o));
    const want = text(published(JSON.parse(beforeText) as Lexicon));
    expect(Object.keys(lexicon).length).toBeGreaterThan(24_000);
    expect(merge.kept.length).toBeGreaterThan(100);
    expect(merge.common.length).toBeGreaterThan(10);
    // The world's lexicon as compromise holds it before the pre-tagger: the merged one takes its place, with the world's own values.
    const live = JSON.parse(beforeText) as Lexicon;
    const model: Lexicon = { lexicon: live };
    expect(mod.merge(model, 'lexicon', mod.default.lexicon)).toBeNull();
    expect(model.lexicon).toBe(mod.default.lexicon);
    expect(text(model.lexicon as Lexicon)).toBe(want);
    const array = merge.kept.find((k) => Array.isArray(live[k]))!;
    expect((model.lexicon as Lexicon)[array]).toBe(live[array]);
    // Any other lexicon: the pre-tagger's own words, in their order, merged as published.
    const other = { ...(JSON.parse(beforeText) as Lexicon), aureus: 'Noun' };
    const own = mod.merge({ lexicon: other }, 'lexicon', mod.default.lexicon) as Lexicon;
    expect(text(own)).toBe(text(words));
    expect(text(published({ ...other }, own))).toBe(text(published({ ...other })));
    // Any other value is merged as it is.
    const value = { a: 1 };
    expect(mod.merge({}, 'lexicon', value)).toBe(value);
    // A leaf of the data (no object in it, reached once) becomes the world's as it is where the world
    // has nothing (mergeDeep's key-by-key copy would be equal), and is merged as published into what it has.
    const bare: Lexicon = {};
    expect(mod.merge(bare, 'switches', mod.default.switches)).toBeNull();
    expect(bare.switches).toBe(mod.default.switches);
    const held: Lexicon = { switches: { zeal: 'Noun' } };
    expect(mod.merge(held, 'switches', mod.default.switches)).toBe(mod.default.switches);
  }, 60_000);

  it('keeps the lexicon’s shared values shared, and refuses what JSON would not give back', () => {
    const shared = ['Possessive', 'Pronoun'];
    const { json, links } = plainData({ lexicon: { his: shared, her: shared, a: 'Determiner' } });
    expect(JSON.parse(json)).toEqual({ lexicon: { his: ['Possessive', 'Pronoun'], her: null, a: 'Determiner' } });
    expect(links).toEqual([[['lexicon', 'her'], ['lexicon', 'his']]]);
    expect(() => plainData({ a: /x/ })).toThrow(/a is not JSON data/);
    expect(() => plainData({ a: undefined })).toThrow(/a is not JSON data/);
    expect(() => plainData(JSON.parse('{"__proto__": 1}'))).toThrow(/__proto__/);
  });

  it('takes as leaves only the objects mergeDeep would copy key by key into an equal one', () => {
    const shared = { fwd: 'x' };
    const data = { a: { one: 'Noun', two: ['Noun'] }, b: { inner: { deep: 1 } }, c: { x: shared, y: shared }, d: { constructor: 'Noun' }, e: shared, f: { re: /x/ }, g: /y/, h: { set: new Set() } };
    // a: a leaf; b holds an object (its inner leaf is one); c's objects and e are reached twice; d holds
    // a key mergeDeep skips; f and h hold what mergeDeep would copy as {}; g is no plain object.
    expect(leafPaths(data)).toEqual([['a'], ['b', 'inner']]);
  });

  it('fails the build when a compromise release moved a line it edits', () => {
    const source = fs.readFileSync(path.join(compromiseDir(repo), MODEL_MODULE), 'utf8');
    expect(editedSource(MODEL_MODULE, source)).not.toContain('expandLexicon');
    const [[line]] = EDITS[MODEL_MODULE] as [[string]];
    expect(() => editedSource(MODEL_MODULE, source.replace(line, ''))).toThrow(/exactly once/);
    expect(() => editedSource(MODEL_MODULE, `${source}\n${line}`)).toThrow(/exactly once/);
  });
});
