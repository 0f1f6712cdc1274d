import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, cli, copyRepo, git, makeWorld, spawnCli } from './world.js';

/**
 * Crash safety: `aureus episode run` killed with SIGKILL at each checkpoint and at each step of
 * the commit transaction (test-only hook AUREUS_TEST_KILL_AT), and interrupted with Ctrl-C, then
 * re-run: the committed tree is exactly the uninterrupted run's, and no finished LLM call is
 * repeated. Spawns the built CLI (`npm test` builds first).
 */
let pristine = '';
let baselineTree = '';

beforeAll(async () => {
  pristine = await makeWorld('resume-pristine');
  const base = copyRepo(pristine, 'resume-base');
  if (!builtCli()) return;
  // The uninterrupted run goes through the same built CLI as the interrupted ones.
  const r = await spawnCli(['episode', 'run', '--json'], base);
  if (r.code !== 0) throw new Error(`baseline run failed: ${r.stderr}`);
  baselineTree = git(base, 'rev-parse', 'HEAD^{tree}');
}, 300_000);
afterAll(cleanup);

const runsOf = (w: string) => {
  try {
    return fs.readdirSync(path.join(w, '.aureus/runs'));
  } catch {
    return [];
  }
};

describe.runIf(builtCli())('resume after a crash', () => {
  it('killed at every stage boundary and commit step, then resumed, commits the same tree', async () => {
    const w = copyRepo(pristine, 'resume-chain');
    const head0 = git(w, 'rev-parse', 'HEAD');
    const worldClean = () => git(w, 'status', '--porcelain', '--', 'world', 'operators', 'seasons');

    // Killed right after the planning checkpoint: nothing outside .aureus changed.
    let r = await spawnCli(['episode', 'run'], w, { AUREUS_TEST_KILL_AT: 'planning' });
    expect(r.signal).toBe('SIGKILL');
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head0);
    expect(worldClean()).toBe('');
    const [runName] = runsOf(w);
    const runDir = path.join(w, '.aureus/runs', runName);
    expect(fs.existsSync(path.join(runDir, 'checkpoints/planning.json'))).toBe(true);
    // The lock of the killed process is stale and does not block the next run.
    expect(fs.existsSync(path.join(w, '.aureus/lock'))).toBe(true);

    // Ctrl-C while the scenes are written: exit 130, world and git untouched.
    // The process sends itself a real SIGINT as the scenes start (a test hook): an interrupt sent from
    // here when a scene's checkpoint appears lands after every draft of a fast offline run, since a
    // round's checkpoints are written once its drafts are done.
    r = await spawnCli(['episode', 'run', '--concurrency', '1'], w, { AUREUS_TEST_SIGINT_AT: 'scenes-start' });
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('AUR6008');
    // An episode run's hint: true here (a season's speaks of the episode it stopped in, season-interrupt.test.ts).
    expect(r.stderr).toContain('hint: nothing was committed; re-run the same command (or add --resume) to continue where it stopped');
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head0);
    expect(worldClean()).toBe('');

    // Killed after a later scene, after stage H, and at each step of the commit. The later scene is
    // the first one Ctrl-C left unwritten: the handler may let a scene already in flight finish.
    const done = new Set(fs.readdirSync(path.join(runDir, 'checkpoints')).map((f) => f.replace(/\.json$/, '')));
    const later = ['SC03', 'SC04', 'SC05', 'SC06', 'SC07', 'SC08', 'SC09', 'SC10', 'SC11', 'SC12', 'SC13', 'SC14', 'SC15', 'SC16']
      .map((id) => `scene-${id}`)
      .find((c) => !done.has(c));
    expect(later, 'Ctrl-C as the scenes start should leave scenes to do').toBeDefined();
    for (const at of [later!, 'stage-h', 'commit-staged', 'commit-applied', 'commit-committed']) {
      r = await spawnCli(['episode', 'run'], w, { AUREUS_TEST_KILL_AT: at });
      expect(r.signal, `${at}: ${r.stderr.slice(-400)}`).toBe('SIGKILL');
      if (at === 'commit-applied') {
        // World files written, not committed: the journal makes the next run roll forward.
        expect(worldClean()).not.toBe('');
        expect(git(w, 'rev-parse', 'HEAD')).toBe(head0);
      }
    }
    // Committed but not tagged yet.
    expect(git(w, 'rev-parse', 'HEAD')).not.toBe(head0);
    expect(git(w, 'tag', '--list', 's01e01')).toBe('');
    const calls = fs.readdirSync(path.join(runDir, 'calls')).length;
    const logLines = fs.readFileSync(path.join(runDir, 'run_log.jsonl'), 'utf8').split('\n').filter(Boolean);
    // No finished call was made twice: only calls cut short by a kill or Ctrl-C were redone.
    expect(logLines.length).toBeLessThanOrEqual(calls + 8);

    // The plain re-run finishes the interrupted commit.
    r = await spawnCli(['episode', 'run', '--json'], w);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.status).toBe('recovered');
    expect(s.tag).toBe('s01e01');
    expect(git(w, 'rev-parse', 'HEAD^{tree}')).toBe(baselineTree);
    expect(git(w, 'rev-parse', 's01e01^{commit}')).toBe(git(w, 'rev-parse', 'HEAD'));
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('2');
    expect(runsOf(w)).toEqual([]);
    expect(worldClean()).toBe('');
    expect((await cli(['validate'], w)).code).toBe(0);
  }, 600_000);

  it('--resume after a kill in the scenes gives the same tree, at another concurrency', async () => {
    const w = copyRepo(pristine, 'resume-flag');
    let r = await spawnCli(['episode', 'run', '--concurrency', '2'], w, { AUREUS_TEST_KILL_AT: 'scene-SC05' });
    expect(r.signal).toBe('SIGKILL');
    r = await spawnCli(['episode', 'run', '--resume', '--json', '--concurrency', '8'], w);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.status).toBe('committed');
    expect(s.resumed.planning).toBe(true);
    expect(s.resumed.calls_replayed).toBeGreaterThan(5);
    expect(git(w, 'rev-parse', 'HEAD^{tree}')).toBe(baselineTree);
  }, 300_000);
});
