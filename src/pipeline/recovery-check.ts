import fs from 'node:fs';
import path from 'node:path';
import { sha256 } from '../core/hash.js';
import { diag } from '../diagnostics/index.js';
import { AureusError, ExitCode } from '../errors.js';
import type { GitPort } from '../git/port.js';
import { RUNS_DIR } from '../paths.js';
import type { BeforeState } from './commit-safety.js';

/** What recovery needs of a commit journal (transaction.ts's CommitJournal). */
export interface JournalView {
  episode: string;
  head_before: string | null;
  hashes: Record<string, string>;
  before?: BeforeState;
}

function currentContent(abs: string): string | null {
  try {
    return fs.readFileSync(abs, 'utf8');
  } catch {
    return null;
  }
}

/** A file a power cut tore (written without fsync): empty or zeros. Never an author's edit worth keeping. */
function torn(content: string): boolean {
  return /^\0*$/.test(content);
}

/**
 * Roll-forward is only safe while the world is as the crash left it: between the crash and the
 * recovery the author may have edited a file of the commit, or committed. Writing the staged files
 * over an edit, or committing the episode on top of a commit it was not computed on, would silently
 * undo the author's work (the journal's before/after hashes and head_before are there to tell).
 * So recovery refuses, changing nothing, when HEAD is neither head_before nor (once the commit is
 * made) that commit, or a path holds neither its before nor its after content. Exit 8, as every
 * refusal to work over the author's uncommitted edits.
 *
 * `commit`: the episode's commit when it is already made (findCommit), else null.
 * Returns whether the files may be (re)written from the stage: false when the author committed on
 * top of the episode's commit, whose files are then theirs.
 */
export async function refuseChangedSinceCrash(git: GitPort, root: string, runDir: string, journal: JournalView, commit: string | null): Promise<boolean> {
  const run = path.posix.join(RUNS_DIR, path.basename(runDir));
  const head = await git.head();
  if (commit !== null && head !== commit) return false; // committed, then built on: only the tag is left
  if (commit === null && head !== journal.head_before) {
    const short = (s: string | null) => (s ? s.slice(0, 10) : '(no commit)');
    throw new AureusError(`the interrupted commit of ${journal.episode} cannot be finished: HEAD moved`, {
      exitCode: ExitCode.DIRTY_WORLD,
      diagnostics: [diag('AUR6058', { episode: journal.episode, before: short(journal.head_before), now: short(head), run })],
    });
  }
  const changed: string[] = [];
  for (const [rel, after] of Object.entries(journal.hashes).sort()) {
    const content = currentContent(path.join(root, rel));
    const hash = content === null ? null : sha256(content);
    if (hash === after) continue;
    if (commit !== null && content !== null && torn(content)) continue; // the commit holds it: rewritten
    if (hash === (await beforeHash(git, journal, rel))) continue;
    changed.push(rel);
  }
  if (changed.length) {
    const files = changed.slice(0, 8).join(', ') + (changed.length > 8 ? `, … (${changed.length} files)` : '');
    throw new AureusError(`the interrupted commit of ${journal.episode} cannot be finished: files changed since`, {
      exitCode: ExitCode.DIRTY_WORLD,
      diagnostics: [diag('AUR6057', { episode: journal.episode, files, run }, { file: changed[0] })],
    });
  }
  return true;
}

/** A journal from an older aureus has no `before`: what head_before holds is what the path held. */
async function beforeHash(git: GitPort, journal: JournalView, rel: string): Promise<string | null> {
  if (journal.before) return journal.before[rel] ?? null;
  if (!journal.head_before) return null;
  const old = await git.showFile(journal.head_before, rel);
  return old === null ? null : sha256(old);
}
