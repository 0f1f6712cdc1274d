import type { GitPort } from '../git/port.js';
import { testKillHook } from '../pipeline/checkpoint.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { interruptedRollback, interruptedRollbackError, removeRollbackJournal, writeRollbackJournal, type RollbackJournal } from './rollback-journal.js';

/**
 * The one step of a rollback that changes what the author sees: the work tree and index move from
 * HEAD's tree to the last revert's (`read-tree -m -u`), then HEAD and the tags move together (one
 * `update-ref --stdin` transaction). It is journaled (rollback-journal.ts) so that a process killed
 * in it is finished by the next `aureus rollback`; a Ctrl-C during it is let finish (the caller runs
 * it as a critical step, and its git commands do not get the terminal's signal: git/rewind.ts).
 *
 * Test hooks (pipeline/checkpoint.ts testKillHook): rollback-journaled (the journal written, nothing
 * moved), rollback-moved (work tree and index moved, HEAD and tags not), rollback-refs (all moved,
 * the journal not yet removed).
 */
export async function switchRollback(root: string, git: GitPort, j: RollbackJournal): Promise<void> {
  writeRollbackJournal(root, j);
  testKillHook('rollback-journaled');
  try {
    await git.moveWorkTree(j.from, j.to, false);
  } catch (e) {
    // Refused whole before it wrote anything (a changed file it would overwrite): nothing moved.
    removeRollbackJournal(root);
    throw e;
  }
  testKillHook('rollback-moved');
  try {
    await git.updateRefs(j.refs, `aureus rollback ${j.episode}`);
  } catch (e) {
    // No ref moved (the transaction is all or nothing): the work tree goes back, so nothing did.
    await git.moveWorkTree(j.to, j.from, false);
    removeRollbackJournal(root);
    throw e;
  }
  testKillHook('rollback-refs');
  removeRollbackJournal(root);
}

/**
 * Finish the switch of a rollback a kill cut (its journal left), from where it stopped: HEAD already
 * moved means all of it was done but the journal's removal (the work tree moves first); HEAD where
 * the rollback found it means the work tree is as it was, moved, or half moved, and is moved (files
 * of the move a kill left half written are the move's own, so they are overwritten: `force`). HEAD
 * anywhere else is not guessed at (AUR6037, its hint saying where). Null when nothing was left.
 */
export async function finishInterruptedRollback(root: string, git: GitPort): Promise<{ journal: RollbackJournal; note: Diagnostic } | null> {
  const j = interruptedRollback(root);
  if (!j) return null;
  const head = await git.head();
  if (head === j.to) {
    removeRollbackJournal(root);
    return { journal: j, note: diag('AUR6038', { episode: j.episode, how: 'HEAD and the tags were already moved; only its journal was left' }) };
  }
  if (head !== j.from) {
    const hint = `HEAD is at ${String(head).slice(0, 10)}, neither where the rollback found it (${j.from.slice(0, 10)}) nor where it goes (${j.to.slice(0, 10)}): put HEAD back (git switch, git reset --keep ${j.from.slice(0, 10)}) and run \`aureus rollback ${j.episode}\` again, or delete the journal to leave things as they are`;
    throw interruptedRollbackError(root, j, hint);
  }
  let how = 'work tree, HEAD and tags moved';
  try {
    await git.moveWorkTree(j.from, j.to, false);
  } catch {
    await git.moveWorkTree(j.from, j.to, true);
    how = 'the files the kill left half moved were rewritten; HEAD and tags moved';
  }
  await git.updateRefs(j.refs, `aureus rollback ${j.episode} (finished)`);
  removeRollbackJournal(root);
  return { journal: j, note: diag('AUR6038', { episode: j.episode, how }) };
}
