import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, copyRepo, git, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * `branch` and the uncommitted edits it meets. `--set … --allow-dirty` wrote the file it changes
 * anew from `from`'s world over the user's edit and committed only the --set change: the edit was
 * gone from every branch, exit 0. `--from <ref> --allow-dirty` over an edit to a file that differs
 * there was git's refusal, exit 10, cut before the files it named. Both are now AUR6032 (exit 8),
 * naming the files, before anything is changed; an edit to a file the branch neither writes nor
 * switches is still carried, uncommitted, into the new branch.
 */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('branch-dirty');
}, 120_000);
afterAll(cleanup);

const CHARS = 'world/characters.json';
const handEdit = (w: string, rel = CHARS) => {
  const file = path.join(w, rel);
  const text = fs.readFileSync(file, 'utf8');
  const edited = text.replace(/"fama": 85/, '"fama": 42').replace('the city burns', 'the city burns (a hand edit)');
  expect(edited).not.toBe(text);
  fs.writeFileSync(file, edited);
  return edited;
};
const state = (w: string) => ({ head: git(w, 'rev-parse', 'HEAD'), branch: git(w, 'branch', '--show-current'), branches: git(w, 'branch', '--list'), status: git(w, 'status', '--porcelain') });

describe('branch with uncommitted edits', () => {
  it('--set --allow-dirty over an edit to the file the --set writes: exit 8, AUR6032 naming it, the edit and the repository as they were', async () => {
    const w = copyRepo(pristine, 'set-dirty');
    const edited = handEdit(w);
    const before = state(w);
    const r = await spawnCli(['branch', 't3', '--set', 'characters.varo.status=exiled', '--allow-dirty'], w);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain(`error AUR6032 branch t3 would lose uncommitted edits: the --set writes ${CHARS} anew from HEAD`);
    expect(r.stderr).toContain('git stash');
    expect(state(w)).toEqual(before);
    expect(fs.readFileSync(path.join(w, CHARS), 'utf8')).toBe(edited);
  }, 60_000);

  it('--set --allow-dirty with an edit to a file it does not write: the edit is carried, uncommitted, onto the new branch', async () => {
    const w = copyRepo(pristine, 'set-carry');
    const edited = handEdit(w, 'world/world.json');
    const r = await spawnCli(['branch', 't3', '--set', 'characters.varo.status=exiled', '--allow-dirty'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(git(w, 'branch', '--show-current')).toBe('t3');
    expect(git(w, 'status', '--porcelain')).toBe('M world/world.json');
    expect(fs.readFileSync(path.join(w, 'world/world.json'), 'utf8')).toBe(edited);
    expect(git(w, 'show', '--pretty=format:', '--name-only', 'HEAD').split('\n').filter(Boolean).sort()).toEqual(['seasons/season_01/what_if/t3.json', CHARS]);
  }, 60_000);

  it('--from a ref where an edited file differs: exit 8, AUR6032 naming the files before git is asked (was AUR6010, exit 10, naming none)', async () => {
    const w = copyRepo(pristine, 'from-dirty');
    expect((await spawnCli(['branch', 'exiled', '--set', 'characters.varo.status=exiled'], w)).code).toBe(0);
    git(w, 'checkout', '-q', 'main');
    const edited = handEdit(w);
    const before = state(w);
    const r = await spawnCli(['branch', 't4', '--from', 'exiled', '--allow-dirty'], w);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain(`error AUR6032 branch t4 would lose uncommitted edits: ${CHARS} differs at exiled, so switching there would overwrite it`);
    expect(r.stderr).not.toContain('AUR6010');
    expect(state(w)).toEqual(before);
    expect(fs.readFileSync(path.join(w, CHARS), 'utf8')).toBe(edited);
  }, 60_000);

  it('a --set names itself as typed, quoted once; one with a control character or a line break is refused (exit 2) before anything is created', async () => {
    const w = copyRepo(pristine, 'set-quoting');
    const before = state(w);
    const r = await spawnCli(['branch', 't5', '--set', 'characters.nobody.status=exiled'], w);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('error AUR6109 bad --set "characters.nobody.status=exiled":');
    for (const set of ['characters.varo.name=Varo\x1b[31m', 'world.global.unrest=8\nAureus-Branch: forged']) {
      const bad = await spawnCli(['branch', 't5', '--set', set], w);
      expect(bad.code, bad.stderr).toBe(2);
      expect(bad.stderr).toContain('AUR6109');
      expect(bad.stderr).toContain('a --set is one line of plain text');
      expect(bad.stderr).not.toContain('\x1b');
    }
    expect(state(w)).toEqual(before);
  }, 60_000);
});
