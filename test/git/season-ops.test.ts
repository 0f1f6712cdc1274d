import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AureusError } from '../../src/errors.js';
import { createGit, summarizeGitOutput } from '../../src/git/adapter.js';
import type { GitPort } from '../../src/git/port.js';
import { adapterRepo, git as sh, useTempDirs, writeRel as write } from '../support/git-repo.js';

/**
 * The season-workflow operations of the one GitPort adapter (rev-parse, tags, show, revert,
 * branches, status filters), and the two pitfalls the adapter guards against on each of them (it
 * was written over simple-git, which had both): a non-zero exit with an empty stderr is a failure,
 * and EDITOR/PAGER/GIT_EDITOR… in the environment neither stop a command nor open a program.
 */

const tmp = useTempDirs('git-season');
const repo = (): Promise<{ root: string; g: GitPort }> => adapterRepo(tmp());

async function commitFile(g: GitPort, rel: string, text: string, message: string): Promise<string> {
  write(g.root, rel, text);
  await g.add([rel]);
  return g.commit(message);
}

const PROGRAM_VARS = { EDITOR: 'vi', VISUAL: 'vi', PAGER: 'less', GIT_EDITOR: 'vi', GIT_PAGER: 'less', GIT_SEQUENCE_EDITOR: 'vi' };
const saved = new Map<string, string | undefined>();
function setProgramVars(): void {
  for (const [k, v] of Object.entries(PROGRAM_VARS)) {
    saved.set(k, process.env[k]);
    process.env[k] = v;
  }
}
afterEach(() => {
  for (const [k, v] of saved) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  saved.clear();
});

describe('nothing to commit is a failure, with exit 10 and a clear message', () => {
  it('commit, commit of paths, and a commit with untracked files around all fail', async () => {
    const { root, g } = await repo();
    const first = await commitFile(g, 'world/a.json', '{}\n', 'first');
    for (const attempt of [() => g.commit('again'), () => g.commit('again', { paths: ['world/a.json'] })]) {
      const err = (await attempt().catch((e: unknown) => e)) as AureusError;
      expect(err).toBeInstanceOf(AureusError);
      expect(err.exitCode).toBe(10);
      expect(err.diagnostics[0]!.code).toBe('AUR6010');
      expect(err.message).toBe('git commit failed: nothing to commit, working tree clean');
    }
    write(root, 'stray.txt', 'x');
    const err = (await g.commit('again').catch((e: unknown) => e)) as AureusError;
    expect(err.exitCode).toBe(10);
    expect(err.message).toMatch(/^git commit failed: nothing added to commit but untracked files present/);
    // Nothing was made: HEAD is where it was, and the failure did not report an old sha as new.
    expect(await g.head()).toBe(first);
    expect(sh(root, 'rev-list', '--count', 'HEAD')).toBe('1');
  });

  it('a git message is summarised by its telling lines', () => {
    expect(summarizeGitOutput('On branch main\nnothing to commit, working tree clean\n')).toBe('nothing to commit, working tree clean');
    expect(summarizeGitOutput('hint: x\nfatal: bad revision\n')).toBe('fatal: bad revision');
    expect(summarizeGitOutput('a\nb\nc\nd')).toBe('a b c');
  });
});

describe('season operations with EDITOR, VISUAL, PAGER and GIT_EDITOR/GIT_PAGER set', () => {
  it('status with path filters, add, commit of paths only, message, resolve and commitsBetween', async () => {
    setProgramVars();
    const { root, g } = await repo();
    const first = await commitFile(g, 'world/a.json', '{"a":1}\n', 'first');
    write(root, 'world/a.json', '{"a":2}\n');
    write(root, 'notes.md', 'staged but not part of the episode\n');
    await g.add(['notes.md']);
    expect((await g.status(['world', 'operators', 'seasons'])).map((e) => e.path)).toEqual(['world/a.json']);

    await g.add(['world/a.json']);
    const second = await g.commit('S01E01: Ides\n\nrecap\n\nAureus-Seed: 7\n', { paths: ['world/a.json'] });
    // Only the given paths went in; the other staged file is still staged, uncommitted.
    expect(sh(root, 'show', '--pretty=format:', '--name-only', second)).toBe('world/a.json');
    expect(await g.status()).toEqual([{ path: 'notes.md', index: 'A', worktree: ' ' }]);
    expect(await g.message(second)).toBe('S01E01: Ides\n\nrecap\n\nAureus-Seed: 7\n');

    expect(await g.resolve('HEAD')).toBe(second);
    expect(await g.resolve(`${second}^`)).toBe(first);
    expect(await g.resolve(`${first}^`)).toBeNull();
    expect(await g.resolve('refs/heads/nope')).toBeNull();
    expect(await g.commitsBetween(first, second)).toEqual([second]);
    expect(await g.isAncestor(first, second)).toBe(true);
    expect(await g.isAncestor(second, first)).toBe(false);
    expect(await g.isAncestor('nope', second)).toBe(false);
    expect(await g.currentBranch()).toBe('main');
  });

  it('annotated tags: create, list by glob, resolve; a second tag at the same commit', async () => {
    setProgramVars();
    const { root, g } = await repo();
    const first = await commitFile(g, 'a.txt', '1', 'S01E01: one');
    const second = await commitFile(g, 'a.txt', '2', 'S01E02: two');
    await g.tag('s01e01', 'S01E01: one', first);
    await g.tag('s01e02', 'S01E02: two');
    await g.tag('what-if/s01e02', 'S01E02 on a branch', second);
    expect(sh(root, 'cat-file', '-t', 's01e02')).toBe('tag');
    expect(await g.tags()).toEqual(['s01e01', 's01e02', 'what-if/s01e02']);
    expect(await g.tags('*s01e02')).toEqual(['s01e02', 'what-if/s01e02']);
    expect(await g.resolve('refs/tags/s01e01')).toBe(first);

    await g.tag(`rolledback/s01e02/${second.slice(0, 10)}`, 's01e02 (rolled back)', second);
    expect(await g.tags('rolledback/*')).toEqual([`rolledback/s01e02/${second.slice(0, 10)}`]);
    expect(await g.resolve(`refs/tags/rolledback/s01e02/${second.slice(0, 10)}`)).toBe(second);

    const dup = (await g.tag('s01e01', 'again').catch((e: unknown) => e)) as AureusError;
    expect(dup).toBeInstanceOf(AureusError);
    expect(dup.exitCode).toBe(10);
    expect(dup.message).toMatch(/^git tag failed: fatal: tag 's01e01' already exists/);
  });

  it('showFile reads a file at a ref, null where it does not exist', async () => {
    setProgramVars();
    const { g } = await repo();
    const first = await commitFile(g, 'world/world.json', '{"v":1}\n', 'one');
    await commitFile(g, 'world/world.json', '{"v":2}\n', 'two');
    expect(await g.showFile(first, 'world/world.json')).toBe('{"v":1}\n');
    expect(await g.showFile('HEAD', 'world/world.json')).toBe('{"v":2}\n');
    expect(await g.showFile('HEAD', 'world/canon.json')).toBeNull();
    expect(await g.showFile('no-such-ref', 'world/world.json')).toBeNull();
  });

  it('buildReverts: one commit each, newest first, history kept, as objects only (HEAD, index and files unmoved)', async () => {
    setProgramVars();
    const { root, g } = await repo();
    const base = await commitFile(g, 'w.txt', 'base\n', 'base');
    const e1 = await commitFile(g, 'e1.txt', 'one\n', 'S01E01');
    const e2 = await commitFile(g, 'e2.txt', 'two\n', 'S01E02');
    const reverts = await g.buildReverts([e2, e1], (sha) => `Revert ${sha.slice(0, 7)}\n`);
    expect(reverts).toHaveLength(2);
    expect(new Set(reverts).size).toBe(2);
    expect(await g.head()).toBe(e2);
    expect(sh(root, 'status', '--porcelain')).toBe('');
    expect(await g.message(reverts[0]!)).toBe(`Revert ${e2.slice(0, 7)}\n`);
    expect(sh(root, 'ls-tree', '--name-only', reverts[1]!)).toBe('w.txt');
    expect(sh(root, 'ls-tree', '--name-only', reverts[0]!).split('\n')).toEqual(['e1.txt', 'w.txt']);
    expect(sh(root, 'rev-list', '--count', reverts[1]!)).toBe('5');
    expect(await g.isAncestor(base, reverts[1]!)).toBe(true);
  });

  it("moveWorkTree and updateRefs switch to the reverts keeping the author's staged and unstaged changes elsewhere", async () => {
    setProgramVars();
    const { root, g } = await repo();
    await commitFile(g, 'w.txt', 'base\n', 'base');
    const e1 = await commitFile(g, 'e1.txt', 'one\n', 'S01E01');
    write(root, 'NOTES.md', 'note\n');
    write(root, 'w.txt', 'staged\n');
    sh(root, 'add', 'NOTES.md', 'w.txt');
    write(root, 'w.txt', 'staged\nand not staged\n');
    const cached = sh(root, 'diff', '--cached', 'HEAD');
    const [revert] = await g.buildReverts([e1], () => 'Revert S01E01\n');
    await g.moveWorkTree(e1, revert!, false);
    await g.updateRefs([{ ref: 'HEAD', old: e1, new: revert! }], 'test');
    expect(await g.head()).toBe(revert);
    expect(sh(root, 'show', '--pretty=format:', '--name-only', revert!)).toBe('e1.txt');
    expect(sh(root, 'status', '--porcelain')).toBe('A  NOTES.md\nMM w.txt');
    expect(sh(root, 'diff', '--cached', 'HEAD')).toBe(cached);
    expect(fs.readFileSync(path.join(root, 'w.txt'), 'utf8')).toBe('staged\nand not staged\n');
    // A ref that moved meanwhile refuses the whole transaction.
    await expect(g.updateRefs([{ ref: 'HEAD', old: e1, new: revert! }], 'test')).rejects.toMatchObject({ exitCode: 10 });
  });

  it('buildReverts refuses a merge commit or commits that are not one line, with exit 10', async () => {
    setProgramVars();
    const { root, g } = await repo();
    await commitFile(g, 'w.txt', 'base\n', 'base');
    const change = await commitFile(g, 'w.txt', 'changed\n', 'change');
    const head = await commitFile(g, 'w.txt', 'changed again\n', 'change again');
    const err = (await g.buildReverts([head, `${change}^`], () => 'Revert\n').catch((e: unknown) => e)) as AureusError;
    expect(err).toBeInstanceOf(AureusError);
    expect(err.exitCode).toBe(10);
    expect(err.message).toMatch(/^git revert failed: .*not the parent/);
    sh(root, 'switch', '-q', '-c', 'side', change);
    const side = await commitFile(g, 's.txt', 's\n', 'side');
    sh(root, 'switch', '-q', 'main');
    sh(root, 'merge', '-q', '--no-ff', '-m', 'merge', side);
    const merge = await g.head();
    await expect(g.buildReverts([merge!], () => 'Revert\n')).rejects.toThrow(/is a merge/);
    expect(await g.status()).toEqual([]);
  });

  it('branches: name check, create + switch, branches containing a commit', async () => {
    setProgramVars();
    const { g } = await repo();
    const first = await commitFile(g, 'a.txt', '1', 'one');
    await commitFile(g, 'a.txt', '2', 'two');
    expect(await g.isValidBranchName('cato-wins')).toBe(true);
    expect(await g.isValidBranchName('bad..name')).toBe(false);
    await g.checkoutNewBranch('cato-wins', first);
    expect(await g.currentBranch()).toBe('cato-wins');
    expect(await g.head()).toBe(first);
    expect(await g.resolve('refs/heads/cato-wins')).toBe(first);
    expect(await g.branchesContaining(first)).toEqual(['cato-wins', 'main']);
    await expect(g.checkoutNewBranch('cato-wins', first)).rejects.toMatchObject({ exitCode: 10 });
  });

  it('requireRepo: AUR6011 outside a repository, nothing inside one', async () => {
    setProgramVars();
    const { g } = await repo();
    await expect(g.requireRepo()).resolves.toBeUndefined();
    const err = (await createGit(tmp()).requireRepo().catch((e: unknown) => e)) as AureusError;
    expect(err).toBeInstanceOf(AureusError);
    expect(err.exitCode).toBe(10);
    expect(err.diagnostics[0]!.code).toBe('AUR6011');
  });
});
