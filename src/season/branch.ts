import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { createGit } from '../git/adapter.js';
import { resolveEpisodeOrRef } from './episodes.js';

/**
 * `aureus branch <name> --from s01e02`: a what-if season. A new git branch at that episode's
 * commit, checked out; the next `episode run` compiles s01e03 anew on it. Its episodes are tagged
 * "<name>/s01e03" because the plain tag belongs to the original line.
 */
export async function branchFrom(root: string, name: string, from: string): Promise<{ branch: string; from: string; commit: string }> {
  const at = await checkBranchArgs(root, name, from);
  await createGit(root).checkoutNewBranch(name, at.commit);
  return { branch: name, from: at.label, commit: at.commit };
}

/**
 * The name and the episode or ref, checked without writing anything: the command calls it before
 * it takes the run lock, so a rejected `branch` leaves no trace (branchFrom checks again under it).
 */
export async function checkBranchArgs(root: string, name: string, from: string): Promise<{ label: string; commit: string }> {
  const git = createGit(root);
  if (name.startsWith('-') || name.startsWith('rolledback') || !(await git.isValidBranchName(name))) {
    throw new AureusError(`bad branch name ${JSON.stringify(name)}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6013', { name: name.slice(0, 60), reason: 'not a valid git branch name' })] });
  }
  if ((await git.resolve(`refs/heads/${name}`)) !== null) {
    throw new AureusError(`branch ${name} exists`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6013', { name, reason: 'a branch with that name exists' })] });
  }
  return resolveEpisodeOrRef(root, from, true);
}
