import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { createGit } from '../git/simple-git.js';
import { resolveEpisodeOrRef } from './episodes.js';

/**
 * `aureus branch <name> --from s01e02`: a what-if season. A new git branch at that episode's
 * commit, checked out; the next `episode run` compiles s01e03 anew on it. Its episodes are tagged
 * "<name>/s01e03" because the plain tag belongs to the original line.
 */
export async function branchFrom(root: string, name: string, from: string): Promise<{ branch: string; from: string; commit: string }> {
  const git = createGit(root);
  if (name.startsWith('-') || name.startsWith('rolledback') || !(await git.isValidBranchName(name))) {
    throw new AureusError(`bad branch name ${JSON.stringify(name)}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6013', { name: name.slice(0, 60), reason: 'not a valid git branch name' })] });
  }
  if ((await git.resolve(`refs/heads/${name}`)) !== null) {
    throw new AureusError(`branch ${name} exists`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6013', { name, reason: 'a branch with that name exists' })] });
  }
  const at = await resolveEpisodeOrRef(root, from, true);
  await git.checkoutNewBranch(name, at.commit);
  return { branch: name, from: at.label, commit: at.commit };
}
