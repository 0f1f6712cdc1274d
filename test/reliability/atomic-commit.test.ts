import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAureusError } from '../../src/errors.js';
import { commitEpisode, recoverPendingCommits } from '../../src/pipeline/transaction.js';
import { runRelDir } from '../../src/paths.js';
import { episodeRef } from '../../src/domain/context.js';
import { cleanup, cli, git, makeWorld, tempDir } from '../pipeline/world.js';
import { committedRepo } from '../support/git-repo.js';

/**
 * Issue 12, atomicity: a git failure during the commit leaves world/ and git exactly as before,
 * and the run stays resumable; temp files of an interrupted write never block the next run.
 */
afterAll(cleanup);

const repo = (): string => committedRepo(tempDir('atomic'), { 'world/world.json': '{"a":1}\n', '.gitignore': '.aureus/\n' });

const REQ = {
  episode: 's01e01',
  tag: 's01e01',
  message: 'S01E01: T\n\nRecap.\n',
  files: { 'world/world.json': '{"a":2}\n', 'seasons/season_01/episode_01/recap.md': 'r\n' },
};

/** Everything a failed commit must leave as it was. */
function snapshot(d: string) {
  return {
    head: git(d, 'rev-parse', 'HEAD'),
    status: git(d, 'status', '--porcelain', '--untracked-files=all'),
    tags: git(d, 'tag', '--list'),
    world: fs.readFileSync(path.join(d, 'world/world.json'), 'utf8'),
    seasons: fs.existsSync(path.join(d, 'seasons')),
  };
}

async function failure(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure');
}

describe('a failed commit is rolled back', () => {
  it('an existing .git/index.lock: exit 10, world/ and git as before, no journal, then it commits', async () => {
    const d = repo();
    const before = snapshot(d);
    fs.writeFileSync(path.join(d, '.git/index.lock'), '');
    const runDir = path.join(d, '.aureus/runs/s01e01-x');
    fs.mkdirSync(runDir, { recursive: true });
    fs.writeFileSync(path.join(runDir, 'planning.json'), '{}\n'); // a checkpoint: must survive
    const err = await failure(commitEpisode(d, runDir, REQ));
    expect(isAureusError(err) && err.exitCode).toBe(10);
    expect(err.diagnostics.map((x: { code: string }) => x.code)).toEqual(['AUR6010', 'AUR6052']);
    fs.rmSync(path.join(d, '.git/index.lock'));
    expect(snapshot(d)).toEqual(before);
    expect(fs.existsSync(path.join(runDir, 'commit.json'))).toBe(false);
    expect(fs.existsSync(path.join(runDir, 'planning.json'))).toBe(true);
    // Nothing left to roll forward: the next run resumes and commits normally.
    expect((await recoverPendingCommits(d)).results).toHaveLength(0);
    const r = await commitEpisode(d, runDir, REQ);
    expect(git(d, 'rev-parse', 'HEAD')).toBe(r.commit);
    expect(git(d, 'show', 'HEAD:world/world.json')).toBe('{"a":2}');
  });

  it('a commit made and then refused by a tag failure: HEAD moves back and the files are restored', async () => {
    const d = repo();
    const before = snapshot(d);
    // The tag name is taken by a ref git cannot create a tag over (a directory-like name clash).
    git(d, 'tag', 's01e01/x');
    const beforeWithTag = { ...before, tags: git(d, 'tag', '--list') };
    const err = await failure(commitEpisode(d, path.join(d, '.aureus/runs/a'), REQ));
    expect(isAureusError(err) && err.exitCode).toBe(10);
    expect(snapshot(d)).toEqual(beforeWithTag);
    expect(git(d, 'reflog', '-1', '--format=%gs')).toMatch(/roll back a failed episode commit/);
  });

  it('a commit or tag git cannot sign: rolled back, and the hint names signing and how to turn it off here', async () => {
    for (const key of ['commit.gpgsign', 'tag.gpgSign']) {
      const d = repo();
      const before = snapshot(d);
      // Signing on, and a signing program that fails, as with no usable key.
      git(d, 'config', key, 'true');
      git(d, 'config', 'gpg.program', 'false');
      const err = await failure(commitEpisode(d, path.join(d, '.aureus/runs/s01e01-x'), REQ));
      expect(isAureusError(err) && err.exitCode, key).toBe(10);
      expect(err.diagnostics.map((x: { code: string }) => x.code)).toEqual(['AUR6010', 'AUR6052']);
      expect(err.diagnostics[0].message).toMatch(/failed to sign|unable to sign/);
      expect(err.diagnostics[0].hint).toContain('git is set to sign commits and tags here (commit.gpgsign, tag.gpgSign)');
      expect(err.diagnostics[0].hint).toContain(`git -C ${d} config commit.gpgsign false`);
      expect(err.diagnostics[0].hint).not.toContain('git status');
      expect(snapshot(d)).toEqual(before);
    }
  });

  it('a symlinked world/ is refused before anything is written, and the target is untouched', async () => {
    const d = repo();
    const outside = tempDir('outside');
    fs.writeFileSync(path.join(outside, 'world.json'), '{"a":1}\n');
    fs.rmSync(path.join(d, 'world'), { recursive: true });
    fs.symlinkSync(outside, path.join(d, 'world'));
    git(d, 'add', '-A');
    git(d, 'commit', '-q', '-m', 'link');
    const before = snapshot(d);
    const err = await failure(commitEpisode(d, path.join(d, '.aureus/runs/b'), REQ));
    expect(isAureusError(err) && err.exitCode).toBe(10);
    expect(err.diagnostics[0]).toMatchObject({ code: 'AUR6050', file: 'world' });
    expect(fs.readFileSync(path.join(outside, 'world.json'), 'utf8')).toBe('{"a":1}\n');
    expect(snapshot(d)).toEqual(before);
  });

  it('a symlinked episode folder is refused the same way', async () => {
    const d = repo();
    const outside = tempDir('outside-ep');
    fs.mkdirSync(path.join(d, 'seasons/season_01'), { recursive: true });
    fs.symlinkSync(outside, path.join(d, 'seasons/season_01/episode_01'));
    const err = await failure(commitEpisode(d, path.join(d, '.aureus/runs/c'), REQ));
    expect(err.diagnostics[0]).toMatchObject({ code: 'AUR6050', file: 'seasons/season_01/episode_01' });
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.readFileSync(path.join(d, 'world/world.json'), 'utf8')).toBe('{"a":1}\n');
  });

  it('a crash-interrupted commit whose roll-forward fails in git is rolled back from the journal', async () => {
    const d = repo();
    const before = snapshot(d);
    const runDir = path.join(d, '.aureus/runs/d');
    // Stage and journal as a killed run leaves them, and the world file already applied.
    fs.writeFileSync(path.join(d, '.git/index.lock'), '');
    await failure(commitEpisode(d, runDir, REQ)); // leaves no journal: make one by hand below
    fs.rmSync(path.join(d, '.git/index.lock'));
    const { sha256 } = await import('../../src/core/hash.js');
    fs.mkdirSync(path.join(runDir, 'stage/world'), { recursive: true });
    fs.mkdirSync(path.join(runDir, 'backup/world'), { recursive: true });
    fs.writeFileSync(path.join(runDir, 'stage/world/world.json'), '{"a":3}\n');
    fs.writeFileSync(path.join(runDir, 'backup/world/world.json'), '{"a":1}\n');
    fs.writeFileSync(
      path.join(runDir, 'commit.json'),
      JSON.stringify({ format: 1, episode: 's01e01', tag: 's01e01', message: 'S01E01: Y\n', head_before: before.head, hashes: { 'world/world.json': sha256('{"a":3}\n') }, before: { 'world/world.json': sha256('{"a":1}\n') } }),
    );
    fs.writeFileSync(path.join(d, 'world/world.json'), '{"a":3}\n');
    fs.writeFileSync(path.join(d, '.git/index.lock'), '');
    const err = await failure(recoverPendingCommits(d));
    expect(isAureusError(err) && err.exitCode).toBe(10);
    fs.rmSync(path.join(d, '.git/index.lock'));
    expect(snapshot(d)).toEqual(before);
    expect(fs.existsSync(path.join(runDir, 'commit.json'))).toBe(false);
  });
});

describe('episode run with a git failure at commit time (end to end)', () => {
  it('exits 10, leaves world/ and git exactly as before, and a re-run resumes and commits', async () => {
    const root = await makeWorld('e2e-lock');
    const before = { head: git(root, 'rev-parse', 'HEAD'), status: git(root, 'status', '--porcelain', '--untracked-files=all'), tags: git(root, 'tag', '--list') };
    const worldBytes = fs.readFileSync(path.join(root, 'world/characters.json'), 'utf8');
    fs.writeFileSync(path.join(root, '.git/index.lock'), '');
    const r = await cli(['episode', 'run', '--json'], root);
    expect(r.code).toBe(10);
    expect(r.stderr).toMatch(/AUR6052/);
    fs.rmSync(path.join(root, '.git/index.lock'));
    expect({ head: git(root, 'rev-parse', 'HEAD'), status: git(root, 'status', '--porcelain', '--untracked-files=all'), tags: git(root, 'tag', '--list') }).toEqual(before);
    expect(fs.readFileSync(path.join(root, 'world/characters.json'), 'utf8')).toBe(worldBytes);
    expect(fs.existsSync(path.join(root, 'seasons/season_01/episode_01'))).toBe(false);
    const again = await cli(['episode', 'run', '--json'], root);
    expect(again.code, again.stderr).toBe(0);
    const summary = JSON.parse(again.stdout);
    expect(summary.status).toBe('committed');
    expect(summary.resumed.planning).toBe(true);
    expect(git(root, 'rev-parse', 's01e01^{commit}')).toBe(summary.commit);
  }, 300_000);
});

describe('temp files of an interrupted write', () => {
  it('recovery removes them and the dirty-world check ignores them', async () => {
    const root = await makeWorld('temps');
    fs.writeFileSync(path.join(root, 'world/assets.json.123456789'), '{"half":');
    const drafts = path.join(root, runRelDir(episodeRef(1, 1), 'zz'), 'drafts');
    fs.mkdirSync(drafts, { recursive: true });
    fs.writeFileSync(path.join(drafts, 'SC01.1.txt.987654'), 'half a draft');
    const { diagnostics } = await recoverPendingCommits(root);
    expect(diagnostics.map((x) => x.code)).toEqual(['AUR6053']);
    expect(fs.existsSync(path.join(root, 'world/assets.json.123456789'))).toBe(false);
    expect(fs.existsSync(path.join(drafts, 'SC01.1.txt.987654'))).toBe(false);
  });

  it('the dirty-world check ignores them but not a real edit (exit 8)', async () => {
    const root = await makeWorld('temps-dirty');
    const { createGit } = await import('../../src/git/adapter.js');
    const { requireCleanWorld } = await import('../../src/pipeline/clean-world.js');
    fs.writeFileSync(path.join(root, 'world/characters.json.4242'), '{');
    await expect(requireCleanWorld(createGit(root), ['world', 'operators'])).resolves.toBeUndefined();
    fs.writeFileSync(path.join(root, 'world/notes.json'), '{}');
    await expect(requireCleanWorld(createGit(root), ['world', 'operators'])).rejects.toMatchObject({ exitCode: 8 });
  });
});

describe('run folders', () => {
  it('are injective in the seed: x.y and x_y never share one', () => {
    const ref = episodeRef(1, 1);
    expect(runRelDir(ref, 'x.y')).not.toBe(runRelDir(ref, 'x_y'));
    expect(runRelDir(ref, 'x.y')).toBe(runRelDir(ref, 'x.y'));
    expect(runRelDir(ref, 'a'.repeat(200))).toMatch(/^\.aureus\/runs\/s01e01-a{48}-[0-9a-f]{8}$/);
  });
});
