import fs from 'node:fs';
import path from 'node:path';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { readStateFile } from '../pipeline/state-file.js';
import { AureusError, ExitCode } from '../errors.js';
import type { RefChange } from '../git/rewind.js';
import { writeAtomicSync } from '../store/atomic-write.js';

/**
 * The journal of a rollback's switch (season/rollback-switch.ts): written before the work tree and
 * the refs move, removed once both have. A process killed in between (SIGKILL: no handler runs)
 * leaves it, and with it everything the next `aureus rollback` needs to finish the switch; every
 * command that would read or commit a half-moved world (`episode run`, `season run`, an episode's
 * or a play canonization's commit) refuses until then (AUR6037), and `status` names it.
 */
export interface RollbackJournal {
  version: 1;
  /** The episode id the rollback was asked for (s01e03). */
  episode: string;
  /** HEAD before the rollback, and the last revert commit it moves HEAD to. */
  from: string;
  to: string;
  reverted: { commit: string; subject: string; revert: string }[];
  retagged: { from: string; to: string }[];
  /** HEAD and the tags, all moved at once (`git update-ref --stdin`). */
  refs: RefChange[];
}

export const ROLLBACK_JOURNAL = 'aureus-rollback.json';

/**
 * Where the journal lives: in this work tree's git folder (HEAD and the index it moves are per work
 * tree), found without starting git: `.git` is that folder, or a file naming it (`gitdir: …`, a
 * linked work tree). Null when neither is there.
 */
export function rollbackJournalPath(root: string): string | null {
  return worktreeGitFile(root, ROLLBACK_JOURNAL);
}

/** A file of this work tree's git folder (its HEAD's: a journal of a step that moves HEAD), or null. */
export function worktreeGitFile(root: string, name: string): string | null {
  const dotGit = path.join(root, '.git');
  try {
    if (fs.statSync(dotGit).isDirectory()) return path.join(dotGit, name);
    const m = /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
    return m ? path.join(path.resolve(root, m[1]!.trim()), name) : null;
  } catch {
    return null;
  }
}

export function writeRollbackJournal(root: string, j: RollbackJournal): string {
  const file = rollbackJournalPath(root);
  if (!file) throw new AureusError('no git folder for the rollback journal', { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6010', { what: 'rev-parse', message: `no .git folder in ${root}` })] });
  writeAtomicSync(file, `${JSON.stringify(j, null, 2)}\n`);
  return file;
}

export function removeRollbackJournal(root: string): void {
  const file = rollbackJournalPath(root);
  if (file) fs.rmSync(file, { force: true });
}

/**
 * The interrupted rollback's journal, or null when there is none. One that is not JSON of its shape
 * refuses (exit 3, AUR6039, each problem at its line:column and pointer): it says which HEAD and tags
 * the rollback was moving, so it is never guessed at. Read as a run's own state files are
 * (pipeline/state-file.ts, its schema in schemas/run-files.ts).
 */
export function interruptedRollback(root: string): RollbackJournal | null {
  const file = rollbackJournalPath(root);
  if (!file) return null;
  const r = readStateFile<RollbackJournal>(file, file, 'run/rollback_journal', { unreadable: 'report' });
  if (r.ok) return r.value;
  if (r.missing) return null;
  throw damaged(file, r.detail, r.diagnostics);
}

function damaged(file: string, detail: string, problems: Diagnostic[]): AureusError {
  return new AureusError(`the rollback journal ${file} is damaged`, { exitCode: ExitCode.INVALID_WORLD, diagnostics: [diag('AUR6039', { file, detail }), ...problems] });
}

/** Refuse (exit 10, AUR6037) while a rollback's switch is unfinished: the work tree and tags may be half moved. */
export function refuseInterruptedRollback(root: string): void {
  const j = interruptedRollback(root);
  if (j) throw interruptedRollbackError(root, j);
}

export function interruptedRollbackError(root: string, j: RollbackJournal, hint?: string): AureusError {
  const file = rollbackJournalPath(root) ?? ROLLBACK_JOURNAL;
  return new AureusError(`the rollback of ${j.episode} was interrupted`, { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6037', { episode: j.episode, file }, hint ? { hint } : {})] });
}
