import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { createGit } from '../../src/git/adapter.js';
import type { GitPort } from '../../src/git/port.js';

/**
 * Real git repositories in temp folders for the git, lock and commit tests: one way to make them,
 * so a test shows only what it does to the repository.
 */

/** A maker of temp folders named aureus-<label>-…, all removed after the file's (or block's) tests. */
export function useTempDirs(label: string): () => string {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  return () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), `aureus-${label}-`));
    dirs.push(d);
    return d;
  };
}

/** git's trimmed stdout; a non-zero exit throws. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

/** Writes text at root/rel, making the folders on the way. */
export function writeRel(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

/** A new repository made through the adapter (GitPort init), as `aureus init` makes one. */
export async function adapterRepo(root: string): Promise<{ root: string; g: GitPort }> {
  const g = createGit(root);
  await g.init();
  return { root, g };
}

/** A repository on main with a test identity and one commit ("init") of the given files. */
export function committedRepo(root: string, files: Record<string, string>): string {
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.name', 'T');
  git(root, 'config', 'user.email', 't@example.com');
  for (const [rel, text] of Object.entries(files)) writeRel(root, rel, text);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'init');
  return root;
}
