import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { createGit } from '../git/adapter.js';
import type { GitPort } from '../git/port.js';
import { isAtomicTemp } from '../pipeline/commit-safety.js';
import { resolveEpisodeOrRef } from './episodes.js';
import { refuseInterruptedRollback } from './rollback-journal.js';

/**
 * `aureus branch <name> --from s01e02`: a what-if season. A new git branch at that episode's
 * commit, checked out; the next `episode run` compiles s01e03 anew on it. Its episodes are tagged
 * "<name>/s01e03" because the plain tag belongs to the original line.
 */
export async function branchFrom(root: string, name: string, from: string, writes: (file: string) => boolean = () => false): Promise<{ branch: string; from: string; commit: string }> {
  const at = await checkBranchArgs(root, name, from);
  await refuseLostEdits(root, name, at, writes);
  await createGit(root).checkoutNewBranch(name, at.commit);
  return { branch: name, from: at.label, commit: at.commit };
}

/**
 * The name and the episode or ref, checked without writing anything: the command calls it before
 * it takes the run lock, so a rejected `branch` leaves no trace (branchFrom checks again under it).
 */
export async function checkBranchArgs(root: string, name: string, from: string): Promise<{ label: string; commit: string }> {
  // A rollback a kill cut has half moved HEAD, the work tree or the tags: a branch taken now would
  // start from that half and strand the journal's expected HEAD (AUR6037 says how to finish it).
  refuseInterruptedRollback(root);
  const git = createGit(root);
  if (name.startsWith('-') || name.startsWith('rolledback') || !(await git.isValidBranchName(name))) {
    throw new AureusError(`bad branch name ${JSON.stringify(name)}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6013', { name: name.slice(0, 60), reason: 'not a valid git branch name' })] });
  }
  if ((await git.resolve(`refs/heads/${name}`)) !== null) {
    throw new AureusError(`branch ${name} exists`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6013', { name, reason: 'a branch with that name exists' })] });
  }
  return resolveEpisodeOrRef(root, from, true);
}

/**
 * Refuse (exit 8, AUR6032 naming the files) a branch that would lose an uncommitted edit, before
 * git is asked and before anything is written. With --allow-dirty, the switch carries an edit into
 * the new branch only when its file is the same at `from`: git refuses to switch over one that
 * differs (its message, cut to one line, named no file), and a --set writes its files anew from
 * `from`'s world, so an edit to one of them was dropped without a word. `writes`: whether the branch writes a file.
 */
export async function refuseLostEdits(root: string, name: string, at: { label: string; commit: string }, writes: (file: string) => boolean): Promise<void> {
  const git = createGit(root);
  // An atomic write's temp file left by a kill is not an edit (recovery removes it), as for AUR6001.
  const dirty = (await git.status([], { readOnly: true })).filter((e) => !(e.index === '?' && isAtomicTemp(e.path)));
  if (dirty.length === 0) return;
  const head = await git.head();
  const paths = [...new Set(dirty.flatMap((e) => (e.from ? [e.from, e.path] : [e.path])))];
  const written = paths.filter(writes);
  const switched: string[] = [];
  for (const p of paths) if (head !== at.commit && !(await sameAt(git, head, at.commit, p))) switched.push(p);
  if (written.length === 0 && switched.length === 0) return;
  const some = (files: string[]) => files.slice(0, 8).join(', ') + (files.length > 8 ? ` and ${files.length - 8} more` : '');
  const reasons = [
    ...(written.length ? [`the --set writes ${some(written)} anew from ${at.label}`] : []),
    ...(switched.length ? [`${some(switched)} differ${switched.length === 1 ? 's' : ''} at ${at.label}, so switching there would overwrite ${switched.length === 1 ? 'it' : 'them'}`] : []),
  ];
  throw new AureusError('uncommitted edits would be lost', { exitCode: ExitCode.DIRTY_WORLD, diagnostics: [diag('AUR6032', { name, reason: reasons.join('; '), from: at.label })] });
}

/** Whether a file is the same (or missing alike) at two commits. */
async function sameAt(git: GitPort, a: string | null, b: string, file: string): Promise<boolean> {
  if (a === null) return false;
  const [x, y] = await Promise.all([git.showFileBytes(a, file), git.showFileBytes(b, file)]);
  return x === null || y === null ? x === y : x.equals(y);
}
