import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAureusError } from '../../src/errors.js';
import { commitEpisode } from '../../src/pipeline/transaction.js';
import { EPISODE_FILE } from '../../src/pipeline/commit-safety.js';
import { builtCli, cleanup, copyRepo, git, makeWorld, spawnCli, tempDir } from './world.js';
import { committedRepo } from '../support/git-repo.js';

/**
 * A file git has no copy of, at a path the episode writes, was replaced by the episode's commit
 * without a word (audit finding 8); git itself refuses to overwrite an untracked file on checkout.
 * Now the run refuses it before any work (exit 8, AUR6066 naming it) and the commit transaction
 * again over its exact paths; the author's other files in the episode folder are left alone.
 */
const DIR = 'seasons/season_01/episode_02';
const ENV = { AUREUS_WORKERS: '0' };
const runs = (w: string) => (fs.existsSync(path.join(w, '.aureus/runs')) ? fs.readdirSync(path.join(w, '.aureus/runs')) : []);

let oneEpisode = '';
beforeAll(async () => {
  oneEpisode = copyRepo(await makeWorld('untracked'), 'untracked-e01');
  const r = await spawnCli(['episode', 'run'], oneEpisode, ENV);
  expect(r.code, r.stderr).toBe(0);
}, 180_000);
afterAll(cleanup);

describe.runIf(builtCli())('an episode run never overwrites a file git has no copy of', () => {
  it('an untracked episode_plan.json in the episode folder: exit 8, AUR6066 naming it, before any work; the author\'s outline.txt is left alone', async () => {
    const w = copyRepo(oneEpisode, 'untracked-plan');
    fs.mkdirSync(path.join(w, DIR), { recursive: true });
    fs.writeFileSync(path.join(w, DIR, 'episode_plan.json'), '{"my":"outline"}\n');
    fs.writeFileSync(path.join(w, DIR, 'outline.txt'), 'mine\n');
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await spawnCli(['episode', 'run'], w, ENV);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain(`error AUR6066 the episode would overwrite ${DIR}/episode_plan.json, which git has no copy of`);
    // The way out as commands naming the file; not the folder, which holds the author's outline.txt too.
    expect(r.stderr).toContain(`Yours: move them away, or commit them (\`git add -- ${DIR}/episode_plan.json && git commit\`)`);
    expect(r.stderr).toContain(`remove them (\`git clean -fd -- ${DIR}/episode_plan.json\`;`);
    fs.rmSync(path.join(w, DIR, 'outline.txt'));
    fs.writeFileSync(path.join(w, DIR, 'recap.md'), 'left\n');
    const only = await spawnCli(['episode', 'run'], w, ENV);
    expect(only.code, only.stderr).toBe(8);
    // Only files the episode writes: the folder is named, as a leftover episode's twenty files would be.
    expect(only.stderr).toContain(`remove them (\`git clean -fd -- ${DIR}\`; \`git clean -nd -- ${DIR}\` lists them first)`);
    fs.rmSync(path.join(w, DIR, 'recap.md'));
    fs.writeFileSync(path.join(w, DIR, 'outline.txt'), 'mine\n');
    expect(fs.readFileSync(path.join(w, DIR, 'episode_plan.json'), 'utf8')).toBe('{"my":"outline"}\n');
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(runs(w)).toEqual([]); // nothing planned, nothing spent
    // Added to the index but never committed: the commit's own `git add` would drop that blob too.
    git(w, 'add', `${DIR}/episode_plan.json`);
    expect((await spawnCli(['episode', 'run', '--allow-dirty'], w, ENV)).code).toBe(8);
    git(w, 'rm', '-q', '--cached', `${DIR}/episode_plan.json`);
    fs.renameSync(path.join(w, DIR, 'episode_plan.json'), path.join(w, 'my-plan.json'));
    const ok = await spawnCli(['episode', 'run'], w, ENV);
    expect(ok.code, ok.stderr).toBe(0);
    expect(git(w, 'status', '--porcelain', '--untracked-files=all').split('\n').sort()).toEqual(['?? my-plan.json', `?? ${DIR}/outline.txt`]);
    // Every file the episode wrote is one the check knows by name.
    const written = git(w, 'show', '--pretty=format:', '--name-only', 'HEAD').split('\n').filter((f) => f.startsWith(`${DIR}/`));
    expect(written.length).toBeGreaterThan(20);
    expect(written.filter((f) => !EPISODE_FILE.test(path.posix.relative(DIR, f)))).toEqual([]);
  }, 180_000);
});

describe('the commit transaction checks its exact paths again', () => {
  const REQ = {
    episode: 's01e01',
    tag: 's01e01',
    message: 'S01E01: T\n\nRecap.\n',
    files: { 'world/world.json': '{"a":2}\n', 'seasons/season_01/episode_01/recap.md': 'r\n' },
  };
  const repo = () => committedRepo(tempDir('untracked-commit'), { 'world/world.json': '{"a":1}\n', '.gitignore': '.aureus/\n' });

  it('an untracked file there with other bytes: exit 8, AUR6066, nothing written or committed; with the same bytes it commits', async () => {
    const d = repo();
    const recap = path.join(d, 'seasons/season_01/episode_01/recap.md');
    fs.mkdirSync(path.dirname(recap), { recursive: true });
    fs.writeFileSync(recap, 'my recap\n');
    const head = git(d, 'rev-parse', 'HEAD');
    const runDir = path.join(d, '.aureus/runs/s01e01-x');
    let err: unknown = null;
    await commitEpisode(d, runDir, REQ).catch((e) => (err = e));
    expect(isAureusError(err) && err.exitCode).toBe(8);
    expect(isAureusError(err) && err.diagnostics.map((x) => `${x.code} ${x.message}`)).toEqual(['AUR6066 the episode would overwrite seasons/season_01/episode_01/recap.md, which git has no copy of']);
    expect(fs.readFileSync(recap, 'utf8')).toBe('my recap\n');
    expect(fs.readFileSync(path.join(d, 'world/world.json'), 'utf8')).toBe('{"a":1}\n');
    expect(git(d, 'rev-parse', 'HEAD')).toBe(head);
    expect(fs.existsSync(path.join(runDir, 'commit.json'))).toBe(false);
    fs.writeFileSync(recap, 'r\n');
    const ok = await commitEpisode(d, runDir, REQ);
    expect(ok.tag).toBe('s01e01');
    expect(git(d, 'status', '--porcelain')).toBe('');
  }, 60_000);
});
