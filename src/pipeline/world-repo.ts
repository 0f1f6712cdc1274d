import { createGit } from '../git/adapter.js';
import type { GitPort } from '../git/port.js';
import { requireWorldFolder } from '../store/load.js';

/**
 * The first checks of every command that reads a world repository, in this order: a world folder
 * (AUR1000, exit 3: an empty folder, git or not, is no world, and a user who forgot -C is told so),
 * then a git repository (AUR6011, exit 10: a world outside git). Returns the repository's git port.
 * `episode run` makes the same two checks, the second beside its preflight (run-episode.ts).
 */
export async function requireWorldRepo(root: string): Promise<GitPort> {
  requireWorldFolder(root);
  const git = createGit(root);
  await git.requireRepo();
  return git;
}
