import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAureusError } from '../../src/errors.js';
import { wrap } from '../../src/git/errors.js';
import { cleanEnv, gitOutput } from '../../src/git/exec.js';
import { openShellRunner } from '../../src/io/shell-runner.js';
import { committedRepo, useTempDirs } from '../support/git-repo.js';

const tmp = useTempDirs('git-interrupt');

/**
 * A terminal's Ctrl-C reaches the whole process group: a git command may die of it before this process's own handler
 * has run. That was said as a git failure (AUR6010, exit 10: "git status failed: exit code null", seen under `episode
 * commit`); it is the interrupt (AUR6008, exit 130), so each command handles it as its Ctrl-C. Here git is sent SIGINT
 * for real, by a pre-commit hook that signals its parent (git itself), spawned directly and through the run's shell.
 */
function repoWithInterruptingHook(): string {
  const root = committedRepo(tmp(), { 'a.txt': 'a\n' });
  const hook = path.join(root, '.git/hooks/pre-commit');
  fs.writeFileSync(hook, '#!/bin/sh\nkill -INT $PPID\nsleep 2\n', { mode: 0o755 });
  return root;
}

const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a failure'); }, (e: unknown) => e);

describe('a git command stopped by Ctrl-C', () => {
  it('spawned: the interrupt (exit 130, AUR6008), not a git failure', async () => {
    const root = repoWithInterruptingHook();
    const e = await failure(wrap('commit', () => gitOutput(root, ['commit', '--allow-empty', '-m', 'x'])));
    expect(isAureusError(e) && e.exitCode, String(e)).toBe(130);
    expect(isAureusError(e) && e.diagnostics.map((d) => [d.code, d.message])).toEqual([['AUR6008', 'interrupted during git commit']]);
  });

  it('through the run\'s shell: the same', async () => {
    const root = repoWithInterruptingHook();
    const close = openShellRunner(cleanEnv());
    try {
      const e = await failure(wrap('commit', () => gitOutput(root, ['commit', '--allow-empty', '-m', 'x'])));
      expect(isAureusError(e) && e.exitCode, String(e)).toBe(130);
      expect(isAureusError(e) && e.diagnostics[0]?.code).toBe('AUR6008');
    } finally {
      close();
    }
  });

  it('a git that fails on its own is still a git failure (exit 10)', async () => {
    const root = committedRepo(tmp(), { 'a.txt': 'a\n' });
    fs.writeFileSync(path.join(root, '.git/hooks/pre-commit'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const e = await failure(wrap('commit', () => gitOutput(root, ['commit', '--allow-empty', '-m', 'x'])));
    expect(isAureusError(e) && e.exitCode).toBe(10);
    expect(isAureusError(e) && e.diagnostics[0]?.code).toBe('AUR6010');
  });
});
