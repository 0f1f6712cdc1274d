import fs from 'node:fs';
import path from 'node:path';
import { AureusError, isAureusError } from '../errors.js';
import type { GitPort } from '../git/port.js';
import { writeAtomic } from '../store/atomic-write.js';

/**
 * The small commits made outside the episode transaction (pipeline/transaction.ts): `aureus note`
 * (the season's notes.json) and `branch --set` (the world files it changes and its record). Each
 * writes a few files, then `git add` and `git commit`. When git refused the commit (a signing
 * program that fails, a Ctrl-C that killed git, a full disk) the files stayed written and staged:
 * the next `note` refused its own note as a hand edit (AUR6001), and a `branch --set` stayed on its
 * new branch with nothing committed, its re-run refused ("a branch with that name exists").
 *
 * So each file's bytes and index entry are read before the write and put back when the commit
 * fails, then the caller's own undo runs (branch: back to the branch it left, the new one deleted),
 * and the commit's error is thrown: the repository is as it was.
 *
 * The caller runs it inside git/exec.ts `inOwnProcessGroup`, so that a terminal's Ctrl-C does not kill its git.
 */
export async function commitOrPutBack<T>(
  git: GitPort,
  root: string,
  rels: string[],
  step: { write: () => Promise<void> | void; commit: () => Promise<T>; undo?: () => Promise<void> },
): Promise<T> {
  const kept = rels.map((rel) => ({ rel, bytes: readOrNull(path.join(root, rel)) }));
  const entries = await git.indexEntries(rels);
  try {
    await step.write();
    return await step.commit();
  } catch (e) {
    // The commit's own error is what is said; a put-back that fails too is named beside it.
    try {
      await putBack(root, kept);
      await git.restoreIndex(rels, entries);
      await step.undo?.();
    } catch (undo) {
      const said = `${(e as Error).message}; putting the files back failed too (${(undo as Error).message}): see git status`;
      throw isAureusError(e) ? new AureusError(said, { exitCode: e.exitCode, diagnostics: e.diagnostics, cause: undo }) : new Error(said, { cause: undo });
    }
    throw e;
  }
}

function readOrNull(abs: string): Buffer | null {
  try {
    return fs.readFileSync(abs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** Each file as it was: its bytes written back, or removed (with the folders the write made, if empty) when it was not there. */
async function putBack(root: string, kept: Array<{ rel: string; bytes: Buffer | null }>): Promise<void> {
  for (const { rel, bytes } of kept) {
    const abs = path.join(root, rel);
    const now = readOrNull(abs);
    if (bytes !== null) {
      if (now === null || !now.equals(bytes)) await writeAtomic(abs, bytes);
      continue;
    }
    if (now === null) continue;
    fs.rmSync(abs, { force: true });
    for (let dir = path.dirname(abs); dir.length > root.length && fs.readdirSync(dir).length === 0; dir = path.dirname(dir)) fs.rmdirSync(dir);
  }
}
