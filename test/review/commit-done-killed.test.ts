import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, copyRepo, git, spawnCli } from '../pipeline/world.js';
import { stagedEpisode, type Staged } from './staged-episode.js';

/**
 * `episode commit` killed once its commit is made and tagged and its journal removed, before the
 * review record was: the record stayed, so `status` said the episode was staged and offered
 * `episode commit`, which refused it as already committed (AUR6009, with a hint to roll it back), and
 * `episode run`/`season run` refused to go on (AUR6102). The transaction now clears the record before
 * its journal; a record left so by an older aureus is read as finished: `status` shows nothing
 * staged, `episode commit` reports the commit (exit 0) and the runs go on, removing what was left.
 * Killed after the record was cleared too, `episode commit` run again said "nothing is staged"
 * (AUR6009, exit 2); it now says the episode is committed, with its tag (AUR6117, exit 0).
 */
const REVIEW = '.aureus/review.json';
let s: Staged;
let runRel = '';
beforeAll(async () => {
  s = await stagedEpisode('commit-done-killed', ['--seed', '7']);
  runRel = path.relative(s.root, s.run);
}, 240_000);
afterAll(cleanup);

type Status = { staged_for_review: unknown };
async function staged(w: string): Promise<unknown> {
  const r = await spawnCli(['status', '--json'], w);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Status).staged_for_review;
}

/** A world whose episode is committed, with the record and part of the run folder a kill left (no journal). */
async function leftBehind(label: string): Promise<string> {
  const w = copyRepo(s.root, label);
  const record = fs.readFileSync(path.join(w, REVIEW), 'utf8');
  const checkpoints = path.join(w, runRel, 'checkpoints');
  const kept = path.join(path.dirname(w), 'checkpoints.kept');
  fs.cpSync(checkpoints, kept, { recursive: true });
  const r = await spawnCli(['episode', 'commit'], w);
  expect(r.code, r.stderr).toBe(0);
  fs.writeFileSync(path.join(w, REVIEW), record);
  fs.mkdirSync(path.join(w, runRel), { recursive: true });
  fs.renameSync(kept, checkpoints);
  return w;
}

describe.skipIf(!builtCli())('episode commit killed after its journal is removed', () => {
  it('killed there: nothing is left staged; `episode commit` again names the commit, without a rollback hint', async () => {
    const w = copyRepo(s.root, 'commit-done-killed');
    const killed = await spawnCli(['episode', 'commit'], w, { AUREUS_TEST_KILL_AT: 'commit-done' });
    expect(killed.signal, killed.stderr.slice(-400)).toBe('SIGKILL');
    expect(git(w, 'tag', '--list')).toBe('s01e01');
    expect(fs.existsSync(path.join(w, REVIEW))).toBe(false);
    expect(await staged(w)).toBeNull();
    // Run again, as a user re-runs an interrupted command: the commit it made is said, exit 0.
    const head = git(w, 'rev-parse', 'HEAD');
    const again = await spawnCli(['episode', 'commit'], w);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`info AUR6117 s01e01 is already committed (${head.slice(0, 10)}, tag s01e01) through \`episode commit\`, and nothing is staged for review`);
    expect(again.stderr).not.toContain('rollback');
    expect(again.stdout).toContain('S01E01');
    const json = await spawnCli(['episode', 'commit', '--json'], w);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ episode: 's01e01', commit: head, tag: 's01e01' });
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    const next = await spawnCli(['episode', 'run', '--seed', '7'], w);
    expect(next.code, next.stderr).toBe(0);
    expect(git(w, 'tag', '--list', 's01e02')).toBe('s01e02');
  }, 240_000);

  it('a record left behind: status shows nothing staged and `episode commit` reports the commit, exit 0', async () => {
    const w = await leftBehind('commit-done-left');
    const head = git(w, 'rev-parse', 'HEAD');
    expect(await staged(w)).toBeNull();
    const text = await spawnCli(['status'], w);
    expect(text.stdout).not.toContain('staged for review');
    const r = await spawnCli(['episode', 'commit'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('AUR6116 s01e01 was committed');
    expect(r.stdout).toContain('✓ recovered S01E01');
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(fs.existsSync(path.join(w, REVIEW))).toBe(false);
    expect(fs.existsSync(path.join(w, runRel))).toBe(false);
  }, 240_000);

  it('after an episode a plain run committed (never staged), `episode commit` is still refused: AUR6009 naming it, exit 2', async () => {
    const w = copyRepo(s.root, 'commit-plain-run');
    expect((await spawnCli(['episode', 'discard'], w)).code).toBe(0);
    const run = await spawnCli(['episode', 'run', '--seed', '7'], w);
    expect(run.code, run.stderr).toBe(0);
    const r = await spawnCli(['episode', 'commit'], w);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('AUR6009 episode s01e01 is already committed');
    expect(r.stderr).not.toContain('AUR6117');
  }, 240_000);

  for (const args of [['episode', 'run', '--seed', '7'], ['season', 'run', '--count', '1', '--seed', '7']]) {
    it(`a record left behind: ${args.slice(0, 2).join(' ')} removes it and goes on to s01e02`, async () => {
      const w = await leftBehind(`commit-done-left-${args[0]}`);
      const r = await spawnCli(args, w);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('AUR6102');
      expect(r.stderr).toContain('AUR6116');
      expect(git(w, 'tag', '--list', 's01e02')).toBe('s01e02');
      expect(fs.existsSync(path.join(w, REVIEW))).toBe(false);
    }, 240_000);
  }
});
