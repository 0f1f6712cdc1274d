import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, copyRepo, git, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * `note` and `branch --set` commit outside the episode transaction. When git refused their commit (here: a signing
 * program that fails, as an expired key does), what they had written stayed, written and staged: the next `note`
 * refused its own note as a hand edit (AUR6001, exit 8), and `branch --set` stayed on its new branch with the world
 * changed and nothing committed, so its re-run was refused ("a branch with that name exists"). Now each puts back
 * what it wrote (season/undoable-commit.ts): the repository is as it was, and the same command goes ahead once the
 * cause is fixed.
 */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('refused-commit');
}, 120_000);
afterAll(cleanup);

const NOTES = 'seasons/season_01/notes.json';
const state = (w: string) => ({
  head: git(w, 'rev-parse', 'HEAD'),
  branch: git(w, 'branch', '--show-current'),
  branches: git(w, 'branch', '--list'),
  status: git(w, 'status', '--porcelain', '--untracked-files=all'),
  index: git(w, 'ls-files', '-s'),
});
const failingSigner = (w: string) => {
  git(w, 'config', 'commit.gpgSign', 'true');
  git(w, 'config', 'gpg.program', 'false');
};
const signerFixed = (w: string) => git(w, 'config', '--unset', 'commit.gpgSign');

describe('a commit git refuses', () => {
  it('note: exit 10 with the signing hint, notes.json as it was (absent, then with its notes), and the next note goes ahead', async () => {
    const w = copyRepo(pristine, 'note-refused');
    failingSigner(w);
    const before = state(w);
    const r = await spawnCli(['note', 'The trial must feel close to collapse'], w);
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toContain('AUR6010 git commit failed');
    expect(r.stderr).toContain('signing program failed');
    expect(state(w)).toEqual(before);
    expect(fs.existsSync(path.join(w, NOTES))).toBe(false);
    expect(fs.existsSync(path.join(w, 'seasons/season_01'))).toBe(fs.existsSync(path.join(pristine, 'seasons/season_01')));

    signerFixed(w);
    expect((await spawnCli(['note', 'first'], w)).code).toBe(0);
    const notes = fs.readFileSync(path.join(w, NOTES), 'utf8');
    failingSigner(w);
    const second = state(w);
    expect((await spawnCli(['note', 'second'], w)).code).toBe(10);
    expect(state(w)).toEqual(second);
    expect(fs.readFileSync(path.join(w, NOTES), 'utf8')).toBe(notes);

    signerFixed(w);
    const ok = await spawnCli(['note', 'second', '--json'], w);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).id).toBe('n002');
    expect(git(w, 'status', '--porcelain')).toBe('');
  }, 120_000);

  it('branch --set: exit 10, still on the branch it left, no new branch, no written file, an edit it carried still there', async () => {
    const w = copyRepo(pristine, 'branch-refused');
    failingSigner(w);
    fs.appendFileSync(path.join(w, 'style/style_guide.md'), '\nA hand edit.\n');
    const before = state(w);
    const chars = fs.readFileSync(path.join(w, 'world/characters.json'));
    const r = await spawnCli(['branch', 'exiled', '--set', 'characters.varo.status=exiled', '--allow-dirty'], w);
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toContain('AUR6010 git commit failed');
    expect(state(w)).toEqual(before);
    expect(before.status).toBe('M style/style_guide.md'); // git() trims: " M", unstaged
    expect(fs.readFileSync(path.join(w, 'world/characters.json')).equals(chars)).toBe(true);
    expect(fs.existsSync(path.join(w, 'seasons/season_01/what_if'))).toBe(false);

    signerFixed(w);
    const ok = await spawnCli(['branch', 'exiled', '--set', 'characters.varo.status=exiled', '--allow-dirty'], w);
    expect(ok.code, ok.stderr).toBe(0);
    expect(git(w, 'branch', '--show-current')).toBe('exiled');
    expect(git(w, 'status', '--porcelain')).toBe('M style/style_guide.md');
  }, 120_000);

  it('branch --set from a detached HEAD: back at that commit, detached, when the commit is refused', async () => {
    const w = copyRepo(pristine, 'branch-refused-detached');
    git(w, 'switch', '-q', '--detach', 'HEAD');
    failingSigner(w);
    const before = state(w);
    const r = await spawnCli(['branch', 'exiled', '--set', 'characters.varo.status=exiled'], w);
    expect(r.code, r.stderr).toBe(10);
    expect(state(w)).toEqual(before);
    expect(before.branch).toBe('');
  }, 120_000);
});
