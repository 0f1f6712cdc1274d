import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, copyRepo, git, makeWorld, spawnCli } from './world.js';

/**
 * The author edits or commits between a killed commit and the run that finishes it. Before the fix
 * recovery wrote the staged files over the author's edit (exit 0, only AUR6004: the edit gone from
 * tree, index and commit), or committed the episode on top of the author's commit, undoing it. Now
 * it refuses (exit 8, AUR6057 naming the files / AUR6058 naming both HEADs) and changes nothing.
 * The built CLI as a child process, killed for real (AUREUS_TEST_KILL_AT), real git.
 */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('recov-edit');
}, 120_000);
afterAll(cleanup);

// A file every episode commit writes (the calendar moves): one the commit leaves alone is no conflict.
const WORLD = 'world/world.json';
const rename = (w: string) => {
  const f = path.join(w, WORLD);
  fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace("The Consul's Year", 'The Best Year'));
};
/** Every tracked and untracked file's bytes outside .git: what "changes nothing" is checked against. */
const snapshot = (w: string) => git(w, 'ls-files', '-s', '-m', '-o', '--exclude-standard') + git(w, 'diff') + git(w, 'rev-parse', 'HEAD');

async function killedAt(at: string, label: string): Promise<string> {
  const w = copyRepo(pristine, label);
  const r = await spawnCli(['episode', 'run', '--seed', '7'], w, { AUREUS_TEST_KILL_AT: at });
  expect(r.signal, r.stderr).toBe('SIGKILL');
  return w;
}

describe.runIf(builtCli())('finishing an interrupted commit over the author\'s changes', () => {
  it('a world file edited after a kill at commit-applied: refused, nothing changed; after git stash it finishes and the edit comes back', async () => {
    const w = await killedAt('commit-applied', 'recov-applied');
    rename(w);
    const before = snapshot(w);
    const r = await spawnCli(['episode', 'run', '--seed', '7'], w);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toMatch(/error AUR6057 the interrupted commit of s01e01 cannot be finished: world\/world\.json changed since/);
    expect(r.stderr).toContain('git stash');
    expect(r.stderr).not.toContain('AUR6004');
    expect(snapshot(w)).toBe(before);
    expect(fs.readFileSync(path.join(w, WORLD), 'utf8')).toContain('The Best Year');
    // The way the hint gives: put the edit aside, finish, take it back.
    git(w, 'stash');
    const done = await spawnCli(['episode', 'run', '--seed', '7'], w);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toContain('AUR6004');
    git(w, 'stash', 'pop');
    expect(git(w, 'rev-parse', 'HEAD')).toBe(git(w, 'rev-parse', 's01e01^{commit}'));
    expect(fs.readFileSync(path.join(w, WORLD), 'utf8')).toContain('The Best Year');
  }, 240_000);

  it('an edit committed after a kill at commit-staged: refused (HEAD moved), the author\'s commit stays on top', async () => {
    const w = await killedAt('commit-staged', 'recov-moved');
    rename(w);
    git(w, 'commit', '-qam', 'retitle');
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await spawnCli(['episode', 'run', '--seed', '7'], w);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toMatch(/error AUR6058 the interrupted commit of s01e01 cannot be finished: HEAD moved from [0-9a-f]{10} to [0-9a-f]{10}/);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'tag', '--list')).toBe('');
    expect(git(w, 'status', '--porcelain')).toBe('');
    expect(git(w, 'show', `HEAD:${WORLD}`)).toContain('The Best Year');
  }, 240_000);

  it('a world file edited after a kill at commit-committed (only the tag left): refused, the edit is not overwritten', async () => {
    const w = await killedAt('commit-committed', 'recov-committed');
    rename(w);
    const before = snapshot(w);
    const r = await spawnCli(['episode', 'run', '--seed', '7'], w);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain('error AUR6057');
    expect(snapshot(w)).toBe(before);
  }, 240_000);
});
