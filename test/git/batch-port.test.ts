import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGit } from '../../src/git/adapter.js';
import { adapterRepo, git, useTempDirs, writeRel as write } from '../support/git-repo.js';

const tmp = useTempDirs('git-batch');

/** Runs fn with HOME and XDG_CONFIG_HOME in an empty folder and no system config: no identity resolves. */
async function withoutIdentity<T>(fn: () => Promise<T>): Promise<T> {
  const home = tmp();
  const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME, GIT_CONFIG_NOSYSTEM: process.env.GIT_CONFIG_NOSYSTEM };
  Object.assign(process.env, { HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1' });
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('a batch git port (one cat-file process for its ref questions, issue 18)', () => {
  it('answers as rev-parse does, sees commits and tags made by other processes, and reopens after close', async () => {
    const { root } = await adapterRepo(tmp());
    const g = createGit(root, { batch: true });
    try {
      expect(await g.head()).toBeNull(); // unborn branch
      write(root, 'a.txt', '1');
      git(root, 'add', 'a.txt');
      git(root, 'commit', '-q', '-m', 'first');
      expect(await g.head()).toBe(git(root, 'rev-parse', 'HEAD'));
      write(root, 'b.txt', '2');
      await g.add(['b.txt']);
      const second = await g.commit('second');
      expect(second).toBe(git(root, 'rev-parse', 'HEAD'));
      expect(await g.resolve('refs/tags/s01e01')).toBeNull();
      await g.tag('s01e01', 'Episode 1', second);
      // An annotated tag resolves to its commit, as `rev-parse tag^{commit}` does.
      expect(await g.resolve('refs/tags/s01e01')).toBe(second);
      expect(await g.resolve('HEAD~1')).toBe(git(root, 'rev-parse', 'HEAD~1'));
      expect(await g.resolve('no-such-ref')).toBeNull();
      expect(await g.resolve('line\nbreak')).toBeNull(); // cannot go on one line: asked of rev-parse
      const answers = await Promise.all(['HEAD', 'refs/tags/s01e01', 'nope', 'HEAD~1'].map((r) => g.resolve(r)));
      expect(answers).toEqual([second, second, null, git(root, 'rev-parse', 'HEAD~1')]);
      g.close();
      expect(await g.head()).toBe(second);
    } finally {
      g.close();
    }
  });

  it('outside a repository its questions fall back and answer null, as the one-shot port does', async () => {
    const g = createGit(path.join(tmp()), { batch: true });
    try {
      expect(await g.head()).toBeNull();
      expect(await g.resolve('HEAD')).toBeNull();
    } finally {
      g.close();
    }
  });

  it('setConfig writes only what differs locally, and its query answers the identity for commit and tag', async () => {
    const root = tmp();
    const g0 = createGit(root);
    await g0.init();
    await withoutIdentity(async () => {
      const g = createGit(root, { batch: true });
      try {
        await g.setConfig([['diff.aureus-json.xfuncname', '^x$'], ['core.Autocrlf', 'false']]);
        expect(git(root, 'config', '--local', '--get', 'diff.aureus-json.xfuncname')).toBe('^x$');
        expect(git(root, 'config', '--local', '--get', 'core.autocrlf')).toBe('false');
        // Equal values are not written again (git replaces .git/config by a rename when it writes).
        const inode = () => fs.statSync(path.join(root, '.git/config')).ino;
        const before = inode();
        await g.setConfig([['diff.aureus-json.xfuncname', '^x$'], ['core.autocrlf', 'false']]);
        expect(inode()).toBe(before);
        await g.setConfig([['diff.aureus-json.xfuncname', '^y$']]);
        expect(git(root, 'config', '--local', '--get', 'diff.aureus-json.xfuncname')).toBe('^y$');
        // No identity anywhere: the commit and the tag use the Aureus identity, and write none.
        write(root, 'x', 'x');
        await g.add(['x']);
        const sha = await g.commit('works without an identity');
        await g.tag('t1', 'tagged');
        expect(git(root, 'log', '-1', '--format=%an <%ae> %cn <%ce>', sha)).toBe('Aureus <aureus@localhost> Aureus <aureus@localhost>');
        expect(git(root, 'for-each-ref', '--format=%(taggername) %(taggeremail)', 'refs/tags/t1')).toBe('Aureus <aureus@localhost>');
        expect(() => git(root, 'config', '--local', '--get', 'user.name')).toThrow();
      } finally {
        g.close();
      }
    });
    // A configured identity is used as configured.
    git(root, 'config', 'user.name', 'Cicero');
    git(root, 'config', 'user.email', 'cicero@example.org');
    const g2 = createGit(root, { batch: true });
    try {
      await g2.setConfig([['diff.aureus-json.xfuncname', '^y$']]);
      write(root, 'y', 'y');
      await g2.add(['y']);
      const sha = await g2.commit('with an identity');
      expect(git(root, 'log', '-1', '--format=%an <%ae>', sha)).toBe('Cicero <cicero@example.org>');
    } finally {
      g2.close();
    }
  });

  it('prefetchConfig asks early and its answer serves the next setConfig of those keys, once', async () => {
    const root = tmp();
    const g0 = createGit(root);
    await g0.init();
    const g = createGit(root, { batch: true });
    try {
      const inode = () => fs.statSync(path.join(root, '.git/config')).ino;
      g.prefetchConfig(['diff.aureus-json.xfuncname']);
      await new Promise((r) => setTimeout(r, 300)); // the early answer: the driver is not set
      // Set behind the port's back: a fresh read would see ^x$ and write nothing; the early
      // answer (unset) makes setConfig write it, which replaces .git/config (a new inode).
      git(root, 'config', '--local', 'diff.aureus-json.xfuncname', '^x$');
      const set = inode();
      await g.setConfig([['diff.aureus-json.xfuncname', '^x$']]);
      expect(git(root, 'config', '--local', '--get', 'diff.aureus-json.xfuncname')).toBe('^x$');
      expect(inode()).not.toBe(set);
      // Used once: a later setConfig reads the config again (and sees ^x$, so it writes nothing).
      const before = inode();
      await g.setConfig([['diff.aureus-json.xfuncname', '^x$']]);
      expect(inode()).toBe(before);
      // A second prefetch serves the next setConfig: ^x$ read early, ^y$ written.
      g.prefetchConfig(['diff.aureus-json.xfuncname']);
      await g.setConfig([['diff.aureus-json.xfuncname', '^y$']]);
      expect(git(root, 'config', '--local', '--get', 'diff.aureus-json.xfuncname')).toBe('^y$');
    } finally {
      g.close();
    }
  });
});
