import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { createGit } from '../git/adapter.js';
import type { GitPort } from '../git/port.js';
import { isAtomicTemp } from '../pipeline/commit-safety.js';
import { describeTaggedCommit, resolveEpisodeOrRef } from './episodes.js';
import { parseEpisodeId } from './episode-id.js';
import { refuseInterruptedRollback } from './rollback-journal.js';
import { finishCommand, halfMadeBranch, readBranchJournal, removeBranchJournal, type BranchJournal } from './branch-journal.js';

/**
 * `aureus branch <name> --from s01e02`: a what-if season. A new git branch at that episode's
 * commit, checked out; the next `episode run` compiles s01e03 anew on it. Its episodes are tagged
 * "<name>/s01e03" because the plain tag belongs to the original line.
 */
export async function branchFrom(root: string, name: string, from: string): Promise<{ branch: string; from: string; commit: string }> {
  const at = await checkBranchArgs(root, name, from);
  await refuseLostEdits(root, name, at, () => false);
  // A `branch --set` journal naming this name is of a step that ended (the branch did not exist):
  // left, it would read the branch made now at its `from` as that what-if, half made.
  if (readBranchJournal(root)?.branch === name) removeBranchJournal(root);
  await createGit(root).checkoutNewBranch(name, at.commit);
  return { branch: name, from: at.label, commit: at.commit };
}

/**
 * The switch of a `branch --set` (what-if.ts): to a new branch, or, `resume`, to the half-made branch
 * of the same name a kill left (at the same commit, none of its own). `journal` is written once the
 * checks passed, before the switch: a refused switch leaves none naming a branch never made.
 */
export async function switchToWhatIfBranch(root: string, name: string, from: string, o: { writes: (file: string) => boolean; resume: boolean; journal: () => void }): Promise<void> {
  const at = await checkBranchArgs(root, name, from, { resume: o.resume });
  await refuseLostEdits(root, name, at, o.writes);
  o.journal();
  await createGit(root).checkoutNewBranch(name, at.commit, { reset: o.resume });
}

/**
 * The name and the episode or ref, checked without writing anything: the command calls it before
 * it takes the run lock, so a rejected `branch` leaves no trace (branchFrom checks again under it).
 * `resume` (`branch --set`): a branch of that name is accepted when it is the half-made one a killed
 * `branch --set` left (season/branch-journal.ts) and `from` is its commit: the re-run finishes it.
 */
export async function checkBranchArgs(root: string, name: string, from: string, opts: { resume?: boolean } = {}): Promise<{ label: string; commit: string }> {
  // A rollback a kill cut has half moved HEAD, the work tree or the tags: a branch taken now would
  // start from that half and strand the journal's expected HEAD (AUR6037 says how to finish it).
  refuseInterruptedRollback(root);
  const git = createGit(root);
  // A merge (rebase, …) half done would go along to the new branch, or fail its --set commit (AUR6059).
  await git.refuseOperationInProgress('a branch cannot be started now');
  if (name.startsWith('-') || name.startsWith('rolledback') || !(await git.isValidBranchName(name))) {
    throw new AureusError(`bad branch name ${JSON.stringify(name)}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6013', { name: name.slice(0, 60), reason: 'not a valid git branch name' })] });
  }
  const exists = (await git.resolve(`refs/heads/${name}`)) !== null;
  const half = exists ? await halfMadeBranch(root, git) : null;
  if (exists && half?.branch !== name) {
    throw new AureusError(`branch ${name} exists`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6013', { name, reason: 'a branch with that name exists' })] });
  }
  const at = await resolveEpisodeOrRef(root, from, true);
  if (exists && half) refuseOtherResume(half, at, opts.resume === true);
  await refuseLeftTags(git, name, at);
  return at;
}

/** A half-made branch is finished only by `branch --set` from its own commit (exit 2, AUR6013 saying how). */
function refuseOtherResume(half: BranchJournal, at: { label: string; commit: string }, resume: boolean): void {
  if (resume && at.commit === half.from) return;
  const how = resume ? `it is at ${half.label}, not at ${at.label}` : 'this `branch` has no --set';
  const reason = `a branch with that name exists, left half made by a \`branch ${half.branch} --set …\` cut off before its commit, and ${how}`;
  throw new AureusError(`branch ${half.branch} exists`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6013', { name: half.branch, reason }, { hint: `finish it: ${finishCommand(half)}; or pick another name` })] });
}

/**
 * Refuse (exit 2, AUR6013) a name whose episode tags `<name>/sNNeNN` are left by an earlier line of
 * that name (a branch since deleted): the new branch's episodes would be tagged the same, and its
 * run would be refused at that episode (AUR6033). Tags in `from`'s history are that line's own past,
 * which the new branch continues: they never collide.
 */
async function refuseLeftTags(git: GitPort, name: string, at: { label: string; commit: string }): Promise<void> {
  const left: { tag: string; commit: string }[] = [];
  for (const tag of await git.tags(`${name}/*`)) {
    if (!parseEpisodeId(tag.slice(name.length + 1))) continue;
    const commit = await git.resolve(`refs/tags/${tag}`);
    if (commit && !(await git.isAncestor(commit, at.commit))) left.push({ tag, commit });
  }
  if (left.length === 0) return;
  const first = await describeTaggedCommit(git, left[0]!.commit);
  const tags = left.slice(0, 4).map((t) => `${t.tag} (at ${t.commit.slice(0, 10)})`).join(', ') + (left.length > 4 ? ` and ${left.length - 4} more` : '');
  const reason = `the tag${left.length === 1 ? '' : 's'} ${tags} of an earlier line named ${name} ${left.length === 1 ? 'is' : 'are'} left (${first.where}), and the new branch's episodes would be tagged the same`;
  const hint = first.branches.length
    ? `pick another name: those tags are the episodes of ${first.where.replace(/^on /, '')}`
    : `pick another name; or, if those episodes are not wanted, delete the tags first (\`git tag -d ${left.map((t) => t.tag).join(' ')}\`: their commits are on no branch, only the tags keep them)`;
  throw new AureusError(`tags ${name}/* exist`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6013', { name, reason }, { hint })] });
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
