import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, copyRepo, git, makeWorld, spawnCli } from './world.js';

/**
 * Repository states that make the episode commit fail after all the work: a world file git ignores
 * (before the fix: exit 10 from `git add`, which had staged ~64 other paths first, left staged, and
 * the next run refused as dirty, AUR6001), and a merge in progress with the author's resolution
 * staged (before: the whole episode computed, then AUR6010 "cannot do a partial commit during a
 * merge", and the roll-back unstaged the resolution). Now both are refused before any work, with
 * the index as it was. The built CLI as a child process, real git.
 */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('git-state');
}, 120_000);
afterAll(cleanup);

const runs = (w: string) => (fs.existsSync(path.join(w, '.aureus/runs')) ? fs.readdirSync(path.join(w, '.aureus/runs')) : []);

describe.runIf(builtCli())('episode run refuses a repository it cannot commit to, before any work', () => {
  it('a world file git ignores: AUR6060 naming it, exit 10, nothing staged, no run folder', async () => {
    const w = copyRepo(pristine, 'git-ignored');
    fs.appendFileSync(path.join(w, '.gitignore'), 'world/canon.json\n');
    git(w, 'rm', '-q', '--cached', 'world/canon.json');
    git(w, 'commit', '-qam', 'ign');
    const r = await spawnCli(['episode', 'run'], w);
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toContain('error AUR6060 git ignores world/canon.json, which the episode commit must add');
    expect(r.stderr).toContain('git check-ignore -v');
    expect(git(w, 'status', '--porcelain')).toBe('');
    expect(runs(w)).toEqual([]);
  }, 180_000);

  it('a merge in progress, its resolution staged (--allow-dirty): AUR6059, exit 10, the index and MERGE_HEAD as they were', async () => {
    const w = copyRepo(pristine, 'git-merge');
    const file = path.join(w, 'world/factions.json');
    const text = fs.readFileSync(file, 'utf8');
    git(w, 'checkout', '-qb', 'side');
    fs.writeFileSync(file, text.replace('"The Optimates"', '"The Best Men"'));
    git(w, 'commit', '-qam', 'side');
    git(w, 'checkout', '-q', 'main');
    fs.writeFileSync(file, text.replace('"The Optimates"', '"The Good Men"'));
    git(w, 'commit', '-qam', 'main');
    expect(() => git(w, 'merge', '-q', 'side')).toThrow();
    fs.writeFileSync(file, text.replace('"The Optimates"', '"The Good and Best Men"'));
    git(w, 'add', 'world/factions.json');
    const index = git(w, 'ls-files', '-s');
    const r = await spawnCli(['episode', 'run', '--allow-dirty'], w);
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toContain('error AUR6059 a merge is in progress in this repository (.git/MERGE_HEAD)');
    expect(r.stderr).toContain('git merge --abort');
    expect(r.stderr).not.toContain('AUR6010');
    expect(git(w, 'ls-files', '-s')).toBe(index);
    expect(fs.existsSync(path.join(w, '.git/MERGE_HEAD'))).toBe(true);
    expect(runs(w)).toEqual([]);
  }, 180_000);
  it('the episode\'s tag made elsewhere while this run committed (another worktree\'s run, here a post-commit hook): AUR6064 naming the other commit and its branch, a hint that works, HEAD as before', async () => {
    // Before: AUR6009 "already committed" with AUR6052's "re-run the same command … and commits", which cannot succeed.
    const w = copyRepo(pristine, 'git-tag-taken');
    git(w, 'branch', 'alt');
    const hook = path.join(w, '.git/hooks/post-commit');
    fs.writeFileSync(hook, '#!/bin/sh\ngit rev-parse -q --verify refs/tags/s01e01 >/dev/null || git tag -a s01e01 -m other alt\n');
    fs.chmodSync(hook, 0o755);
    const head = git(w, 'rev-parse', 'HEAD');
    const other = git(w, 'rev-parse', 'alt');
    const r = await spawnCli(['episode', 'run'], w);
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toContain(`error AUR6064 tag s01e01 was made on another commit (${other.slice(0, 10)}, on alt`);
    expect(r.stderr).toContain('Run episodes in one worktree at a time');
    // Rollback takes the plain id (`aureus rollback s01e01/…` was exit 2, AUR6005), in the worktree that made it.
    expect(r.stderr).toContain('`aureus rollback s01e01` there');
    expect(r.stderr).not.toContain('or clone');
    expect(r.stderr).not.toContain('re-run the same command');
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'status', '--porcelain')).toBe('');
  }, 240_000);
});
