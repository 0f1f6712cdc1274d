import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, makeWorld } from '../pipeline/world.js';

/**
 * The hostile-input corpus: malformed JSON and YAML, schema violations, dangling references,
 * expression sandbox escapes, prototype keys, path traversal in ids and episode names, huge and
 * binary files, bad CLI arguments. Every case must exit with its documented code, name the file
 * and the JSON pointer (or line:column) in a cataloged diagnostic, print no stack trace, and write
 * nothing at all (the whole repository, .git included, hashes the same before and after).
 */
type Mutation = (text: string) => string | Buffer;
interface WorldCase {
  name: string;
  file: string;
  mutate: Mutation;
  code: string;
  /** The pointer or line:column the diagnostic must carry. */
  where: string | RegExp;
  argv?: string[];
  exit?: number;
}

const json = (f: (v: any) => void): Mutation => (text) => {
  const v = JSON.parse(text);
  f(v);
  return JSON.stringify(v, null, 2);
};
/** Insert raw text right after the first `"characters": [` / `{` etc. (keys JSON.parse would swallow). */
const rawAfter = (anchor: string, insert: string): Mutation => (text) => {
  const i = text.indexOf(anchor);
  if (i < 0) throw new Error(`anchor ${anchor} not found`);
  return text.slice(0, i + anchor.length) + insert + text.slice(i + anchor.length);
};
const C = 'world/characters.json';
const R = 'world/relationships.json';
const A = 'world/assets.json';
const S = 'world/secrets.json';
const T = 'world/threads.json';
const W = 'world/world.json';
const K = 'world/constraints.json';
const O = 'operators/operators.json';
const G = 'seasons/season_01/season_goals.json';
const F = 'world/factions.json';
const constraint = (expr: string): Mutation => json((v) => v.constraints.push({ id: 'con_hostile', kind: 'hard', expr, message: 'hostile' }));
const prereq = (expr: string): Mutation => json((v) => v.operators[0].prereqs.push({ expr }));

const worldCases: WorldCase[] = [
  // Malformed JSON, empty, binary, huge, encodings.
  { name: 'truncated JSON', file: C, mutate: (t) => t.slice(0, 200), code: 'AUR1005', where: /\d+:\d+/ },
  { name: 'trailing comma', file: F, mutate: (t) => t.replace(/\s*\}\s*$/, ',\n}\n'), code: 'AUR1005', where: /\d+:\d+/ },
  { name: 'single quotes', file: T, mutate: (t) => t.replace('"format"', "'format'"), code: 'AUR1005', where: /\d+:\d+/ },
  { name: 'comment in JSON', file: S, mutate: (t) => '// secrets\n' + t, code: 'AUR1005', where: /1:1/ },
  { name: 'empty file', file: K, mutate: () => '', code: 'AUR1004', where: '' },
  { name: 'whitespace only', file: R, mutate: () => '   \n\t\n', code: 'AUR1004', where: '' },
  { name: 'binary file (invalid UTF-8)', file: A, mutate: () => Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x00, 0x01, 0x9c, 0x7d]), code: 'AUR1003', where: '' },
  { name: 'PNG bytes as a world file', file: W, mutate: () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 0xc3)]), code: 'AUR1003', where: '' },
  { name: 'UTF-16 encoded file', file: F, mutate: (t) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t, 'utf16le')]), code: 'AUR1003', where: '' },
  { name: 'huge file (11 MB)', file: S, mutate: (t) => t.replace('"secrets": [', `"padding": "${'x'.repeat(11 * 1024 * 1024)}", "secrets": [`), code: 'AUR1002', where: '' },
  { name: 'deeply nested arrays', file: T, mutate: (t) => t.replace('"threads": [', `"deep": ${'['.repeat(5000)}${']'.repeat(5000)}, "threads": [`), code: 'AUR10', where: '' },
  { name: 'format 2', file: C, mutate: json((v) => (v.format = 2)), code: 'AUR1007', where: '/format' },
  // Prototype keys.
  { name: '__proto__ key in a character', file: C, mutate: rawAfter('"characters": [\n    {', '"__proto__": {"polluted": true},'), code: 'AUR1006', where: /\d+:\d+/ },
  { name: 'constructor key at the top', file: F, mutate: rawAfter('{', '"constructor": {"prototype": {"x": 1}},'), code: 'AUR1006', where: /\d+:\d+/ },
  { name: 'prototype key in stats', file: C, mutate: rawAfter('"stats": {', '"prototype": 1,'), code: 'AUR1006', where: /\d+:\d+/ },
  { name: 'duplicate key', file: W, mutate: rawAfter('{', '"title": "A",'), code: 'AUR1009', where: /title/ },
  // Schema violations.
  { name: 'wrong type', file: C, mutate: json((v) => (v.characters[0].principal = 'yes')), code: 'AUR1011', where: '/characters/0/principal' },
  { name: 'missing required key', file: C, mutate: json((v) => delete v.characters[1].name), code: 'AUR1012', where: '/characters/1' },
  { name: 'unknown key', file: C, mutate: json((v) => (v.characters[0].superpower = 'flight')), code: 'AUR1010', where: '/characters/0' },
  { name: 'stat out of range', file: C, mutate: json((v) => (v.characters[0].stats.wealth = 150)), code: 'AUR1013', where: '/characters/0/stats/wealth' },
  { name: 'status not in the enum', file: C, mutate: json((v) => (v.characters[2].status = 'undead')), code: 'AUR1014', where: '/characters/2/status' },
  { name: 'relationship weight above 1', file: R, mutate: json((v) => (v.relationships[0].weights.loyalty = 1.5)), code: 'AUR1013', where: '/relationships/0/weights/loyalty' },
  { name: 'negative travel days', file: W, mutate: json((v) => (v.travel[0].days = -2)), code: 'AUR1013', where: '/travel/0/days' },
  { name: 'NaN-like number as string', file: A, mutate: json((v) => (v.cash_ledger[0].denarii = 'NaN')), code: 'AUR1011', where: '/cash_ledger/0/denarii' },
  { name: 'metric outside its range', file: W, mutate: json((v) => (Object.values(v.global)[0] as any).value = 999), code: 'AUR1025', where: /\/global\/\w+\/value/ },
  { name: 'metric min above max', file: W, mutate: json((v) => Object.assign(Object.values(v.global)[0] as any, { min: 10, max: 0, value: 5 })), code: 'AUR1026', where: /\/global\/\w+/ },
  { name: 'negative ledger balance', file: A, mutate: json((v) => (v.cash_ledger[0].denarii = -5)), code: 'AUR10', where: '/cash_ledger/0/denarii' },
  { name: 'dead character with intentions', file: C, mutate: json((v) => Object.assign(v.characters[0], { status: 'dead' })), code: 'AUR1024', where: '/characters/0/bdi/intentions' },
  { name: 'thread progress above 1', file: T, mutate: json((v) => (v.threads[0].progress = 2)), code: 'AUR1013', where: '/threads/0/progress' },
  // Path traversal and unsafe ids.
  { name: 'character id with ../', file: C, mutate: json((v) => (v.characters[0].id = '../../etc/passwd')), code: 'AUR10', where: '/characters/0/id' },
  { name: 'character id with a slash', file: C, mutate: json((v) => (v.characters[3].id = 'a/b')), code: 'AUR10', where: '/characters/3/id' },
  { name: 'location id with a backslash', file: W, mutate: json((v) => (v.locations[0].id = '..\\..\\x')), code: 'AUR10', where: '/locations/0/id' },
  { name: 'secret id with a NUL byte', file: S, mutate: json((v) => (v.secrets[0].id = 'sec\u0000x')), code: 'AUR10', where: '/secrets/0/id' },
  { name: 'faction id upper case', file: F, mutate: json((v) => (v.factions[0].id = 'Optimates')), code: 'AUR10', where: '/factions/0/id' },
  // Ids the pattern allows but that name members of every JavaScript object (AUR1033).
  ...['__proto__', 'constructor', 'prototype', 'tostring', 'valueof'].flatMap((id): WorldCase[] => [
    { name: `reserved character id ${id}`, file: C, mutate: json((v) => (v.characters[0].id = id)), code: 'AUR1033', where: '/characters/0/id' },
    { name: `reserved location id ${id}`, file: W, mutate: json((v) => (v.locations[0].id = id)), code: 'AUR1033', where: '/locations/0/id' },
  ]),
  // Dangling references and duplicates.
  { name: 'duplicate character id', file: C, mutate: json((v) => (v.characters[1].id = v.characters[0].id)), code: 'AUR1020', where: '/characters/1' },
  { name: 'unknown faction', file: C, mutate: json((v) => (v.characters[0].faction = 'illuminati')), code: 'AUR1022', where: '/characters/0/faction' },
  { name: 'unknown location', file: C, mutate: json((v) => (v.characters[0].location = 'atlantis')), code: 'AUR1022', where: '/characters/0/location' },
  { name: 'relationship to nobody', file: R, mutate: json((v) => (v.relationships[0].to = 'nobody')), code: 'AUR1022', where: '/relationships/0/to' },
  { name: 'relationship loop', file: R, mutate: json((v) => (v.relationships[0].to = v.relationships[0].from)), code: 'AUR1030', where: '/relationships/0' },
  { name: 'secret holder unknown', file: S, mutate: json((v) => v.secrets[0].holders.push('ghost')), code: 'AUR1022', where: /\/secrets\/0\/holders\/\d+/ },
  { name: 'thread stakeholder unknown', file: T, mutate: json((v) => v.threads[0].stakeholders.push('ghost')), code: 'AUR1022', where: /\/threads\/0\/stakeholders\/\d+/ },
  { name: 'ledger account of a missing owner', file: A, mutate: json((v) => v.cash_ledger.push({ id: 'ghost', owner: 'ghost', owner_kind: 'character', denarii: 1 })), code: 'AUR1028', where: /\/cash_ledger\/\d+\/owner/ },
  { name: 'travel edge loop', file: W, mutate: json((v) => (v.travel[0].to = v.travel[0].from)), code: 'AUR1029', where: '/travel/0' },
  { name: 'season goals name an unknown thread', file: G, mutate: json((v) => v.goals[0].threads.push('thr_nowhere')), code: 'AUR1022', where: /\/goals\/0\/threads\/\d+/ },
  { name: 'season goals in the wrong season', file: G, mutate: json((v) => (v.season = 7)), code: 'AUR1031', where: '/season' },
  // Expression sandbox escapes (constraints and operator prerequisites).
  { name: 'constructor.constructor escape', file: K, mutate: constraint("constructor.constructor('return process')().exit(1)"), code: 'AUR2', where: /\/constraints\/\d+\/expr/ },
  { name: '__proto__ member', file: K, mutate: constraint("world.__proto__.polluted == 1"), code: 'AUR2', where: /\/constraints\/\d+\/expr/ },
  { name: 'require() call', file: K, mutate: constraint("require('child_process').execSync('id')"), code: 'AUR2', where: /\/constraints\/\d+\/expr/ },
  { name: 'this / globalThis', file: K, mutate: constraint('this.process.env.ANTHROPIC_API_KEY != null'), code: 'AUR2', where: /\/constraints\/\d+\/expr/ },
  { name: 'eval in a prerequisite', file: O, mutate: prereq("eval('1+1') == 2"), code: 'AUR2', where: /\/operators\/0\/prereqs\/\d+\/expr/ },
  { name: 'globalThis in a prerequisite', file: O, mutate: prereq('globalThis.process.exit(0)'), code: 'AUR2', where: /\/operators\/0\/prereqs\/\d+\/expr/ },
  { name: 'char() prototype walk', file: K, mutate: constraint("char('x').constructor.name == 'Object'"), code: 'AUR2', where: /\/constraints\/\d+\/expr/ },
  { name: 'expression syntax error', file: K, mutate: constraint('world.global.unrest >= '), code: 'AUR2', where: /\/constraints\/\d+\/expr/ },
  { name: 'effect path into the prototype', file: O, mutate: json((v) => v.operators[0].effects.push({ path: '__proto__.polluted', op: 'set', value: 1 })), code: 'AUR', where: /\/operators\/0\/effects\/\d+/ },
  { name: 'effect path traversal', file: O, mutate: json((v) => v.operators[0].effects.push({ path: 'characters.../../etc.stats.wealth', op: 'add', value: 1 })), code: 'AUR', where: /\/operators\/0\/effects\/\d+/ },
];

interface ConfigCase {
  name: string;
  yaml: string;
  code: string;
}
const configCases: ConfigCase[] = [
  { name: 'malformed YAML', yaml: 'provider: [offline\nconcurrency: 2\n', code: 'AUR4' },
  { name: 'YAML tab indentation', yaml: 'budgets:\n\tper_scene: 2\n', code: 'AUR4' },
  { name: 'unknown config key', yaml: 'provider: offline\nturbo: true\n', code: 'AUR4' },
  { name: 'concurrency of the wrong type', yaml: 'concurrency: lots\n', code: 'AUR4' },
  { name: 'negative budget', yaml: 'budgets:\n  per_scene: -1\n', code: 'AUR4' },
  { name: '__proto__ key in YAML', yaml: '__proto__:\n  polluted: true\nprovider: offline\n', code: 'AUR4' },
  { name: 'YAML alias bomb', yaml: 'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n', code: 'AUR4' },
  { name: 'binary config', yaml: '\u0000\u0001\u0002provider', code: 'AUR4' },
];

const argCases: { name: string; argv: string[] }[] = [
  { name: 'unknown command', argv: ['frobnicate'] },
  { name: 'unknown flag', argv: ['validate', '--frob'] },
  { name: 'concurrency zero', argv: ['episode', 'run', '--concurrency', '0'] },
  { name: 'concurrency not a number', argv: ['episode', 'run', '--concurrency', 'eight'] },
  { name: 'negative season', argv: ['episode', 'run', '--season', '-1'] },
  { name: 'unknown provider id', argv: ['episode', 'run', '--provider', 'rm -rf /'] },
  { name: 'chaos above 1', argv: ['episode', 'run', '--chaos', '7'] },
  { name: 'recap of a traversal path', argv: ['recap', '../../../etc/passwd'] },
  { name: 'export of a traversal path', argv: ['export', 's01e01/../../x', '--format', 'md'] },
  { name: 'export to an unknown format', argv: ['export', 's01e01', '--format', 'exe'] },
  { name: 'branch name traversal', argv: ['branch', '../../evil', '--from', 's01e01'] },
  { name: 'rollback of a traversal path', argv: ['rollback', '../s01e01'] },
  { name: 'diff of nonsense refs', argv: ['diff', '--upload-pack=touch /tmp/pwned', 's01e01'] },
  { name: 'import with a non-year', argv: ['import', 'dprr', 'x', '--from', 'yesterday', '--to', '-44'] },
];

let w = '';
beforeAll(async () => {
  w = await makeWorld('hostile');
}, 120_000);
afterAll(cleanup);

/**
 * Every directory and every file under the root, .git and .aureus included, with a content hash.
 * Directories count too: a refused command must not even create an empty .aureus/ (commands check
 * their arguments and the world before they take the run lock).
 */
function treeHash(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      const rel = path.relative(root, p);
      // git status refreshes the stat cache in .git/index without changing what is staged: compare
      // the staged entries (below) rather than the cache file's bytes.
      if (rel === path.join('.git', 'index')) continue;
      if (e.isDirectory()) {
        out.push(`${rel}/`);
        walk(p);
      }
      else out.push(`${rel} ${createHash('sha256').update(fs.readFileSync(p)).digest('hex').slice(0, 16)}`);
    }
  };
  walk(root);
  out.push(execFileSync('git', ['ls-files', '--stage'], { cwd: root, encoding: 'utf8' }));
  return out;
}

const STACK = /\n\s+at [^\n]*\(?[^\n]*:\d+:\d+\)?/;

async function withMutation<T>(file: string, content: string | Buffer, fn: () => Promise<T>): Promise<T> {
  const abs = path.join(w, file);
  const original = fs.readFileSync(abs);
  fs.writeFileSync(abs, content);
  try {
    return await fn();
  } finally {
    fs.writeFileSync(abs, original);
  }
}

describe('hostile-input corpus', () => {
  it('has at least 50 cases', () => {
    expect(worldCases.length + configCases.length + argCases.length).toBeGreaterThanOrEqual(50);
  });

  it.each(worldCases)('world file: $name → exit 3 with $code at the file and pointer, nothing written', async (c) => {
    const original = fs.readFileSync(path.join(w, c.file), 'utf8');
    await withMutation(c.file, c.mutate(original), async () => {
      const before = treeHash(w);
      const r = await cli(c.argv ?? ['validate'], w);
      const out = r.stdout + r.stderr;
      expect(r.code, out).toBe(c.exit ?? 3);
      expect(out).toContain(c.file);
      expect(out).toMatch(new RegExp(c.code));
      if (c.where instanceof RegExp) expect(out).toMatch(c.where);
      else if (c.where) expect(out).toContain(c.where);
      expect(out).not.toMatch(STACK);
      expect(out).not.toMatch(/internal error/);
      expect(treeHash(w)).toEqual(before);
    });
  });

  it.each(configCases)('config: $name → exit 3 naming aureus.config.yaml, nothing written', async (c) => {
    await withMutation('aureus.config.yaml', c.yaml, async () => {
      const before = treeHash(w);
      for (const argv of [['validate'], ['episode', 'run']]) {
        const r = await cli(argv, w);
        const out = r.stdout + r.stderr;
        expect(r.code, `${argv.join(' ')}: ${out}`).toBe(3);
        expect(out).toContain('aureus.config.yaml');
        expect(out).toMatch(new RegExp(c.code));
        expect(out).not.toMatch(STACK);
      }
      expect(treeHash(w)).toEqual(before);
    });
  });

  it.each(argCases)('CLI arguments: $name → exit 2, no stack trace, nothing written', async (c) => {
    const before = treeHash(w);
    const r = await cli(c.argv, w);
    const out = r.stdout + r.stderr;
    expect(r.code, out).toBe(2);
    expect(out).not.toMatch(STACK);
    expect(out).not.toMatch(/internal error/);
    expect(treeHash(w)).toEqual(before);
    expect(fs.existsSync('/tmp/pwned')).toBe(false);
  });

  it('`episode run`, `season run` and `episode plan` refuse whatever `aureus validate` refuses (exit 3), even with --allow-dirty: nothing written, no .aureus/', async () => {
    const cases: { name: string; file: string; content: (t: string) => string | Buffer; code: RegExp }[] = [
      ...['constructor.constructor escape', '__proto__ member', 'char() prototype walk', 'eval in a prerequisite'].map((n) => {
        const c = worldCases.find((x) => x.name === n)!;
        return { name: n, file: c.file, content: c.mutate, code: /AUR2\d{3}/ };
      }),
      { name: 'empty style guide', file: 'style/style_guide.md', content: () => '', code: /AUR18\d\d/ },
    ];
    for (const c of cases) {
      await withMutation(c.file, c.content(fs.readFileSync(path.join(w, c.file), 'utf8')), async () => {
        expect((await cli(['validate'], w)).code, c.name).toBe(3);
        for (const argv of [['episode', 'run', '--allow-dirty'], ['season', 'run', '--allow-dirty', '--count', '2'], ['episode', 'plan']]) {
          fs.rmSync(path.join(w, '.aureus'), { recursive: true, force: true });
          const before = treeHash(w);
          const r = await cli(argv, w);
          const out = r.stdout + r.stderr;
          expect(r.code, `${c.name}, ${argv.join(' ')}: ${out}`).toBe(3);
          expect(out).toContain(c.file);
          expect(out).toMatch(c.code);
          expect(out).not.toMatch(STACK);
          expect(treeHash(w)).toEqual(before);
          expect(fs.existsSync(path.join(w, '.aureus')), `${c.name}, ${argv.join(' ')}`).toBe(false);
        }
      });
    }
  });

  it('a broken world stops `episode run` before anything is written (exit 3)', async () => {
    for (const c of ['truncated JSON', '__proto__ key in a character', 'unknown faction', 'huge file (11 MB)', 'binary file (invalid UTF-8)'].map((n) => worldCases.find((x) => x.name === n)!)) {
      const original = fs.readFileSync(path.join(w, c.file), 'utf8');
      await withMutation(c.file, c.mutate(original), async () => {
        const before = treeHash(w);
        const r = await cli(['episode', 'run', '--allow-dirty'], w);
        expect(r.code, `${c.name}: ${r.stdout}${r.stderr}`).toBe(3);
        expect(r.stdout + r.stderr).toContain(c.file);
        expect(treeHash(w)).toEqual(before);
      });
    }
  });
});
