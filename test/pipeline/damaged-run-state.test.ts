import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, builtCli, cleanup, cli, copyRepo, git, makeWorld, spawnCli, tempDir } from './world.js';
import { STACK_TRACE } from '../cli/helpers.js';

/**
 * A run folder's own files damaged after a kill: valid JSON of the wrong shape (a hand edit, a disk
 * error, an older aureus), or a file this user may not read. The checkpoints and the call journal
 * are caches: a damaged one is ignored with a warning naming it and the work redone, the commit the
 * same as an uninterrupted run's. The commit journal guards the world's consistency: a damaged one
 * is refused (exit 3, AUR6099, each problem at its line:column and pointer), world and git untouched.
 * An unreadable file is the file-system refusal (exit 11, AUR1053 naming it). Never an internal error.
 */
let pristine = '';
let wholeTree = '';
const killed: Record<string, string> = {};

beforeAll(async () => {
  if (!builtCli()) return;
  pristine = await makeWorld('damaged-state');
  const whole = copyRepo(pristine, 'damaged-whole');
  const r = await spawnCli(['episode', 'run', '--seed', '7'], whole);
  if (r.code !== 0) throw new Error(r.stderr);
  wholeTree = git(whole, 'rev-parse', 'HEAD^{tree}');
  for (const at of ['commit-staged', 'stage-h', 'scene-SC05']) {
    const w = copyRepo(pristine, `damaged-${at}`);
    const k = await spawnCli(['episode', 'run', '--seed', '7'], w, { AUREUS_TEST_KILL_AT: at });
    if (k.signal !== 'SIGKILL') throw new Error(`not killed at ${at}: ${k.stderr}`);
    killed[at] = w;
  }
}, 300_000);
afterAll(cleanup);

const runDir = (w: string) => {
  const runs = path.join(w, '.aureus/runs');
  return path.join(runs, fs.readdirSync(runs)[0]!);
};
const runRel = (w: string, file: string) => path.relative(w, path.join(runDir(w), file)).split(path.sep).join('/');

describe.runIf(builtCli())('a damaged commit journal is refused, nothing changed', () => {
  const shapes: [string, string, RegExp][] = [
    ['wrong field types', '{"format":1,"episode":5,"tag":"s01e01","message":"m","head_before":null,"hashes":"x"}', /1:\d+ \/episode: error AUR1011 wrong type: expected a string, got integer 5/],
    ['an array', '[]', /1:1 \/: error AUR1011 wrong type: expected an object, got array/],
    ['not JSON', '{"format":1,', /error AUR1005 invalid JSON/],
  ];
  for (const [what, text, problem] of shapes) {
    it(`${what}: status and episode run exit 3 with AUR6099 naming the journal; HEAD, tags and files as they were`, async () => {
      const w = copyRepo(killed['commit-staged']!, 'damaged-journal');
      fs.writeFileSync(path.join(runDir(w), 'commit.json'), text);
      const head = git(w, 'rev-parse', 'HEAD');
      const before = git(w, 'status', '--porcelain');
      const rel = runRel(w, 'commit.json');
      for (const args of [['status'], ['episode', 'run', '--seed', '7']]) {
        const r = await cli(args, w);
        expect(r.code, r.stderr).toBe(3);
        expect(r.stderr).toContain(`error AUR6099 the commit journal ${rel} is damaged`);
        expect(r.stderr).toContain(`delete ${path.posix.dirname(rel)}`);
        expect(r.stderr).toMatch(problem);
        expect(r.stderr).not.toMatch(STACK_TRACE);
      }
      expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
      expect(git(w, 'tag', '--list')).toBe('');
      expect(git(w, 'status', '--porcelain')).toBe(before);
      expect(fs.readFileSync(path.join(runDir(w), 'commit.json'), 'utf8')).toBe(text);
    }, 120_000);
  }
});

describe.runIf(builtCli())('a damaged checkpoint or call journal entry is ignored with a warning and redone', () => {
  // The planning texts are the files stage H commits: one of another shape was committed as it stood (a context {}).
  const damaged: [string, string, string][] = [
    ['scenes.json', '{}', '1:1'],
    ['stage-h.json', '{"files":[]}', '1:1'],
    ['planning.json', '7', '1:1'],
    ['planning/episode_plan.json', '{}', 'missing required key'],
    ['planning/episode_context.json', '{}', 'missing required key'],
    // Cut short by a power cut or a hand edit: not JSON at all (before, planning was redone without a word).
    ['planning/episode_plan.json', '{"episode": "s01', 'not JSON'],
  ];
  for (const [name, text, detail] of damaged) {
    it(`checkpoints/${name} ${JSON.stringify(text)}: AUR6098 names it, the run commits the uninterrupted run's tree`, async () => {
      const w = copyRepo(killed['stage-h']!, `damaged-cp-${name.replace(/\W/g, '-')}`);
      fs.writeFileSync(path.join(runDir(w), 'checkpoints', name), text);
      const rel = runRel(w, `checkpoints/${name}`);
      const r = await cli(['episode', 'run', '--seed', '7'], w);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`warning AUR6098 ignored the damaged checkpoint ${rel} (${detail}`);
      expect(r.stderr).not.toMatch(STACK_TRACE);
      expect(git(w, 'rev-parse', 'HEAD^{tree}')).toBe(wholeTree);
    }, 120_000);
  }

  it('call journal entries of the wrong shape: AUR6097 names each, the calls are asked again, the same tree', async () => {
    const w = copyRepo(killed['scene-SC05']!, 'damaged-calls');
    const calls = path.join(runDir(w), 'calls');
    const names = fs.readdirSync(calls).filter((n) => /^[0-9a-f]{32}\.json$/.test(n));
    expect(names.length).toBeGreaterThan(3);
    const damaged = names.slice(0, 3);
    fs.writeFileSync(path.join(calls, damaged[0]!), '{"text":5}');
    fs.writeFileSync(path.join(calls, damaged[1]!), 'null');
    fs.writeFileSync(path.join(calls, damaged[2]!), '[]');
    const rels = damaged.map((n) => runRel(w, `calls/${n}`));
    const r = await cli(['episode', 'run', '--seed', '7'], w);
    expect(r.code, r.stderr).toBe(0);
    for (const rel of rels) expect(r.stderr).toContain(`warning AUR6097 ignored the damaged call journal entry ${rel} (1:1`);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(git(w, 'rev-parse', 'HEAD^{tree}')).toBe(wholeTree);
  }, 120_000);
});

const setpriv = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;

/** The built CLI as nobody (uid 65534) in a world nobody owns, git trusting it. */
function asNobody(w: string, args: string[]): { code: number | null; stderr: string } {
  const home = tempDir('nobody-home');
  fs.chmodSync(home, 0o755);
  fs.writeFileSync(path.join(home, '.gitconfig'), '[safe]\n\tdirectory = *\n');
  const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'env', `HOME=${home}`, 'NO_COLOR=1', process.execPath, BIN, '-C', w, ...args], { encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr };
}

describe.runIf(builtCli() && setpriv)('a run folder file this user may not read (chmod 000)', () => {
  const cases: [string, string, (w: string) => string][] = [
    ['a call journal entry', 'scene-SC05', (w) => path.join(runDir(w), 'calls', fs.readdirSync(path.join(runDir(w), 'calls')).find((n) => /^[0-9a-f]{32}\.json$/.test(n))!)],
    ['the planning checkpoint', 'scene-SC05', (w) => path.join(runDir(w), 'checkpoints/planning.json')],
    ['the commit journal', 'commit-staged', (w) => path.join(runDir(w), 'commit.json')],
  ];
  for (const [what, at, fileOf] of cases) {
    it(`${what}: episode run exits 11 with AUR1053 naming it and the chmod, nothing committed`, () => {
      const w = copyRepo(killed[at]!, 'damaged-perm');
      const head = git(w, 'rev-parse', 'HEAD');
      for (const d of [os.tmpdir(), path.dirname(path.dirname(w)), path.dirname(w)]) fs.chmodSync(d, fs.statSync(d).mode | 0o011);
      spawnSync('chown', ['-R', '65534:65534', w]);
      const file = fileOf(w);
      fs.chmodSync(file, 0o000);
      const r = asNobody(w, ['episode', 'run', '--seed', '7']);
      expect(r.code, r.stderr).toBe(11);
      expect(r.stderr).toContain(`error AUR1053 cannot write ${file}: permission denied: this user may not read it`);
      expect(r.stderr).toContain(`chmod u+rw ${file}`);
      expect(r.stderr).not.toMatch(STACK_TRACE);
      expect(fs.readFileSync(path.join(w, '.git/HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
      expect(fs.readFileSync(path.join(w, '.git/refs/heads/main'), 'utf8').trim()).toBe(head);
    }, 120_000);
  }
});
