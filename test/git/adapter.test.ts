import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AureusError } from '../../src/errors.js';
import { createGit, parsePorcelainZ } from '../../src/git/adapter.js';
import { cleanEnv } from '../../src/git/exec.js';
import { openShellRunner } from '../../src/io/shell-runner.js';
import { adapterRepo, git, useTempDirs, writeRel as write } from '../support/git-repo.js';

const tmp = useTempDirs('git');
const repo = () => adapterRepo(tmp());

/**
 * A repository where git's automatic maintenance has work: `packs` counts its packs, and
 * `twoPacks(n)` adds two commits, each repacked into a pack of its own, while gc.autoPackLimit=1
 * (and no detaching) makes `git maintenance run --auto` pack them into one, in the foreground.
 */
function maintainable(root: string): { packs: () => number; twoPacks: (n: number) => void } {
  git(root, 'config', 'gc.autoPackLimit', '1');
  git(root, 'config', 'gc.autoDetach', 'false');
  git(root, 'config', 'maintenance.autoDetach', 'false');
  return {
    packs: () => fs.readdirSync(path.join(root, '.git/objects/pack')).filter((f) => f.endsWith('.pack')).length,
    twoPacks: (n) => {
      for (const i of [1, 2]) {
        write(root, `f${n}-${i}.txt`, `${n} ${i}\n`);
        git(root, 'add', '-A');
        git(root, '-c', 'maintenance.auto=false', 'commit', '-q', '-m', `${n} ${i}`);
        git(root, 'repack', '-q');
      }
    },
  };
}

describe('the git adapter (GitPort) on real repositories', () => {
  it('init makes a repository on branch main; isRepo tells repositories apart', async () => {
    const root = tmp();
    const g = createGit(root);
    expect(await g.isRepo()).toBe(false);
    await g.init();
    expect(await g.isRepo()).toBe(true);
    expect(git(root, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(await g.head()).toBeNull();
    expect(await g.log()).toEqual([]);
    expect(await createGit(path.join(root, 'does-not-exist')).isRepo()).toBe(false);
  });

  it('add + commit return the sha that HEAD points at; status filters by path', async () => {
    const { root, g } = await repo();
    write(root, 'world/a.json', '{}\n');
    write(root, 'notes/b.md', 'b\n');
    expect((await g.status()).map((e) => [e.path, e.index, e.worktree])).toEqual([
      ['notes/b.md', '?', '?'],
      ['world/a.json', '?', '?'],
    ]);
    expect((await g.status(['world'])).map((e) => e.path)).toEqual(['world/a.json']);
    await g.add(['world']);
    expect((await g.status(['world'])).map((e) => [e.path, e.index])).toEqual([['world/a.json', 'A']]);
    const sha = await g.commit('Add the world\n\nWith a body line.');
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await g.head()).toBe(sha);
    expect(git(root, 'rev-parse', 'HEAD')).toBe(sha);
    expect(await g.status(['world'])).toEqual([]);
    expect((await g.status()).map((e) => e.path)).toEqual(['notes/b.md']);
    write(root, 'world/a.json', '{"x": 1}\n');
    expect(await g.status(['world'])).toEqual([{ path: 'world/a.json', index: ' ', worktree: 'M' }]);
  });

  it('a read-only status answers the same and leaves .git/index alone (a refresh would rewrite it)', async () => {
    const { root, g } = await repo();
    write(root, 'world/a.json', '{}\n');
    await g.add(['world']);
    await g.commit('first');
    const index = path.join(root, '.git/index');
    const touch = () => {
      // Same bytes, new times: the index entry's stat data goes stale, which a refreshing status rewrites.
      const t = new Date(Date.now() + 5_000);
      fs.utimesSync(path.join(root, 'world/a.json'), t, t);
      fs.utimesSync(index, new Date(0), new Date(0));
    };
    touch();
    const before = fs.readFileSync(index);
    expect(await g.status(['world'], { readOnly: true })).toEqual([]);
    expect(fs.readFileSync(index).equals(before)).toBe(true);
    expect(fs.statSync(index).mtimeMs).toBe(0);
    // Control: a plain status refreshes the index.
    expect(await g.status(['world'])).toEqual([]);
    expect(fs.statSync(index).mtimeMs).not.toBe(0);
  });

  it('tag creates an annotated tag; log lists commits newest first, filtered by path', async () => {
    const { root, g } = await repo();
    write(root, 'a.txt', '1');
    await g.add(['a.txt']);
    const first = await g.commit('first');
    write(root, 'b.txt', '2');
    await g.add(['b.txt']);
    const second = await g.commit('second: touches b\n\nbody');
    await g.tag('s01e01', 'Episode 1');
    expect(git(root, 'cat-file', '-t', 's01e01')).toBe('tag');
    expect(git(root, 'rev-parse', 's01e01^{commit}')).toBe(second);
    expect(git(root, 'tag', '-l', '--format=%(contents:subject)', 's01e01')).toBe('Episode 1');

    const log = await g.log();
    expect(log.map((e) => [e.sha, e.subject])).toEqual([
      [second, 'second: touches b'],
      [first, 'first'],
    ]);
    expect(log[0]!.message).toBe('second: touches b\n\nbody');
    expect(log[0]!.date).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await g.log({ paths: ['a.txt'] })).map((e) => e.sha)).toEqual([first]);
    expect((await g.log({ maxCount: 1 })).map((e) => e.sha)).toEqual([second]);
    await g.tag('old', 'at first', first);
    expect(git(root, 'rev-parse', 'old^{commit}')).toBe(first);
  });

  it('falls back to the Aureus identity per command when none resolves, writing no config', async () => {
    const root = tmp();
    const g = createGit(root);
    await g.init();
    // Isolated from the machine's global config, as on a fresh CI runner.
    const home = tmp();
    const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME, GIT_CONFIG_NOSYSTEM: process.env.GIT_CONFIG_NOSYSTEM };
    Object.assign(process.env, { HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1' });
    try {
      const isolated = createGit(root);
      write(root, 'x', 'x');
      await isolated.add(['x']);
      expect(await isolated.commit('works without a global identity')).toMatch(/^[0-9a-f]{40}$/);
      expect(git(root, 'log', '--format=%an <%ae> %cn <%ce>')).toBe('Aureus <aureus@localhost> Aureus <aureus@localhost>');
      // The user's own later commits in this repository must not be authored as Aureus.
      expect(spawnSync('git', ['config', '--local', '--get-regexp', '^user\\.'], { cwd: root }).stdout.toString()).toBe('');
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    // An identity already configured is the one used.
    const other = tmp();
    const g2 = createGit(other);
    await g2.init();
    git(other, 'config', 'user.name', 'Cicero');
    git(other, 'config', 'user.email', 'cicero@example.org');
    write(other, 'y', 'y');
    await g2.add(['y']);
    await g2.commit('by Cicero');
    expect(git(other, 'log', '--format=%an <%ae>')).toBe('Cicero <cicero@example.org>');
  });

  it('keeps the identity git would use from author.*, committer.* or $EMAIL, filling in only what is missing', async () => {
    const root = tmp();
    const g = createGit(root);
    await g.init();
    git(root, 'config', 'author.name', 'Tiro');
    const other = tmp();
    await createGit(other).init();
    git(other, 'config', 'committer.email', 'desk@example.org');
    const home = tmp();
    const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME, GIT_CONFIG_NOSYSTEM: process.env.GIT_CONFIG_NOSYSTEM, EMAIL: process.env.EMAIL };
    Object.assign(process.env, { HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1', EMAIL: 'tiro@example.org' });
    try {
      const isolated = createGit(root);
      write(root, 'x', 'x');
      await isolated.add(['x']);
      await isolated.commit('by Tiro');
      // author.name for the author, $EMAIL for both emails: only the committer's name is ours.
      expect(git(root, 'log', '--format=%an <%ae> %cn <%ce>')).toBe('Tiro <tiro@example.org> Aureus <tiro@example.org>');
      // With an email configured git does not read $EMAIL: the author's email is ours, the committer's kept.
      delete process.env.EMAIL;
      const desk = createGit(other);
      write(other, 'y', 'y');
      await desk.add(['y']);
      await desk.commit('at the desk');
      expect(git(other, 'log', '--format=%an <%ae> %cn <%ce>')).toBe('Aureus <aureus@localhost> Aureus <desk@example.org>');
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('passes git configuration given through the environment (GIT_CONFIG_*), and drops repository redirects', () => {
    const saved = { ...process.env };
    Object.assign(process.env, { GIT_CONFIG_GLOBAL: '/g', GIT_CONFIG_SYSTEM: '/s', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '*' });
    Object.assign(process.env, { GIT_DIR: '/elsewhere/.git', GIT_WORK_TREE: '/w', GIT_INDEX_FILE: '/i', GIT_OBJECT_DIRECTORY: '/o', GIT_COMMON_DIR: '/c', GIT_EDITOR: 'vi', GIT_PAGER: 'less' });
    try {
      const env = cleanEnv();
      for (const k of ['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0', 'GIT_CONFIG_VALUE_0']) expect(env[k], k).toBe(process.env[k]);
      for (const k of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_COMMON_DIR', 'GIT_EDITOR', 'GIT_PAGER']) expect(env[k], k).toBeUndefined();
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    }
  });

  it('failures become AureusError with exit code 10 and AUR6010, never a raw exception', async () => {
    const { g } = await repo();
    const err = await g.commit('nothing staged').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AureusError);
    expect((err as AureusError).exitCode).toBe(10);
    expect((err as AureusError).diagnostics[0]!.code).toBe('AUR6010');
    await expect(g.tag('bad..name', 'x')).rejects.toBeInstanceOf(AureusError);
    expect(await g.commit('empty but allowed', { allowEmpty: true })).toMatch(/^[0-9a-f]{40}$/);
  });

  it('a signal stops add and commit: an aborted one starts nothing; one aborted while git adds stops that git (AUR6010), nothing staged, no lock left', async () => {
    const { root, g } = await repo();
    // 64 MB git cannot compress: its add takes far longer than the 20 ms before the abort.
    fs.writeFileSync(path.join(root, 'big.bin'), randomBytes(64 * 1024 * 1024));
    const gone = AbortSignal.abort(new Error('SIGINT'));
    await expect(g.add(['big.bin'], { signal: gone })).rejects.toMatchObject({ exitCode: 10, diagnostics: [{ code: 'AUR6010' }] });
    await expect(g.commit('x', { allowEmpty: true, signal: gone })).rejects.toBeInstanceOf(AureusError);
    expect(await g.head()).toBeNull();
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('SIGTERM')), 20);
    const err = await g.add(['big.bin'], { signal: ac.signal }).catch((e: unknown) => e);
    expect((err as AureusError).diagnostics[0]!.code).toBe('AUR6010');
    // Answered once git exited: it removed its lock (a caller may then remove the whole folder).
    expect(fs.existsSync(path.join(root, '.git/index.lock'))).toBe(false);
    expect(await g.status()).toEqual([{ path: 'big.bin', index: '?', worktree: '?' }]);
  });

  it("a commit can leave git's automatic maintenance to autoMaintenance, which runs it as git commit would", async () => {
    const { root, g } = await repo();
    // Two packs and an auto pack limit of 1: git's automatic maintenance (gc --auto) packs them into one.
    const { packs, twoPacks } = maintainable(root);
    twoPacks(1);
    expect(packs()).toBe(2);
    write(root, 'a.txt', 'a\n');
    await g.add(['a.txt']);
    await g.commit('deferred', { paths: ['a.txt'], deferMaintenance: true });
    expect(packs()).toBe(2); // the commit did not run it
    await g.autoMaintenance();
    expect(packs()).toBe(1);
    // A plain commit still runs it itself.
    twoPacks(2);
    expect(packs()).toBe(3);
    write(root, 'b.txt', 'b\n');
    await g.add(['b.txt']);
    await g.commit('plain', { paths: ['b.txt'] });
    expect(packs()).toBe(1);
    // maintenance.auto=false turns it off, as it does for git commit.
    twoPacks(3);
    git(root, 'config', 'maintenance.auto', 'false');
    await g.autoMaintenance();
    expect(packs()).toBe(3);
  });

  it.runIf(process.platform === 'linux')("the run's config scan answers whether maintenance.auto is set: unset, autoMaintenance asks no git config", async () => {
    const { root } = await repo();
    const { packs, twoPacks } = maintainable(root);
    // The commands the run shell starts, seen through a \`git\` first on its PATH that logs and runs git.
    const bin = path.join(tmp(), 'bin');
    const log = path.join(bin, 'log');
    const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    write(bin, 'git', `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}' "$@"\n`);
    fs.chmodSync(path.join(bin, 'git'), 0o755);
    const scanned = async (setBefore: boolean) => {
      twoPacks(setBefore ? 2 : 1);
      if (setBefore) git(root, 'config', 'maintenance.auto', 'false');
      fs.rmSync(log, { force: true });
      // The port's commands take this process's environment (cleanEnv) at each command.
      const path0 = process.env.PATH;
      process.env.PATH = `${bin}:${path0}`;
      const close = openShellRunner(cleanEnv());
      const g = createGit(root, { batch: true });
      try {
        g.prefetchConfig(['diff.aureus-json.xfuncname']);
        await g.setConfig([['diff.aureus-json.xfuncname', '^x$']]);
        // Set after the scan, behind the port's back: the scan's answer (unset) stands, as it
        // does for a run, which holds the lock; only a key set at the scan is read again.
        if (!setBefore) git(root, 'config', 'maintenance.auto', 'false');
        await g.autoMaintenance();
      } finally {
        g.close();
        close();
        process.env.PATH = path0;
      }
      git(root, 'config', '--unset', 'maintenance.auto');
      return fs.readFileSync(log, 'utf8').split('\n').filter((l) => l.startsWith('config --bool') || l.startsWith('maintenance'));
    };
    expect(await scanned(false)).toEqual(['maintenance run --auto --quiet']);
    expect(packs()).toBe(1);
    expect(await scanned(true)).toEqual(['config --bool --get maintenance.auto']);
    expect(packs()).toBe(3);
  });

  it.runIf(process.platform === 'linux')('storeBlobs stores the files as blobs from the run shell only, touching neither index nor refs', async () => {
    const { root } = await repo();
    write(root, 'x.txt', 'x\n');
    git(root, 'add', 'x.txt');
    git(root, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'x');
    write(root, '.aureus/blobs/a.json', '{"a": 1}\n');
    write(root, '.aureus/blobs/sub/b.txt', 'b\n');
    const sha = (rel: string) => git(root, 'hash-object', path.join('.aureus/blobs', rel));
    const stored = (rel: string) => spawnSync('git', ['cat-file', '-e', sha(rel)], { cwd: root }).status === 0;
    const head = git(root, 'rev-parse', 'HEAD');
    const index = fs.readFileSync(path.join(root, '.git/index'));
    const dir = path.join(root, '.aureus/blobs');
    const g = createGit(root, { batch: true });
    try {
      // No run shell open: nothing runs.
      expect(await g.storeBlobs(dir, ['a.json', 'sub/b.txt'])).toBe(false);
      expect(stored('a.json')).toBe(false);
      const close = openShellRunner(cleanEnv());
      try {
        expect(await g.storeBlobs(dir, ['a.json', 'sub/b.txt'])).toBe(true);
        expect(await g.storeBlobs(dir, ['missing.json'])).toBe(false);
      } finally {
        close();
      }
    } finally {
      g.close();
    }
    expect(stored('a.json') && stored('sub/b.txt')).toBe(true);
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
    expect(fs.readFileSync(path.join(root, '.git/index')).equals(index)).toBe(true);
  });

  it('parses porcelain -z output with renames and spaces', () => {
    expect(parsePorcelainZ('R  new name.txt\0old.txt\0 M a b.json\0?? c\0')).toEqual([
      { path: 'new name.txt', index: 'R', worktree: ' ', from: 'old.txt' },
      { path: 'a b.json', index: ' ', worktree: 'M' },
      { path: 'c', index: '?', worktree: '?' },
    ]);
  });
});
