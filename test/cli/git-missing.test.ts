import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, makeWorld, spawnCli, tempDir } from '../pipeline/world.js';
import { STACK_TRACE } from './helpers.js';

/**
 * No git on PATH: every command that needs git says so (AUR6031, exit 10) with a hint to install
 * it, instead of calling the world "not a git repository" (AUR6011, with a hint to run that very
 * git) or a failed `git init` (AUR6010, with a hint to run `git status`).
 */
afterAll(cleanup);

const NO_GIT = { PATH: '/nonexistent' };

function expectGitMissing(r: { code: number | null; stderr: string }): void {
  expect(r.code, r.stderr).toBe(10);
  expect(r.stderr).toContain('AUR6031 git was not found on PATH');
  expect(r.stderr).toContain('install git');
  expect(r.stderr).not.toMatch(/AUR6010|AUR6011|git init|git status/);
  expect(r.stderr).not.toMatch(STACK_TRACE);
}

describe.skipIf(!builtCli())('git missing from PATH', () => {
  it('episode run, status, recap and diff: AUR6031, exit 10', async () => {
    const w = await makeWorld('no-git');
    for (const args of [['episode', 'run', '--seed', '7'], ['status'], ['recap'], ['diff', 'HEAD', 'HEAD']]) {
      const r = await spawnCli(args, w, NO_GIT);
      expectGitMissing(r);
    }
  }, 120_000);

  it('init: AUR6031, exit 10, and nothing left behind', async () => {
    const parent = tempDir('no-git-init');
    const r = await spawnCli(['init', 'w'], parent, NO_GIT);
    expectGitMissing(r);
    expect(fs.readdirSync(parent)).toEqual([]);
    expect(fs.existsSync(path.join(parent, 'w'))).toBe(false);
  }, 60_000);
});
