import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, copyRepo, git, makeWorld, spawnCli } from './world.js';

/**
 * `episode run`'s planning checkpoint holds the committed planning files themselves
 * (pipeline/planning-checkpoint.ts), the stage H checkpoint names them instead of holding them a
 * second time, and with a verification worker their blobs are stored while the scenes are written
 * (pipeline/early-blobs.ts). Spawns the built CLI, as the other kill-and-resume tests do.
 */
let pristine = '';
let baselineTree = '';

beforeAll(async () => {
  pristine = await makeWorld('planning-cp-pristine');
  if (!builtCli()) return;
  const base = copyRepo(pristine, 'planning-cp-base');
  const r = await spawnCli(['episode', 'run', '--json'], base, { AUREUS_WORKERS: '0' });
  if (r.code !== 0) throw new Error(`baseline run failed: ${r.stderr}`);
  baselineTree = git(base, 'rev-parse', 'HEAD^{tree}');
}, 300_000);
afterAll(cleanup);

const runDirOf = (w: string) => {
  const runs = path.join(w, '.aureus/runs');
  const [name] = fs.readdirSync(runs);
  return path.join(runs, name!);
};
const EPISODE = 'seasons/season_01/episode_01';

/** The planning files of a run folder's checkpoint: path in the episode folder → text. */
function planningTexts(runDir: string): Map<string, string> {
  const index = JSON.parse(fs.readFileSync(path.join(runDir, 'checkpoints/planning.json'), 'utf8'));
  const names: string[] = [index.context, index.proposals, index.plan, ...index.packets];
  return new Map(names.map((n) => [n, fs.readFileSync(path.join(runDir, 'checkpoints/planning', n), 'utf8')]));
}

/** Whether the repository's object store holds a blob of exactly these bytes. */
function hasBlob(w: string, text: string): boolean {
  const sha = execFileSync('git', ['hash-object', '--stdin'], { cwd: w, input: text, encoding: 'utf8' }).trim();
  try {
    execFileSync('git', ['cat-file', '-e', sha], { cwd: w, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.runIf(builtCli())('the planning checkpoint as the committed planning files', () => {
  it('is committed byte for byte, and stage H checkpoints only the files it adds', async () => {
    const w = copyRepo(pristine, 'planning-cp-files');
    const r = await spawnCli(['episode', 'run'], w, { AUREUS_WORKERS: '0', AUREUS_TEST_KILL_AT: 'stage-h' });
    expect(r.signal).toBe('SIGKILL');
    const runDir = runDirOf(w);
    const texts = planningTexts(runDir);
    expect([...texts.keys()].slice(0, 3)).toEqual(['episode_context.json', 'agent_proposals.json', 'episode_plan.json']);
    expect(texts.size).toBeGreaterThan(3);
    const h = JSON.parse(fs.readFileSync(path.join(runDir, 'checkpoints/stage-h.json'), 'utf8'));
    expect([...h.planned].sort()).toEqual([...texts.keys()].map((n) => `${EPISODE}/${n}`).sort());
    for (const rel of h.planned) expect(h.files[rel]).toBeUndefined();
    expect(Object.keys(h.files)).toContain(`${EPISODE}/episode_script.md`);

    const resumed = await spawnCli(['episode', 'run', '--json'], w, { AUREUS_WORKERS: '0' });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(git(w, 'rev-parse', 'HEAD^{tree}')).toBe(baselineTree);
    for (const [name, text] of texts) expect(git(w, 'show', `HEAD:${EPISODE}/${name}`) + '\n').toBe(text);
  }, 300_000);

  it('a planning checkpoint of an older aureus (the four parts nested in planning.json) still resumes to the same tree', async () => {
    const w = copyRepo(pristine, 'planning-cp-old');
    const r = await spawnCli(['episode', 'run'], w, { AUREUS_WORKERS: '0', AUREUS_TEST_KILL_AT: 'planning' });
    expect(r.signal).toBe('SIGKILL');
    const runDir = runDirOf(w);
    const texts = [...planningTexts(runDir).values()].map((t) => JSON.parse(t));
    const old = { context: texts[0], proposals: texts[1], plan: texts[2], packets: texts.slice(3) };
    fs.rmSync(path.join(runDir, 'checkpoints/planning'), { recursive: true });
    fs.writeFileSync(path.join(runDir, 'checkpoints/planning.json'), JSON.stringify(old, null, 2) + '\n');

    const resumed = await spawnCli(['episode', 'run', '--json'], w, { AUREUS_WORKERS: '0' });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout).resumed.planning).toBe(true);
    expect(git(w, 'rev-parse', 'HEAD^{tree}')).toBe(baselineTree);
  }, 300_000);

  it('with a verification worker, the planning files are stored as blobs during the scenes; index, refs and world untouched', async () => {
    const w = copyRepo(pristine, 'planning-cp-blobs');
    const head = git(w, 'rev-parse', 'HEAD');
    const index = fs.readFileSync(path.join(w, '.git/index'));
    const r = await spawnCli(['episode', 'run'], w, { AUREUS_WORKERS: '1', AUREUS_TEST_KILL_AT: 'planning-blobs' });
    expect(r.signal, r.stderr).toBe('SIGKILL');
    const texts = [...planningTexts(runDirOf(w)).values()];
    for (const t of texts) expect(hasBlob(w, t)).toBe(true);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(fs.readFileSync(path.join(w, '.git/index')).equals(index)).toBe(true);
    expect(git(w, 'status', '--porcelain', '--', 'world', 'operators', 'seasons')).toBe('');
    expect(git(w, 'tag', '--list')).toBe('');

    const resumed = await spawnCli(['episode', 'run', '--json'], w, { AUREUS_WORKERS: '1' });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(git(w, 'rev-parse', 'HEAD^{tree}')).toBe(baselineTree);
  }, 300_000);

  it('without a worker nothing is stored before the commit (this thread verifies the scenes)', async () => {
    const w = copyRepo(pristine, 'planning-cp-noblobs');
    const r = await spawnCli(['episode', 'run'], w, { AUREUS_WORKERS: '0', AUREUS_TEST_KILL_AT: 'scenes' });
    expect(r.signal).toBe('SIGKILL');
    const plan = planningTexts(runDirOf(w)).get('episode_plan.json')!;
    expect(hasBlob(w, plan)).toBe(false);
  }, 300_000);
});

describe('a stage H checkpoint that names its planning files oddly', () => {
  it('is redone (null), not a crash, when `planned` is not a list; a listed path the planning checkpoint lacks is redone too', async () => {
    const { Checkpoints } = await import('../../src/pipeline/checkpoint.js');
    const { loadStageH } = await import('../../src/pipeline/planning-checkpoint.js');
    const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'aureus-stageh-'));
    try {
      const cp = new Checkpoints(dir);
      const files = { [`${EPISODE}/episode_script.md`]: 'INT. CURIA - DAY\n' };
      // The rest of a stage H checkpoint, as a run writes it (a checkpoint of another shape is ignored).
      const rest = { message: 'S01E01: T\n', title: 'T', provider: 'offline', totals: { input: 0, output: 0, cache_read: 0, cache_write: 0, cost_usd: 0 }, report: { scenes: 1, approved: 1, attempts: 1, repairs: 0, manual_review: 0, hard: 0, soft: 0 } };
      fs.mkdirSync(path.dirname(cp.file('stage-h')), { recursive: true });
      fs.writeFileSync(cp.file('stage-h'), JSON.stringify({ ...rest, files, planned: 5 }));
      expect(loadStageH(cp, {})).toBeNull();
      fs.writeFileSync(cp.file('stage-h'), JSON.stringify({ ...rest, files, planned: [`${EPISODE}/episode_plan.json`] }));
      expect(loadStageH(cp, {})).toBeNull();
      const plan = { [`${EPISODE}/episode_plan.json`]: '{}\n' };
      expect(loadStageH(cp, plan)?.files).toEqual({ ...plan, ...files });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
