import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { builtCli, cleanup, cli, copyRepo, git, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * Crash and resume, adversarially: `aureus episode run` is SIGKILLed again and again — at every
 * named point over planning, the scenes, stage H and the commit transaction (test hook
 * AUREUS_TEST_KILL_AT), and at seeded random picks of those points and of the scene indices — and
 * each time simply re-run. After every kill the world files are valid and `git fsck` is clean; at
 * the end the committed tree is byte-identical to an uninterrupted run's. No assertion depends on
 * timing: every kill is an event of the run, so the file holds on a loaded 2-core CI machine.
 */
let pristine = '';
let baselineTree = '';
/** The uninterrupted run's scene ids (SC01…), for the seeded kill points. */
let sceneIds: string[] = [];

beforeAll(async () => {
  if (!builtCli()) return;
  pristine = await makeWorld('rel-crash-pristine');
  const base = copyRepo(pristine, 'rel-crash-base');
  // The same built CLI as the killed runs, so the comparison is code against the same code.
  const r = await spawnCli(['episode', 'run', '--json'], base);
  if (r.code !== 0) throw new Error(`baseline run failed: ${r.stderr}`);
  baselineTree = git(base, 'rev-parse', 'HEAD^{tree}');
  const plan = JSON.parse(fs.readFileSync(path.join(base, 'seasons/season_01/episode_01/episode_plan.json'), 'utf8')) as { scenes: { id: string }[] };
  sceneIds = plan.scenes.map((x) => x.id);
}, 300_000);
afterAll(cleanup);

function fsckClean(w: string): void {
  // --strict checks every object; any problem is printed and makes the exit code non-zero.
  git(w, 'fsck', '--strict', '--no-progress');
}

async function assertConsistent(w: string, label: string): Promise<void> {
  fsckClean(w);
  const v = await cli(['validate'], w);
  expect(v.code, `${label}: validate\n${v.stdout}${v.stderr}`).toBe(0);
}

describe.runIf(builtCli())('crash and resume (reliability)', () => {
  it('SIGKILL at 11 named points over stages A–H and the commit, re-run each time: same tree, valid files, fsck clean', async () => {
    const w = copyRepo(pristine, 'rel-crash-named');
    const points = ['planning', 'scene-SC01', 'scene-SC04', 'scene-SC08', 'scene-SC12', 'scene-SC16', 'scene-SC18', 'scenes', 'stage-h', 'commit-staged', 'commit-applied', 'commit-committed'];
    const fired: string[] = [];
    for (const at of points) {
      // Concurrency 1: scenes checkpoint in order, so every scene point is still ahead of the run.
      const r = await spawnCli(['episode', 'run', '--concurrency', '1'], w, { AUREUS_TEST_KILL_AT: at });
      if (r.signal === 'SIGKILL') fired.push(at);
      else expect(r.code, `${at}: ${r.stderr.slice(-500)}`).toBe(0);
      await assertConsistent(w, `after kill at ${at}`);
    }
    expect(fired.length).toBeGreaterThanOrEqual(10);
    const r = await spawnCli(['episode', 'run', '--json'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(git(w, 'rev-parse', 'HEAD^{tree}')).toBe(baselineTree);
    expect(git(w, 'tag', '--list', 's01e01')).toBe('s01e01');
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('2');
    expect(git(w, 'status', '--porcelain', '--', 'world', 'operators', 'seasons')).toBe('');
    await assertConsistent(w, 'final');
  }, 600_000);

  it('SIGKILL at seeded random points of every stage (planning, scenes, stage H, the commit steps), re-run each time: same tree as an uninterrupted run', async () => {
    const w = copyRepo(pristine, 'rel-crash-random');
    const rng = new Rng('reliability/crash-random');
    const scene = () => `scene-${rng.pick(sceneIds)}`;
    // Seeded picks, one per round, in stage order so that each is still ahead of the run: the
    // kills are events (the hook fires right after that checkpoint is durable), never instants,
    // so every one of them fires however loaded the machine is. A scene point fires in any run
    // that writes scenes (a resumed run re-saves a replayed scene's checkpoint); a commit step
    // fires in the run that makes or rolls forward the commit.
    const firstCommit = rng.pick(['commit-staged', 'commit-applied']);
    const points = [
      rng.pick(['planning', scene()]),
      scene(),
      scene(),
      rng.pick(['scenes', 'stage-h']),
      firstCommit,
      firstCommit === 'commit-staged' ? rng.pick(['commit-applied', 'commit-committed']) : 'commit-committed',
    ];
    for (const [round, at] of points.entries()) {
      const r = await spawnCli(['episode', 'run', '--json'], w, { AUREUS_TEST_KILL_AT: at });
      expect(r.signal, `round ${round}, kill at ${at}: exit ${r.code}\n${r.stderr.slice(-500)}`).toBe('SIGKILL');
      expect(git(w, 'rev-list', '--count', 'HEAD'), `round ${round}`).toBe(at === 'commit-committed' ? '2' : '1');
      await assertConsistent(w, `round ${round}, kill at ${at}`);
    }
    // One run left alone finishes what the kills left (here: the tag of a commit already made).
    const r = await spawnCli(['episode', 'run', '--json'], w);
    expect(r.code, r.stderr.slice(-500)).toBe(0);
    expect(JSON.parse(r.stdout).tag).toBe('s01e01');
    expect(git(w, 'rev-parse', 'HEAD^{tree}')).toBe(baselineTree);
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('2');
    expect(git(w, 'tag', '--list', 's01e01')).toBe('s01e01');
    expect(fs.existsSync(path.join(w, '.aureus/lock'))).toBe(false);
    await assertConsistent(w, 'final');
  }, 600_000);
});
