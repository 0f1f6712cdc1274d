import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * The tag an episode gets on a what-if line is `<branch>/sNNeNN` (`detached/sNNeNN` on a detached
 * HEAD). Git keeps a deleted branch's tags, so reusing its name (or a second detached run from the
 * same place) made a run whose tag was taken. Before the fix `aureus branch whatif` said nothing, and
 * `episode run` computed the whole episode, then failed at its tag with AUR6064 ("another worktree or
 * clone made the same episode": there was one worktree) and the hint `aureus rollback whatif/s01e02`,
 * which exits 2 (not an episode id). A detached run said nothing of its `detached/` tag. Now `branch`
 * refuses such a name (AUR6013 naming the tags), `episode run` refuses before any work (AUR6033 naming
 * the tag, its commit and a fix that works), and a detached run's qualified tag is said (AUR6034).
 */
let season = '';
beforeAll(async () => {
  season = await makeWorld('tags-reused');
  const r = await cli(['season', 'run', '--count', '2'], season);
  expect(r.code, r.stderr).toBe(0);
}, 300_000);
afterAll(cleanup);

const runs = (w: string) => (fs.existsSync(path.join(w, '.aureus/runs')) ? fs.readdirSync(path.join(w, '.aureus/runs')) : []);

/** A what-if branch `whatif` from s01e01 with its s01e02 committed (tag whatif/s01e02), then deleted: its tag stays. */
async function deletedWhatIf(label: string): Promise<{ w: string; stale: string }> {
  const w = copyRepo(season, label);
  expect((await spawnCli(['branch', 'whatif', '--from', 's01e01'], w)).code).toBe(0);
  const run = await spawnCli(['episode', 'run'], w);
  expect(run.code, run.stderr).toBe(0);
  const stale = git(w, 'rev-parse', 'whatif/s01e02^{commit}');
  git(w, 'checkout', '-q', 'main');
  git(w, 'branch', '-q', '-D', 'whatif');
  return { w, stale };
}

describe.sequential('a what-if name or a detached HEAD whose episode tags are left', () => {
  it('branch <name> refuses a name whose <name>/sNNeNN tags a deleted branch left (exit 2, AUR6013 naming them), creating nothing', async () => {
    const { w, stale } = await deletedWhatIf('tags-branch');
    const head = git(w, 'rev-parse', 'HEAD');
    for (const args of [['branch', 'whatif', '--from', 's01e01'], ['branch', 'whatif', '--from', 's01e01', '--set', 'world.global.unrest=9']]) {
      const r = await spawnCli(args, w);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`AUR6013 cannot create branch "whatif": the tag whatif/s01e02 (at ${stale.slice(0, 10)}) of an earlier line named whatif is left (on no branch)`);
      expect(r.stderr).toContain('git tag -d whatif/s01e02');
      expect(git(w, 'branch', '--list', 'whatif')).toBe('');
      expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    }
    // From the old line's own episode, the tag is that line's past, not a collision: accepted.
    expect((await spawnCli(['branch', 'whatif', '--from', 'whatif/s01e02'], w)).code).toBe(0);
  }, 300_000);

  it('episode run on a branch whose qualified tag is taken: refused before any work (exit 10, AUR6033), the hint works', async () => {
    const { w, stale } = await deletedWhatIf('tags-run');
    git(w, 'switch', '-q', '-c', 'whatif', 's01e01');
    const before = runs(w);
    const r = await spawnCli(['episode', 'run', '--seed', 'fresh'], w);
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toContain(`error AUR6033 s01e02 would be tagged whatif/s01e02 here, but that tag already exists, at ${stale.slice(0, 10)} (on no branch)`);
    expect(r.stderr).toContain('left by a branch named whatif since deleted');
    expect(r.stderr).toContain('`git tag -d whatif/s01e02`');
    expect(r.stderr).not.toContain('AUR6064');
    expect(r.stderr).not.toContain('snapshot');
    expect(runs(w)).toEqual(before);
    // The hint, followed: the run goes ahead and makes the tag anew.
    git(w, 'tag', '-d', 'whatif/s01e02');
    const again = await spawnCli(['episode', 'run', '--seed', 'fresh'], w);
    expect(again.code, again.stderr).toBe(0);
    expect(git(w, 'rev-parse', 'whatif/s01e02^{commit}')).toBe(git(w, 'rev-parse', 'HEAD'));
  }, 300_000);

  it('a detached HEAD: the run says its detached/sNNeNN tag (AUR6034); a second detached run from there is refused before any work (AUR6033)', async () => {
    const w = copyRepo(season, 'tags-detached');
    git(w, 'checkout', '-q', '--detach', 's01e01');
    const first = await spawnCli(['episode', 'run'], w);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('warning AUR6034 HEAD is detached: s01e02 will be committed on no branch, tagged detached/s01e02');
    const made = git(w, 'rev-parse', 'HEAD');
    expect(git(w, 'rev-parse', 'detached/s01e02^{commit}')).toBe(made);
    git(w, 'checkout', '-q', '--detach', 's01e01');
    const before = runs(w);
    const second = await spawnCli(['episode', 'run'], w);
    expect(second.code, second.stderr).toBe(10);
    expect(second.stderr).toContain(`error AUR6033 s01e02 would be tagged detached/s01e02 here, but that tag already exists, at ${made.slice(0, 10)} (on no branch)`);
    expect(second.stderr).toContain('left by an earlier run on a detached HEAD');
    expect(second.stderr).toContain('git switch -c <name>');
    expect(runs(w)).toEqual(before);
    // Put on a branch of its own, as the hint says, the line gets tags of its own.
    git(w, 'switch', '-q', '-c', 'alt');
    const third = await spawnCli(['episode', 'run'], w);
    expect(third.code, third.stderr).toBe(0);
    expect(git(w, 'rev-parse', 'alt/s01e02^{commit}')).toBe(git(w, 'rev-parse', 'HEAD'));
  }, 300_000);
});
