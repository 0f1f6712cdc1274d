import fs from 'node:fs';
import path from 'node:path';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { RUNS_DIR } from '../paths.js';
import type { BeforeState } from './commit-safety.js';
import type { CommitRequest } from './transaction.js';
import { readStateFile } from './state-file.js';

/**
 * The commit transaction's journal, <run>/commit.json (transaction.ts): what it is, and reading it
 * back (the roll-forward, and the read-only checks of `status`, `episode plan` and the preflights).
 */
export interface CommitJournal extends Omit<CommitRequest, 'files'> {
  format: 1;
  head_before: string | null;
  /** sha256 of each staged file, so a torn stage is detected instead of committed. */
  hashes: Record<string, string>;
  /** sha256 of each path before the apply step (null: absent), for the roll-back. Older journals lack it. */
  before?: BeforeState;
  /**
   * stage/ was there before this commit began (a staged review's, `episode commit`): the roll-back
   * keeps it, or the review it belongs to would read every staged file as deleted (AUR6111).
   */
  keep_stage?: true;
}

export const JOURNAL = 'commit.json';

export function journalPath(runDir: string): string {
  return path.join(runDir, JOURNAL);
}

/**
 * The session and number of a play canonization's commit, from its tag (`play/<session>/<n>`,
 * play/reconcile.ts canonTag), or null for an episode's (`s01e03`, `<branch>/s01e03`). `aureus play`
 * commits its canonizations through this transaction too: one recovered is finished and named as
 * play's, never taken for an episode.
 */
export function playCanonization(tag: string): { session: string; n: number } | null {
  const m = /^play\/(.+)\/(\d+)$/.exec(tag);
  return m ? { session: m[1]!, n: Number(m[2]) } : null;
}

/**
 * AUR6023 for the interrupted commits a plan is made over (`pending`: their journals' episodes, in
 * order): one for the episodes, named by id, which the next `episode run` finishes; one per play
 * canonization, named by its session, which its `play --resume` finishes (the next `episode run`
 * does too, as play's): a canonization's tag is neither an episode nor finished by episode commands alone.
 */
export function pendingCommitWarnings(pending: readonly string[]): Diagnostic[] {
  const episodes = pending.filter((e) => !playCanonization(e));
  const out = episodes.length ? [diag('AUR6023', { what: episodes.join(', '), finish: 'the next `aureus episode run`' })] : [];
  for (const tag of pending) {
    const play = playCanonization(tag);
    if (play) out.push(diag('AUR6023', { what: `canonization ${play.n} of play session ${play.session}`, finish: playFinish(play.session) }));
  }
  return out;
}

/** What finishes a play session's interrupted canonization (AUR6023, `status`): its resume, or the next episode run, as play's. */
export function playFinish(session: string): string {
  return `\`aureus play --resume ${session}\` (or the next \`aureus episode run\`)`;
}

/** Whether an interrupted commit waits to be rolled forward (read-only: for checks made before the lock). */
export function hasPendingCommits(root: string): boolean {
  try {
    return fs.readdirSync(path.join(root, RUNS_DIR)).some((name) => fs.existsSync(journalPath(path.join(root, RUNS_DIR, name))));
  } catch {
    return false;
  }
}

/** The episodes whose commit was interrupted and waits to be rolled forward (status: the next episode follows them). */
export function pendingCommitEpisodes(root: string): string[] {
  return pendingCommitJournals(root).map((j) => j.episode);
}

/** The journals of the commits waiting to be finished, oldest run folder first (read-only; a damaged one refused, AUR6099). */
export function pendingCommitJournals(root: string): Pick<CommitJournal, 'episode' | 'head_before'>[] {
  const out: Pick<CommitJournal, 'episode' | 'head_before'>[] = [];
  let names: string[] = [];
  try {
    names = fs.readdirSync(path.join(root, RUNS_DIR)).sort();
  } catch {
    return out;
  }
  for (const name of names) {
    const j = readJournal(root, name);
    if (j) out.push({ episode: j.episode, head_before: j.head_before ?? null });
  }
  return out;
}

/**
 * The journal of run folder `name`, or null when it has none. One that is not JSON of its shape is
 * refused (AUR6099, exit 3, each problem with its line:column and pointer): it guards the world's
 * consistency (what to write, what to put back), so nothing is guessed from it.
 */
export function readJournal(root: string, name: string): CommitJournal | null {
  const rel = path.posix.join(RUNS_DIR, name, JOURNAL);
  const r = readStateFile<CommitJournal>(journalPath(path.join(root, RUNS_DIR, name)), rel, 'run/commit_journal');
  if (r.ok) return r.value;
  if (r.missing) return null;
  throw new AureusError('an interrupted commit cannot be recovered', {
    exitCode: ExitCode.INVALID_WORLD,
    diagnostics: [diag('AUR6099', { file: rel, detail: problems(r), run: path.posix.join(RUNS_DIR, name) }, { file: rel }), ...r.diagnostics.slice(0, 10)],
  });
}

/** AUR6099's summary: the problems are listed after it (the first ten), or said in it when there are none to list. */
function problems(r: { detail: string; diagnostics: Diagnostic[] }): string {
  const n = r.diagnostics.length;
  if (n === 0) return r.detail;
  const what = r.diagnostics.some((d) => d.code === 'AUR1005' || d.code === 'AUR1004') ? 'it is not JSON' : 'it is not of a commit journal\'s shape';
  return `${what} (${n} problem${n === 1 ? '' : 's'}${n > 10 ? ', the first 10' : ''} below)`;
}

