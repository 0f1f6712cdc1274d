import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLock, staleReason } from '../../src/pipeline/lock.js';
import { commitEpisode, recoverPendingCommits } from '../../src/pipeline/transaction.js';
import { isAureusError } from '../../src/errors.js';
import type { Diagnostic } from '../../src/diagnostics/index.js';
import { cleanup, git, tempDir } from './world.js';
import { committedRepo } from '../support/git-repo.js';

afterAll(cleanup);

const repo = (): string => committedRepo(tempDir('tx'), { 'world/world.json': '{"a":1}\n' });

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
    expect(fs.existsSync(path.join(d, '.aureus/lock.json'))).toBe(false);
    acquireLock(d, 'again').release();
  });

  it('judges by refresh first: a live pid keeps its lock only while the lock is refreshed', () => {
    const now = Date.now();
    const live = { pid: process.pid, host: os.hostname(), since: '', command: '' };
    expect(staleReason(live, now, now, 1000)).toBeNull();
    // Not refreshed for hours though its pid lives: that pid is another process now (or a stopped one).
    expect(staleReason(live, now - 7 * 3600_000, now, 1000)).toMatch(new RegExp(`not refreshed since .*pid ${process.pid} is another process now`));
    expect(staleReason({ ...live, pid: 2 ** 22 + 7 }, now, now, 1000)).toMatch(/no longer running/);
    // Another host's lock is judged by its refresh: live while its holder touches it.
    expect(staleReason({ ...live, pid: 2 ** 22 + 7, host: 'elsewhere' }, now, now, 1000)).toBeNull();
    expect(staleReason({ ...live, host: 'elsewhere' }, now - 5000, now, 1000)).toMatch(/not refreshed/);
    // An mtime far in the future is no refresh (a skewed clock), or it would stay live for years; a little skew is.
    expect(staleReason({ ...live, host: 'elsewhere' }, now + 500, now, 1000)).toBeNull();
    expect(staleReason({ ...live, host: 'elsewhere' }, now + 5000, now, 1000)).toMatch(/in the future/);
  });

  it('a live run that took its lock 7 hours ago, and refreshes it, is not taken over', () => {
    const d = tempDir('old-live');
    const lock = acquireLock(d, 'long run');
    const owner = path.join(d, '.aureus/lock.json');
    fs.writeFileSync(owner, JSON.stringify({ ...JSON.parse(fs.readFileSync(owner, 'utf8')), since: new Date(Date.now() - 7 * 3600_000).toISOString() }));
    expect(() => acquireLock(d, 'second')).toThrow(/another aureus run is in progress/);
    lock.release();
  });

  it('a lock of this host whose pid is alive but that was not refreshed for years is stale: the pid was reused', async () => {
    const d = tempDir('reused');
    // An unrelated live process holds the pid the lock names (a real child, as a reused pid would be).
    const { spawn } = await import('node:child_process');
    const other = spawn('sleep', ['300'], { stdio: 'ignore' });
    try {
      fs.mkdirSync(path.join(d, '.aureus/lock'), { recursive: true });
      fs.writeFileSync(path.join(d, '.aureus/lock.json'), JSON.stringify({ pid: other.pid, host: os.hostname(), since: '2020-01-01T00:00:00.000Z', command: 'episode run' }));
      const old = new Date('2020-01-01T00:00:00Z');
      fs.utimesSync(path.join(d, '.aureus/lock'), old, old);
      const warnings: Diagnostic[] = [];
      acquireLock(d, 'episode run', { warnings }).release();
      expect(warnings.map((w) => w.code)).toEqual(['AUR6003']);
      expect(warnings[0].message).toContain(`left by pid ${other.pid} (not refreshed since 2020-01-01T00:00:00.000Z`);
      expect(warnings[0].message).toContain(`pid ${other.pid} is another process now`);
    } finally {
      other.kill();
    }
  });

  it("another host's lock dated years in the future is stale, not live for ever", () => {
    const d = tempDir('future');
    fs.mkdirSync(path.join(d, '.aureus/lock'), { recursive: true });
    fs.writeFileSync(path.join(d, '.aureus/lock.json'), JSON.stringify({ pid: 4242, host: 'elsewhere.invalid', since: '2030-01-01T00:00:00.000Z', command: 'episode run' }));
    const future = new Date('2030-01-01T00:00:00Z');
    fs.utimesSync(path.join(d, '.aureus/lock'), future, future);
    const warnings: Diagnostic[] = [];
    acquireLock(d, 'episode run', { warnings }).release();
    expect(warnings.map((w) => w.code)).toEqual(['AUR6003']);
    expect(warnings[0].message).toMatch(/pid 4242 \(last refreshed at 2030-01-01T00:00:00.000Z, in the future/);
  });

  it('a lock with no owner record says so (no "pid ?"): held while fresh (it may be being created), stale once old', () => {
    const d = tempDir('empty');
    fs.mkdirSync(path.join(d, '.aureus/lock'), { recursive: true });
    let err: unknown;
    try {
      acquireLock(d, 'x');
    } catch (e) {
      err = e;
    }
    expect(isAureusError(err) && err.exitCode).toBe(9);
    const held = isAureusError(err) ? err.diagnostics[0] : undefined;
    expect(held?.code).toBe('AUR6062');
    expect(held?.message).toBe('the lock .aureus/lock is held, but its owner record .aureus/lock.json is missing or unreadable: no process can be named');
    expect(held?.hint).toMatch(/taken over once not refreshed for 5 minutes/);
    const old = new Date(Date.now() - 3600_000);
    fs.utimesSync(path.join(d, '.aureus/lock'), old, old);
    const warnings: Diagnostic[] = [];
    acquireLock(d, 'x', { warnings }).release();
    expect(warnings.map((w) => w.code)).toEqual(['AUR6063']);
    expect(warnings[0].message).toMatch(/^removed a stale lock \.aureus\/lock with no owner record \(not refreshed since /);
  });

  it('replaces the lock of a dead process (also an old-style lock file) with a warning', () => {
    const d = tempDir('stale');
    fs.mkdirSync(path.join(d, '.aureus'));
    fs.writeFileSync(path.join(d, '.aureus/lock'), JSON.stringify({ pid: 2 ** 22 + 9, host: os.hostname(), since: 'x', command: 'y' }));
    const warnings: Diagnostic[] = [];
    acquireLock(d, 'test', { warnings }).release();
    expect(warnings.map((w) => w.code)).toEqual(['AUR6003']);
    expect(warnings[0].message).toMatch(/no longer running/);
  });

  it('many processes racing for one lock: exactly one wins', async () => {
    const d = tempDir('race');
    const { spawn } = await import('node:child_process');
    // Child processes load the built module: a real multi-process race on the same folder.
    const mod = path.resolve('dist/pipeline/lock.js');
    // Every racer leaves a marker once it has tried; the winner holds the lock until all six have
    // tried (or 30 s pass), so a slow starter under load cannot legitimately win after a release.
    const marks = path.join(d, 'marks');
    fs.mkdirSync(marks);
    const code = `const { acquireLock } = await import(${JSON.stringify(mod)});
      const fs = await import('node:fs'); const path = await import('node:path');
      const mark = () => fs.writeFileSync(path.join(${JSON.stringify(marks)}, String(process.pid)), '');
      try {
        const l = acquireLock(process.argv[1], 'race'); console.log('WON'); mark();
        const until = Date.now() + 30000;
        const wait = () => (fs.readdirSync(${JSON.stringify(marks)}).length >= 6 || Date.now() > until ? l.release() : setTimeout(wait, 25));
        wait();
      }
      catch (e) { console.log(e.exitCode === 9 ? 'LOCKED' : 'ERROR ' + e.message); mark(); }`;
    const outs = await Promise.all(
      Array.from({ length: 6 }, () =>
        new Promise<string>((resolve) => {
          const c = spawn(process.execPath, ['--input-type=module', '-e', code, d], { stdio: ['ignore', 'pipe', 'inherit'] });
          let out = '';
          c.stdout.on('data', (x) => (out += x));
          c.on('close', () => resolve(out.trim()));
        }),
      ),
    );
    expect(outs.filter((o) => o === 'WON')).toHaveLength(1);
    expect(outs.filter((o) => o === 'LOCKED')).toHaveLength(5);
  });

  it('.aureus being a file is a clear invalid-world error (exit 3), not a crash', () => {
    const d = tempDir('aureus-file');
    fs.writeFileSync(path.join(d, '.aureus'), 'x');
    let err: any;
    try {
      acquireLock(d, 'x');
    } catch (e) {
      err = e;
    }
    expect(isAureusError(err)).toBe(true);
    expect(err.exitCode).toBe(3);
    expect(err.diagnostics[0].code).toBe('AUR6055');
  });

  it('a directory full of files at .aureus/lock with no live owner is a clear lock error (exit 9)', () => {
    const d = tempDir('lock-dir');
    fs.mkdirSync(path.join(d, '.aureus/lock'), { recursive: true });
    fs.writeFileSync(path.join(d, '.aureus/lock/junk'), 'x');
    const old = new Date(Date.now() - 3600_000);
    fs.utimesSync(path.join(d, '.aureus/lock'), old, old);
    let err: any;
    try {
      acquireLock(d, 'x');
    } catch (e) {
      err = e;
    }
    expect(isAureusError(err) && err.exitCode).toBe(9);
    expect(err.diagnostics[0].code).toBe('AUR6056');
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

  it('a commit that fails after the add puts the index back exactly, the author\'s staged edit included', async () => {
    const d = repo();
    fs.writeFileSync(path.join(d, 'world/world.json'), '{"a":5}\n');
    git(d, 'add', 'world/world.json');
    fs.writeFileSync(path.join(d, 'world/world.json'), '{"a":5}\n{"b":0}\n');
    const index = git(d, 'ls-files', '-s');
    const head = git(d, 'rev-parse', 'HEAD');
    // A held branch ref: `git add` succeeds, `git commit` then fails (as a concurrent git would make it).
    fs.writeFileSync(path.join(d, '.git/refs/heads/main.lock'), '');
    const err = await commitEpisode(d, path.join(d, '.aureus/runs/s01e01-i'), {
      episode: 's01e01',
      tag: 's01e01',
      message: 'S01E01: I\n',
      files: { 'world/world.json': '{"a":2}\n', 'seasons/season_01/episode_01/recap.md': 'r\n' },
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ exitCode: 10, diagnostics: expect.arrayContaining([expect.objectContaining({ code: 'AUR6052' })]) });
    expect(git(d, 'ls-files', '-s')).toBe(index);
    expect(git(d, 'rev-parse', 'HEAD')).toBe(head);
    expect(fs.readFileSync(path.join(d, 'world/world.json'), 'utf8')).toBe('{"a":5}\n{"b":0}\n');
    expect(fs.existsSync(path.join(d, 'seasons'))).toBe(false);
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
