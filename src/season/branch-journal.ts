import fs from 'node:fs';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { shellWord } from '../core/shell-word.js';
import { createGit } from '../git/adapter.js';
import type { GitPort } from '../git/port.js';
import { readStateFile } from '../pipeline/state-file.js';
import { writeAtomicSync } from '../store/atomic-write.js';
import { worktreeGitFile } from './rollback-journal.js';

/**
 * The journal of a `branch <name> --set …` (season/what-if.ts): written before the switch to the new
 * branch, removed once the what-if's commit is made (or the branch dropped when git refuses it). A
 * process killed in between (SIGKILL: no handler runs) leaves the author on a new branch at `from`
 * without the what-if change; the journal names that branch, so the same `branch --set` finishes it,
 * and meanwhile `episode run`, `season run`, `note` and `rollback` refuse to commit on it (AUR6035:
 * an episode compiled there would miss the change the author believes is made) and `status` names it.
 * It lives in this work tree's git folder, beside the rollback's journal: HEAD is per work tree.
 */
export interface BranchJournal {
  version: 1;
  /** The new branch, and the commit it is made at (`--from`, resolved) with its label as typed. */
  branch: string;
  from: string;
  label: string;
  /** Where HEAD was before: a refused commit goes back there, the new branch deleted. */
  back: { branch: string } | { commit: string };
  /** The --set values as typed: the command that finishes it, in messages. */
  sets: string[];
}

export const BRANCH_JOURNAL = 'aureus-branch.json';

export function writeBranchJournal(root: string, j: BranchJournal): void {
  const file = worktreeGitFile(root, BRANCH_JOURNAL);
  if (!file) throw new AureusError('no git folder for the branch journal', { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6010', { what: 'rev-parse', message: `no .git folder in ${root}` })] });
  writeAtomicSync(file, `${JSON.stringify(j, null, 2)}\n`);
}

export function removeBranchJournal(root: string): void {
  const file = worktreeGitFile(root, BRANCH_JOURNAL);
  if (file) fs.rmSync(file, { force: true });
}

/**
 * The journal as written, or null: missing, or not JSON of its shape. It only ever marks a branch
 * as half made (what `git log` of that branch shows too), so a damaged one is not a reason to refuse
 * every command: it is read as none, and the next `branch --set` writes it anew.
 */
export function readBranchJournal(root: string): BranchJournal | null {
  const file = worktreeGitFile(root, BRANCH_JOURNAL);
  if (!file) return null;
  const r = readStateFile<BranchJournal>(file, file, 'run/branch_journal', { unreadable: 'report' });
  return r.ok ? r.value : null;
}

/**
 * The half-made branch: the journal's, while it still points exactly at its `from` (no commit of its
 * own: the what-if's was never made). A journal whose branch is gone (killed before the switch, or
 * dropped by hand) or has moved on (killed after the commit) is of a step that ended: null.
 */
export async function halfMadeBranch(root: string, git: GitPort = createGit(root), journal: BranchJournal | null = readBranchJournal(root)): Promise<BranchJournal | null> {
  const j = journal;
  if (!j) return null;
  return (await git.resolve(`refs/heads/${j.branch}`)) === j.from ? j : null;
}

/** Refuse (exit 10, AUR6035) to commit on the half-made branch HEAD is on: it lacks its what-if change. */
export async function refuseHalfMadeBranch(root: string, blocked: string, git: GitPort = createGit(root)): Promise<void> {
  // No journal (every run but one after such a kill): no git process is started.
  const journal = readBranchJournal(root);
  if (!journal) return;
  const [j, current] = await Promise.all([halfMadeBranch(root, git, journal), git.currentBranch()]);
  if (j && j.branch === current) throw halfMadeBranchError(root, j, blocked);
}

export function halfMadeBranchError(root: string, j: BranchJournal, blocked: string): AureusError {
  const file = worktreeGitFile(root, BRANCH_JOURNAL) ?? BRANCH_JOURNAL;
  const back = 'branch' in j.back ? j.back.branch : `--detach ${j.back.commit.slice(0, 12)}`;
  return new AureusError(`branch ${j.branch} is half made`, {
    exitCode: ExitCode.GIT,
    diagnostics: [diag('AUR6035', { branch: j.branch, label: j.label, file, blocked, command: finishCommand(j), back, git: `git switch ${back} && git branch -D ${j.branch}` })],
  });
}

/** The `aureus branch` command that finishes a half-made branch, as a shell would take it. */
export function finishCommand(j: BranchJournal): string {
  const from = j.label === 'HEAD' ? j.from.slice(0, 12) : j.label;
  return ['aureus', 'branch', j.branch, '--from', from, ...j.sets.flatMap((s) => ['--set', s])].map(shellWord).join(' ');
}

