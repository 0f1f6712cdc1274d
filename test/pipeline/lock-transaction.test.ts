import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLock, staleReason } from '../../src/pipeline/lock.js';
import { commitEpisode, recoverPendingCommits } from '../../src/pipeline/transaction.js';
import { isAureusError } from '../../src/errors.js';
import type { Diagnostic } from '../../src/diagnostics/index.js';
import { cleanup, git, tempDir } from './world.js';

afterAll(cleanup);

function repo(): string {
  const d = tempDir('tx');
  git(d, 'init', '-q', '-b', 'main');
  git(d, 'config', 'user.name', 'T');
  git(d, 'config', 'user.email', 't@example.com');
  fs.mkdirSync(path.join(d, 'world'));
  fs.writeFileSync(path.join(d, 'world/world.json'), '{"a":1}\n');
  git(d, 'add', '-A');
  git(d, 'commit', '-q', '-m', 'init');
  return d;
}

describe('run lock', () => {
  it('is exclusive while its process lives, and released after', () => {
    const d = tempDir('lock');
    const lock = acquireLock(d, 'test');
    let err: unknown;
    try {
      acquireLock(d, 'test');
    } catch (e) {
      err = e;
    }
    expect(isAureusError(err) && err.exitCode).toBe(9);
    lock.release();
    expect(fs.existsSync(path.join(d, '.aureus/lock'))).toBe(false);
    acquireLock(d, 'again').release();
  });

  it('treats a dead process, an unreadable file or an old lock as stale', () => {
    const now = Date.now();
    expect(staleReason({ pid: process.pid, host: os.hostname(), since: '', command: '' }, now, now, 1000)).toBeNull();
    expect(staleReason({ pid: process.pid, host: os.hostname(), since: '', command: '' }, now - 5000, now, 1000)).toMatch(/older than/);
    expect(staleReason({ pid: 2 ** 22 + 7, host: os.hostname(), since: '', command: '' }, now, now, 1000)).toMatch(/no longer running/);
    expect(staleReason(null, now, now, 1000)).toMatch(/unreadable/);
    // Another host's live-looking lock is judged by age only.
    expect(staleReason({ pid: 2 ** 22 + 7, host: 'elsewhere', since: '', command: '' }, now, now, 1000)).toBeNull();
    const d = tempDir('stale');
    fs.mkdirSync(path.join(d, '.aureus'));
    fs.writeFileSync(path.join(d, '.aureus/lock'), 'not json');
    const warnings: Diagnostic[] = [];
    acquireLock(d, 'test', { warnings }).release();
    expect(warnings.map((w) => w.code)).toEqual(['AUR6003']);
  });
});

describe('commit transaction', () => {
  it('commits only its own paths, leaves what the user staged alone, and tags', async () => {
    const d = repo();
    fs.writeFileSync(path.join(d, 'notes.txt'), 'mine\n');
    git(d, 'add', 'notes.txt');
    const runDir = path.join(d, '.aureus/runs/s01e01-x');
    const r = await commitEpisode(d, runDir, {
      episode: 's01e01',
      tag: 's01e01',
      message: 'S01E01: T\n\nRecap.\n\nAureus-Seed: x\n',
      files: { 'world/world.json': '{"a":2}\n', 'seasons/season_01/episode_01/recap.md': 'r\n' },
    });
    expect(git(d, 'show', '--pretty=format:', '--name-only', 'HEAD').split('\n').filter(Boolean).sort()).toEqual(['seasons/season_01/episode_01/recap.md', 'world/world.json']);
    expect(git(d, 'status', '--porcelain')).toBe('A  notes.txt');
    expect(git(d, 'rev-parse', 's01e01^{commit}')).toBe(r.commit);
    expect(git(d, 'log', '-1', '--format=%B')).toBe('S01E01: T\n\nRecap.\n\nAureus-Seed: x');
    expect(fs.existsSync(runDir)).toBe(false);
  });

  it('rolls an interrupted commit forward from its journal, idempotently', async () => {
    const d = repo();
    const runDir = path.join(d, '.aureus/runs/s01e01-y');
    const head = git(d, 'rev-parse', 'HEAD');
    // What a process killed right after staging leaves behind.
    fs.mkdirSync(path.join(runDir, 'stage/world'), { recursive: true });
    fs.writeFileSync(path.join(runDir, 'stage/world/world.json'), '{"a":3}\n');
    const { sha256 } = await import('../../src/core/hash.js');
    fs.writeFileSync(path.join(runDir, 'commit.json'), JSON.stringify({ format: 1, episode: 's01e01', tag: 's01e01', message: 'S01E01: Y\n', head_before: head, hashes: { 'world/world.json': sha256('{"a":3}\n') } }));
    // …and had even written the world file before dying.
    fs.writeFileSync(path.join(d, 'world/world.json'), '{"a":3}\n');
    const { results, diagnostics } = await recoverPendingCommits(d);
    expect(results).toHaveLength(1);
    expect(diagnostics[0].code).toBe('AUR6004');
    expect(git(d, 'rev-parse', 'HEAD~1')).toBe(head);
    expect(git(d, 'show', 'HEAD:world/world.json')).toBe('{"a":3}');
    expect(git(d, 'rev-parse', 's01e01^{commit}')).toBe(git(d, 'rev-parse', 'HEAD'));
    expect((await recoverPendingCommits(d)).results).toHaveLength(0);
  });

  it('refuses a staged file that does not match its journal hash', async () => {
    const d = repo();
    const runDir = path.join(d, '.aureus/runs/s01e01-z');
    fs.mkdirSync(path.join(runDir, 'stage/world'), { recursive: true });
    fs.writeFileSync(path.join(runDir, 'stage/world/world.json'), '{"a":4}\n');
    fs.writeFileSync(path.join(runDir, 'commit.json'), JSON.stringify({ format: 1, episode: 's01e01', tag: 's01e01', message: 'S01E01: Z\n', head_before: null, hashes: { 'world/world.json': 'f'.repeat(64) } }));
    await expect(recoverPendingCommits(d)).rejects.toMatchObject({ exitCode: 10, diagnostics: [expect.objectContaining({ code: 'AUR6018' })] });
    expect(git(d, 'rev-list', '--count', 'HEAD')).toBe('1');
  });
});
