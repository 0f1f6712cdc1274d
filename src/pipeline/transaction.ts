import fs from 'node:fs';
import path from 'node:path';
import { stableStringify } from '../core/json.js';
import { sha256 } from '../core/hash.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { RUNS_DIR } from '../paths.js';
import { createGit } from '../git/adapter.js';
import type { GitPort, IndexEntries } from '../git/port.js';
import { durableBarrier, durableBarrierAsync, writeDurable, writeVisible, type BarrierStats } from '../store/durable.js';
import { Checkpoints, STAGED_BASELINE, testKillHook } from './checkpoint.js';
import { refuseChangedSinceCrash } from './recovery-check.js';
import { JOURNAL, journalPath, playCanonization, readJournal, type CommitJournal } from './commit-journal.js';
import { refuseInterruptedRollback } from '../season/rollback-journal.js';
import { clearReviewOfRun } from './review-state.js';
import { abandonCommands, backupBefore, refuseSymlinks, refuseUntrackedOverwrite, removeAtomicTemps, restoreBefore, type BeforeState } from './commit-safety.js';

/**
 * The commit of an episode as a roll-forward transaction (docs/workflow.md, "Atomicity").
 *
 *   1. stage   every file of the commit is written under <run>/stage/ and the journal
 *              <run>/commit.json is written (state "staged"). World and git are untouched.
 *   2. apply   the staged files are copied over the world files and into the episode folder.
 *   3. commit  `git add` + `git commit` of exactly those paths, then the annotated tag.
 *   4. done    the review record of the run folder (if staged for review) is cleared, the
 *              journal removed, then the run folder deleted.
 *
 * A crash before the journal exists leaves world/ and git untouched (the run resumes from its
 * checkpoints). A crash after it is ROLLED FORWARD by the next mutating command: the staged files
 * are complete and canonical, so copying them again, committing and tagging gives exactly the
 * commit an uninterrupted run makes. Each step is idempotent (a commit already made is found by
 * its message on top of the recorded HEAD; a tag already made is kept). A world the author changed
 * meanwhile (HEAD moved, a file of the commit edited) is refused instead, untouched (recovery-check.ts).
 *
 * A git step that FAILS (an existing .git/index.lock, a hook, a symlinked folder) is ROLLED BACK
 * instead: the journal records every path's content before the apply step (copies under
 * <run>/backup/), so world/ and the episode folder are put back, the index is reset and HEAD
 * moved back if it moved; the journal is then removed and the run resumes from its checkpoints.
 */
export interface CommitRequest {
  episode: string; // "s01e03"
  tag: string; // "s01e03"
  message: string;
  /** Repository-relative path -> exact content. */
  files: Record<string, string>;
}

export type { CommitJournal } from './commit-journal.js';
export { hasPendingCommits, pendingCommitEpisodes, pendingCommitJournals } from './commit-journal.js';

export interface CommitResult {
  commit: string;
  tag: string;
  recovered: boolean;
  /** A play canonization's commit (commit-journal.ts playCanonization), not an episode's. */
  play?: { session: string; n: number };
}

/** Write the commit's files under <run>/stage/ (the --no-commit output too). */
export function stageFiles(runDir: string, files: Record<string, string>): string {
  const stageDir = path.join(runDir, 'stage');
  for (const [rel, content] of Object.entries(files)) {
    writeVisible(path.join(stageDir, rel), content);
  }
  // stage/ now holds the stage H checkpoint's files: the baseline kept for the old ones goes
  // (planning-checkpoint.ts stagedFiles).
  fs.rmSync(new Checkpoints(runDir).file(STAGED_BASELINE), { force: true });
  return stageDir;
}

/**
 * Stage, journal, apply, commit and tag (see above). `opts.git`: a batch port the caller already
 * asked its own questions with (run-episode: the tag name, the config); one is opened otherwise.
 */
export async function commitEpisode(root: string, runDir: string, req: CommitRequest, opts: { git?: GitPort; ready?: Promise<unknown> } = {}): Promise<CommitResult> {
  const git = opts.git ?? createGit(root, { batch: true });
  try {
    return await stageAndFinish(git, root, runDir, req, opts.ready);
  } finally {
    if (!opts.git) git.close();
  }
}

/** `ready`: the caller's preparation (run-episode: the diff driver's config), awaited before the journal is written. */
async function stageAndFinish(git: GitPort, root: string, runDir: string, req: CommitRequest, ready?: Promise<unknown>): Promise<CommitResult> {
  ready?.catch(() => undefined); // awaited below: a failure must not go unhandled meanwhile
  const paths = Object.keys(req.files).sort();
  // HEAD is asked for now and read after the stage is written: the git process runs meanwhile
  // (issue 18). Nothing here moves HEAD, and `head()` answers null rather than failing.
  const headBefore = git.head();
  // Refused before anything is written: a link would be written through, then git would reject it;
  // an ignored path or an operation in progress would fail the add or the commit (git/state.ts);
  // a file git has no copy of would be replaced for good (AUR6066).
  refuseSymlinks(root, paths);
  // A rollback a kill cut may have half moved the work tree and the tags (AUR6037).
  refuseInterruptedRollback(root);
  await Promise.all([git.refuseOperationInProgress(), git.refuseIgnored(paths), refuseUntrackedOverwrite(git, root, req.files)]);
  const keepStage = fs.existsSync(path.join(runDir, 'stage'));
  stageFiles(runDir, req.files);
  const before = backupBefore(root, runDir, paths);
  // The journal is written last: its existence means "the stage is complete". So the staged files
  // and backups (written without fsync) are made durable together first, by one barrier, and the
  // journal itself is written durably after it: a power cut can never leave a journal that points
  // at staged files still in the page cache. The barrier runs while HEAD is read (issue 18).
  const staged = durableBarrierAsync([...paths.map((rel) => path.join(runDir, 'stage', rel)), ...backedUp(runDir, before)]);
  staged.catch(() => undefined); // awaited below
  const journal: CommitJournal = {
    format: 1,
    episode: req.episode,
    tag: req.tag,
    message: req.message,
    head_before: await headBefore,
    hashes: Object.fromEntries(Object.entries(req.files).map(([k, v]) => [k, sha256(v)])),
    before,
    ...(keepStage ? { keep_stage: true as const } : {}),
  };
  await Promise.all([staged, ready]);
  writeDurable(journalPath(runDir), stableStringify(journal));
  testKillHook('commit-staged');
  // The staged bytes are the ones in memory: read back and re-hashed only by a recovery.
  return finish(git, root, runDir, journal, req.files);
}

function readStaged(root: string, runDir: string, journal: CommitJournal): Record<string, string> {
  const out: Record<string, string> = {};
  const rels = Object.keys(journal.hashes).sort();
  // The way out, as commands (commit-safety.ts abandonCommands): deleting the run folder alone left
  // the files the apply step wrote, and the next run refused them (AUR6001, AUR6066) without saying why.
  const runRel = path.relative(root, runDir).split(path.sep).join('/');
  const cannot = (message: string) =>
    new AureusError('an interrupted commit cannot be recovered', {
      exitCode: ExitCode.GIT,
      diagnostics: [diag('AUR6018', { file: `${runRel}/${JOURNAL}`, message, abandon: abandonCommands(root, runRel, journal.before, rels) })],
    });
  for (const rel of rels) {
    let content: string;
    try {
      content = fs.readFileSync(path.join(runDir, 'stage', rel), 'utf8');
    } catch (e) {
      throw cannot(`staged file ${rel} cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
    if (sha256(content) !== journal.hashes[rel]) throw cannot(`staged file ${rel} does not match its hash`);
    out[rel] = content;
  }
  return out;
}

/** Apply, commit and tag a journalled commit: a fresh one (`staged`: its files) or a recovered one (null). */
async function finish(git: GitPort, root: string, runDir: string, journal: CommitJournal, staged: Record<string, string> | null): Promise<CommitResult> {
  const recovered = staged === null;
  const files = staged ?? readStaged(root, runDir, journal);
  const paths = Object.keys(files).sort();
  // A fresh commit knows HEAD is still head_before (it read it a moment ago, holding the lock):
  // only a recovered journal has to look for the commit it may already have made.
  let commit = recovered ? await findCommit(git, journal) : null;
  // A recovered journal is finished only over a world as the crash left it (recovery-check.ts).
  const rewrite = recovered ? await refuseChangedSinceCrash(git, root, runDir, journal, commit) : true;
  const progress = { adding: null as IndexEntries | null, committed: null as string | null };
  // A fresh commit's applied files are made durable while git adds, commits and tags them: the
  // barrier starts once they are written and is awaited before the journal is dropped (issue 18).
  let applied: Promise<BarrierStats> | null = null;
  let maintained: Promise<void> | null = null;
  try {
    if (!commit) {
      refuseSymlinks(root, paths);
      for (const rel of paths) writeVisible(path.join(root, rel), files[rel]);
      testKillHook('commit-applied');
      if (!recovered) {
        applied = durableBarrierAsync(paths.map((rel) => path.join(root, rel)));
        applied.catch(() => undefined); // awaited below; a failed git step must not leave it unhandled
      }
      // Only the episode's paths are committed, even if the user staged something else. A failed
      // `git add` may have staged some paths already: the roll-back puts back these entries.
      progress.adding = await git.indexEntries(paths);
      await git.add(paths);
      // git's automatic maintenance runs alongside the tag instead of inside the commit (issue 18).
      commit = await git.commit(journal.message, { paths, deferMaintenance: true });
      maintained = git.autoMaintenance();
      progress.committed = commit;
      testKillHook('commit-committed');
    }
    // A fresh run's preflight already refused an existing tag, so it tags straight away and looks
    // at the tag only if that fails; a recovered journal looks first (the tag may be made already).
    let tagged = recovered ? await git.resolve(`refs/tags/${journal.tag}`) : null;
    if (tagged === null) {
      try {
        await git.tag(journal.tag, journal.message.split('\n')[0], commit);
        tagged = commit;
      } catch (e) {
        tagged = await git.resolve(`refs/tags/${journal.tag}`);
        if (tagged === null) throw e;
      }
    }
    if (tagged !== commit) {
      // Made between this run's preflight and its tag: by a run in another worktree (tags are shared), so
      // "rollback" or "re-run" here cannot help (AUR6064 says what can).
      const branches = await git.branchesContaining(tagged).catch(() => [] as string[]);
      throw new AureusError(`tag ${journal.tag} already exists on another commit`, {
        exitCode: ExitCode.GIT,
        diagnostics: [diag('AUR6064', { episode: journal.episode, tag: journal.tag, other: tagged.slice(0, 10), branches: branches.join(', ') || 'no branch' })],
      });
    }
  } catch (e) {
    await Promise.all([applied?.catch(() => undefined), maintained]);
    if (!journal.before) throw e; // a journal from an older aureus: no record to roll back to
    // A commit whose answer was lost (git/exec.ts: the shell ended while it ran) may have been
    // made: the roll-back must then move HEAD back too.
    if (progress.adding && !progress.committed) progress.committed = await findCommit(git, journal).catch(() => null);
    throw await rollBack(git, root, runDir, journal, progress, e);
  }
  // Removing the run folder drops the journal: the applied files must be on disk before that, or a
  // power cut could leave a committed episode whose world files are empty and no journal to redo them.
  if (applied) await applied;
  else {
    if (recovered && rewrite) reapply(root, files); // the commit may be durable and the files not (power cut)
    durableBarrier(paths.map((rel) => path.join(root, rel)));
  }
  // A staged review of this run folder is over: its record goes before the journal, so no kill leaves
  // "staged for review" beside the committed episode without a journal whose roll-forward ends here.
  clearReviewOfRun(root, path.posix.join(RUNS_DIR, path.basename(runDir)));
  // The journal goes first (one unlink ends the transaction), then the rest of the run folder, its
  // ~200 files removed concurrently: a kill in between leaves a folder with no journal, never a
  // journal whose staged files are half deleted.
  fs.rmSync(journalPath(runDir), { force: true });
  testKillHook('commit-done');
  await Promise.all([removeRunDir(runDir), maintained]);
  return { commit, tag: journal.tag, recovered };
}

/**
 * The run folder of a committed episode, removed. The episode is committed and tagged by now, so a
 * folder that cannot be removed must not fail the run: a process writing into it meanwhile (an
 * `episode plan` of an older aureus, which took no lock) made the recursive removal end in ENOTEMPTY,
 * an internal error after the commit. Retried (node retries ENOTEMPTY, EBUSY, EPERM), then left: it
 * holds no journal, so nothing reads it as a commit to finish, and it is git-ignored scratch.
 */
async function removeRunDir(runDir: string): Promise<void> {
  await fs.promises.rm(runDir, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 }).catch(() => undefined);
}

/** The backup copies backupBefore wrote (paths that existed before the apply step). */
function backedUp(runDir: string, before: BeforeState): string[] {
  return Object.keys(before)
    .filter((rel) => before[rel] !== null)
    .map((rel) => path.join(runDir, 'backup', rel));
}

/**
 * A recovered commit that git already holds: put back any applied file whose bytes differ from the
 * staged ones (after a power cut, files written without fsync may be empty while git's commit is
 * not). The staged bytes are the commit's bytes, so this only makes the work tree match HEAD.
 */
function reapply(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    let current: string | null = null;
    try {
      current = fs.readFileSync(abs, 'utf8');
    } catch {
      /* missing: written below */
    }
    if (current !== content) writeVisible(abs, content);
  }
}

/**
 * Undo a failed apply/commit: HEAD back to where it was (if the commit was made), the index
 * entries of the episode's paths back to what they were before the add (if one was tried), every file back to its
 * recorded content. Then drop the journal, stage (unless a staged review's: keep_stage) and backup,
 * keeping the checkpoints, so the next run resumes and commits. Returns the error to throw: the original, with a note of what was done.
 */
async function rollBack(git: GitPort, root: string, runDir: string, journal: CommitJournal, progress: { adding: IndexEntries | null; committed: string | null }, cause: unknown): Promise<unknown> {
  const paths = Object.keys(journal.hashes).sort();
  const problems: string[] = [];
  const attempt = async (what: string, fn: () => Promise<unknown> | unknown) => {
    try {
      await fn();
    } catch (e) {
      problems.push(`${what}: ${(e as Error).message}`);
    }
  };
  if (progress.committed && journal.head_before && (await git.head()) === progress.committed) {
    await attempt('moving HEAD back', () => git.moveHead(journal.head_before!, progress.committed!));
  }
  const entries = progress.adding;
  if (entries) await attempt('restoring the index', () => git.restoreIndex(paths, entries));
  await attempt('restoring the files', () => restoreBefore(root, runDir, journal.before!));
  if (problems.length) return cause; // the journal stays: the next run rolls forward or reports it
  durableBarrier(paths.map((rel) => path.join(root, rel))); // restored files on disk before the journal goes
  // A staged review's stage/ stays: it holds what the review staged (stage H's files, which the
  // commit staged again byte for byte), and `episode commit` again commits it once the cause is fixed.
  for (const sub of [JOURNAL, ...(journal.keep_stage ? [] : ['stage']), 'backup']) fs.rmSync(path.join(runDir, sub), { recursive: true, force: true });
  if (!(cause instanceof AureusError)) return cause;
  // Re-running cannot commit over a tag another worktree's run made (AUR6064): the note says so instead.
  const taken = cause.diagnostics.some((d) => d.code === 'AUR6064');
  const note = diag('AUR6052', { episode: journal.episode, detail: '' }, taken ? { hint: 'Nothing of this run is committed; its checkpoints stay. See the error above for what to do: re-running here fails the same way while the tag stands.' } : {});
  return new AureusError(cause.message, { exitCode: cause.exitCode, diagnostics: [...cause.diagnostics, note], hint: cause.hint, cause });
}

/** The commit this journal already made, if any: same message, on top of the recorded HEAD. */
async function findCommit(git: GitPort, journal: CommitJournal): Promise<string | null> {
  const head = await git.head();
  if (!head || head === journal.head_before) return null;
  const candidates = journal.head_before ? await git.commitsBetween(journal.head_before, head) : [head];
  for (const sha of candidates) {
    const msg = await git.message(sha);
    if (msg.trim() === journal.message.trim()) return sha;
  }
  return null;
}

/**
 * Roll forward every interrupted commit found under .aureus/runs/ (there is at most one in
 * practice: the lock serialises runs). Call it holding the lock, before the dirty check.
 * `kept`: the warnings a run folder keeps (read before the commit removes it), said after the
 * commit's AUR6004; given the journal's episode id, since the commit it finishes is that episode's.
 */
export async function recoverPendingCommits(root: string, kept: (runDir: string, episode: string) => Diagnostic[] = () => []): Promise<{ results: CommitResult[]; diagnostics: Diagnostic[] }> {
  const runsDir = path.join(root, RUNS_DIR);
  const results: CommitResult[] = [];
  const diagnostics: Diagnostic[] = [];
  // Temp files of writes a kill interrupted: never content, and they would read as a dirty world.
  const temps = removeAtomicTemps(root, ['world', 'operators', 'seasons', RUNS_DIR]);
  if (temps.length) diagnostics.push(diag('AUR6053', { count: temps.length, files: temps.slice(0, 5).join(', ') + (temps.length > 5 ? ', …' : '') }));
  let entries: string[] = [];
  try {
    entries = fs.readdirSync(runsDir).sort();
  } catch {
    return { results, diagnostics };
  }
  for (const name of entries) {
    const runDir = path.join(runsDir, name);
    const journal = readJournal(root, name);
    if (!journal) continue;
    const play = playCanonization(journal.tag);
    const warnings = play ? [] : kept(runDir, journal.episode);
    const git = createGit(root, { batch: true });
    let r: CommitResult;
    try {
      r = await finish(git, root, runDir, journal, null);
    } finally {
      git.close();
    }
    results.push(play ? { ...r, play } : r);
    diagnostics.push(recoveredNote(journal, r, play), ...warnings);
  }
  return { results, diagnostics };
}

/**
 * AUR6004 for a finished commit: an episode's by its id; a play canonization's by its session, with
 * what finishes it as play does (its tag and commit are made; `play --resume` reads them back into
 * the session's log, play/reconcile.ts, instead of judging its proposals again).
 */
function recoveredNote(journal: CommitJournal, r: CommitResult, play: { session: string; n: number } | null): Diagnostic {
  const made = `commit ${r.commit.slice(0, 10)}, tag ${r.tag}`;
  if (!play) return diag('AUR6004', { episode: journal.episode, action: made });
  return diag('AUR6004', { episode: `canonization ${play.n} of play session ${play.session}`, action: `${made}; \`aureus play --resume ${play.session}\` records it in the session` });
}
