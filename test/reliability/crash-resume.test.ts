import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { builtCli, cleanup, cli, copyRepo, git, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * Crash and resume, adversarially: `aureus episode run` is SIGKILLed again and again — at eleven
 * named points spread over planning, the scenes, stage H and the commit transaction (test hook
 * AUREUS_TEST_KILL_AT), and at seeded random instants that fall wherever they fall — and each
 * time simply re-run. After every kill the world files are schema-valid and `git fsck` is clean;
 * at the end the committed tree is byte-identical to an uninterrupted run's.
 */
let pristine = '';
let baselineTree = '';

beforeAll(async () => {
  if (!builtCli()) return;
  pristine = await makeWorld('rel-crash-pristine');
  const base = copyRepo(pristine, 'rel-crash-base');
  // The same built CLI as the killed runs, so the comparison is code against the same code.
  const r = await spawnCli(['episode', 'run', '--json'], base);
  if (r.code !== 0) throw new Error(`baseline run failed: ${r.stderr}`);
  baselineTree = git(base, 'rev-parse', 'HEAD^{tree}');
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

  it('SIGKILL at seeded random instants until the episode is committed: same tree as an uninterrupted run', async () => {
    const w = copyRepo(pristine, 'rel-crash-random');
    const rng = new Rng('reliability/crash-random');
    let kills = 0;
    let done = false;
    // Six kills at seeded instants over a widening window (start-up, planning, scenes, commit),
    // then one run left alone, which must finish what the six left.
    for (let round = 0; round < 7 && !done; round++) {
      let pid = 0;
      const running = spawnCli(['episode', 'run', '--json'], w, {}, (p) => (pid = p));
      const delay = 200 + Math.floor(rng.next() * 1200 * (round + 1));
      const timer =
        round < 6
          ? setTimeout(() => {
              try {
                process.kill(pid, 'SIGKILL');
              } catch {
                /* already finished */
              }
            }, delay)
          : undefined;
      const r = await running;
      clearTimeout(timer);
      if (r.signal === 'SIGKILL') kills++;
      else {
        expect(r.code, r.stderr.slice(-500)).toBe(0);
        done = JSON.parse(r.stdout).tag === 's01e01';
      }
      await assertConsistent(w, `round ${round}`);
    }
    expect(done).toBe(true);
    expect(kills).toBeGreaterThanOrEqual(3);
    expect(git(w, 'rev-parse', 'HEAD^{tree}')).toBe(baselineTree);
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('2');
    expect(fs.existsSync(path.join(w, '.aureus/lock'))).toBe(false);
  }, 600_000);
});
