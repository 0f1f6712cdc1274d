import fs from 'node:fs';
import path from 'node:path';
import { diag } from '../diagnostics/index.js';
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
  const dotGit = path.join(root, '.git');
  try {
    if (fs.statSync(dotGit).isDirectory()) return path.join(dotGit, ROLLBACK_JOURNAL);
    const m = /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
    return m ? path.join(path.resolve(root, m[1]!.trim()), ROLLBACK_JOURNAL) : null;
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

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const isRef = (c: unknown): c is RefChange => {
  const r = c as RefChange;
  return typeof r === 'object' && r !== null && typeof r.ref === 'string' && (r.old === null || SHA.test(String(r.old))) && (r.new === null || SHA.test(String(r.new)));
};

/** What is wrong with a journal's content, or null when it is one this code wrote. */
function journalProblem(v: unknown): string | null {
  const j = v as RollbackJournal;
  if (typeof j !== 'object' || j === null || j.version !== 1) return 'not a version 1 rollback journal';
  if (typeof j.episode !== 'string' || !/^s\d{2}e\d{2}$/.test(j.episode)) return 'no episode id';
  if (!SHA.test(String(j.from)) || !SHA.test(String(j.to))) return '"from" and "to" must be commit ids';
  if (!Array.isArray(j.reverted) || !Array.isArray(j.retagged) || !Array.isArray(j.refs) || !j.refs.every(isRef)) return '"reverted", "retagged" and "refs" must be lists of their shape';
  return null;
}

/**
 * The interrupted rollback's journal, or null when there is none. One that is not JSON of its shape
 * refuses (exit 3, AUR6039): it says which HEAD and tags the rollback was moving, so it is never guessed at.
 */
export function interruptedRollback(root: string): RollbackJournal | null {
  const file = rollbackJournalPath(root);
  if (!file) return null;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw damaged(file, (e as Error).message);
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw damaged(file, `not JSON (${(e as Error).message})`);
  }
  const problem = journalProblem(v);
  if (problem) throw damaged(file, problem);
  return v as RollbackJournal;
}

function damaged(file: string, detail: string): AureusError {
  return new AureusError(`the rollback journal ${file} is damaged`, { exitCode: ExitCode.INVALID_WORLD, diagnostics: [diag('AUR6039', { file, detail })] });
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
