import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { inheritErrorHandling, type RegisterCommand } from './index.js';
import { episodeCommand } from './episode-plan.js';
import { COMMIT_NOTICE, finishedDespiteInterrupt, interruptSignal, printWarnings, renderSummary } from './run-shared.js';
import { requireLiveReview, requireWorldRepo, restage } from './review-shared.js';
import type { Diagnostic } from '../../diagnostics/index.js';
import type { ReviewState } from '../../pipeline/review-state.js';
import type { CommittedEpisode } from '../../season/episodes.js';
import { printJson } from '../io.js';
import { AureusError, ExitCode, isAureusError } from '../../errors.js';
import type { ProgressSink } from '../../pipeline/progress.js';
import type { RunWarnings } from '../progress.js';

/** `aureus episode review|commit|discard`: the staged episode of `episode run --review` (issue 16). */
export const registerEpisodeReview: RegisterCommand = (program: Command, ctx: () => CommandContext) => {
  const group = episodeCommand(program);
  const wire = (cmd: Command) => inheritErrorHandling(program, cmd);

  wire(group.command('review')
    .description('show the staged episode: beat sheet, scenes with findings, claims and their fate, cost so far')
    .option('--json', 'print the review as JSON')
    .option('--restore', 'first put back the staged original of every staged file a commit would refuse (AUR6106, AUR6111)')
    .addHelpText('after', `
Examples:
  $ aureus episode run --review && aureus episode review
  $ aureus episode review --json | jq '.scenes[] | select(.findings | length > 0)'
  $ aureus episode review --restore    # a deleted, emptied or broken staged file back as staged`))
    .action(async (o: { json?: boolean; restore?: boolean }) => showReview(ctx(), o));

  wire(group.command('commit')
    .description('commit the staged episode as reviewed (refuses, naming the scene, if a check fails)')
    .option('--json', 'print the run summary as JSON')
    .addHelpText('after', `
Hand edits of the staged script are adopted as edits of their scenes; every scene you touched (all
of them if the world changed since planning) is verified again on the current world, and stage H is
computed again. The commit carries Aureus-Reviewed / Aureus-Edited / Aureus-Rewritten / Aureus-Pinned
trailers.

Examples:
  $ aureus episode commit

Exit codes: 0 committed, or already committed by \`episode commit\` with nothing staged (run again after a kill
that came once its commit was made: AUR6117 names it and its tag), 2 nothing staged (AUR6009 names the
episode a plain run committed last, with its tag), a staged file other than the script changed by hand, or a
staged file deleted, emptied, unreadable or missing a scene (\`episode review --restore\` puts it back),
3 a damaged .aureus/review.json (AUR6199, AUR6112: kept as it is, the hint says how to stage again), 4 a scene breaks a check (AUR6105 names it and the finding), 8 uncommitted world changes, 9 locked,
10 git error (the commit is rolled back), 130 interrupted before the commit (nothing changed, the episode still
staged; during the commit, which is atomic and finished first: 0).`))
    // With --json a refused commit answers on stdout through the CLI's error boundary (main.ts).
    .action(async (o: { json?: boolean }) => commitReviewed(ctx(), o));

  wire(group.command('discard')
    .description('drop the staged episode (its run folder and everything done to it)')
    .addHelpText('after', `\nExamples:\n  $ aureus episode discard`))
    .action(async () => {
      const c = ctx();
      const fs = await import('node:fs');
      const path = await import('node:path');
      const { requireReview, clearReview } = await import('../../pipeline/review-state.js');
      const { withLock } = await import('../../pipeline/lock.js');
      await requireWorldRepo(c);
      const { journalPath } = await import('../../pipeline/commit-journal.js');
      const { AureusError, ExitCode } = await import('../../errors.js');
      const { diag } = await import('../../diagnostics/index.js');
      const r = requireReview(c.root);
      await withLock(c.root, 'episode discard', async () => {
        // An interrupted commit's journal is the only way to finish or undo its half-written world files.
        if (fs.existsSync(journalPath(path.join(c.root, r.run_dir))))
          throw new AureusError(`the commit of ${r.episode} was interrupted`, { exitCode: ExitCode.DIRTY_WORLD, diagnostics: [diag('AUR6114', { episode: r.episode, run_dir: r.run_dir })] });
        fs.rmSync(path.join(c.root, r.run_dir), { recursive: true, force: true });
        clearReview(c.root);
      });
      c.io.stdout(`${c.chalk.green('✓')} discarded the staged ${r.episode} (${r.run_dir})\n`);
    });
};

/**
 * `episode commit`. Ctrl-C is taken as `episode run` takes it at its commit: before the transaction
 * the run stops with nothing changed (130, AUR6008, the episode still staged); during it the commit
 * is finished first and said after it (0). Without a handler the signal killed the process: exit 130
 * without a word, mid-transaction, world files half written and the lock left behind.
 */
async function commitReviewed(c: CommandContext, o: { json?: boolean }): Promise<void> {
  // The world files' warnings (AUR1040: the commit rewrites a CRLF file whole) are said before the
  // commit, as `episode run` says them (stderr, --json too: its summary lists no warnings); the rest after.
  const { earlyWarningsOnly, RunWarnings, CommitWatch } = await import('../progress.js');
  const early = new RunWarnings((ws) => printWarnings(c, ws));
  const progress = new CommitWatch(earlyWarningsOnly(early));
  const intr = interruptSignal(c.io.stderr, { first: () => (progress.committing ? COMMIT_NOTICE : STAYS_STAGED), again: STAYS_STAGED });
  try {
    await commitStaged(c, o, { early, progress, signal: intr.signal });
  } finally {
    intr.dispose();
  }
}

const STAYS_STAGED = 'Nothing is committed: the episode stays staged for review.';

/** The staged episode committed as reviewed: hand edits adopted, touched scenes verified again, stage H anew. */
async function commitStaged(c: CommandContext, o: { json?: boolean }, run: { early: RunWarnings; progress: ProgressSink; signal: AbortSignal }): Promise<void> {
  const { requireReview, reviewChanges } = await import('../../pipeline/review-state.js');
  await requireWorldRepo(c);
  const r = await requireStaged(c, requireReview);
  if ('done' in r) return void (await reportCommitted(c, r.done, o));
  if (await committedAlready(c, r, o)) return;
  const warnings: Diagnostic[] = [];
  const { early, progress, signal } = run;
  try {
    if (signal.aborted) throw await interruptedCommit(r.episode, 'the checks before the run');
    // The commit step adds the review trailers (pipeline/staged.ts reviewTrailers), as it does for a plain run.
    const s = await restage(c, r, warnings, { commit: true, progress, signal });
    printWarnings(c, early.unsaid(warnings));
    // A commit finished from its journal (recovered) says no changes of its own: the record's.
    if (o.json) printJson(c.io, { ...s, reviewed: s.reviewed ?? reviewChanges(r) });
    else c.io.stdout(renderSummary(s, c));
    // Nothing was left to stop (the commit under way is finished first): said after the summary, exit 0.
    if (signal.aborted) c.io.stderr(finishedDespiteInterrupt(s));
  } catch (e) {
    printWarnings(c, early.unsaid(warnings));
    // The world changed so that a staged scene's deltas no longer apply: a refusal, not a bug.
    if (isAureusError(e) && e.diagnostics.some((d) => d.code === 'AUR6016')) throw new AureusError(e.message, { exitCode: ExitCode.VERIFY_FAILED, diagnostics: e.diagnostics });
    // The run's AUR6008 says to re-run with --resume, which `episode commit` has not: its own hint.
    if (isAureusError(e) && e.diagnostics[0]?.code === 'AUR6008') throw await interruptedCommit(r.episode, e.message.replace(/^interrupted during /, ''), e);
    // Ctrl-C reaches the whole process group: a git command of the checks killed by it fails them
    // ("not a git repository"); after an interrupt any failure is the interrupt, as in `episode run`.
    if (signal.aborted) throw await interruptedCommit(r.episode, `the checks of the commit of ${r.episode}`, e);
    throw e;
  }
}

/**
 * The staged episode is committed and tagged already: a kill after its commit left the record
 * (pipeline/review-finished.ts). Run again, `episode commit` answers as for a commit it finished:
 * what is left is removed (under the lock), the commit is reported as recovered, exit 0.
 */
async function committedAlready(c: CommandContext, r: ReviewState, o: { json?: boolean }): Promise<boolean> {
  const { committedReview, committedReviewNote, dropCommittedReview } = await import('../../pipeline/review-finished.js');
  const found = await committedReview(c.root, r);
  if (!found) return false;
  const { withLock } = await import('../../pipeline/lock.js');
  await withLock(c.root, 'episode commit', async () => dropCommittedReview(c.root, r));
  const { recoveredSummary } = await import('../../pipeline/recovered-summary.js');
  const { reviewChanges } = await import('../../pipeline/review-state.js');
  const s = await recoveredSummary(c.root, found.commit, found.tag);
  printWarnings(c, [committedReviewNote(r, found)]);
  if (o.json) printJson(c.io, { ...s, reviewed: reviewChanges(r) });
  else c.io.stdout(renderSummary(s, c));
  return true;
}

/** AUR6008 (exit 130) of an interrupted `episode commit`: nothing committed, the episode still staged. */
async function interruptedCommit(episode: string, where: string, cause?: unknown): Promise<AureusError> {
  const { interruptedDuring } = await import('../../diagnostics/interrupted.js');
  const hint = `nothing was committed and ${episode} stays staged for review; run \`aureus episode commit\` again to commit it`;
  return interruptedDuring(where, { hint, cause });
}

/**
 * The staged episode. With none staged: when the last episode was committed by `episode commit`
 * (this command run again, e.g. after a kill that came once its commit was made), `done` (exit 0,
 * AUR6117); after an episode a plain run committed, that episode is named as committed, with its
 * tag (AUR6009, exit 2), rather than only "nothing is staged".
 */
async function requireStaged(c: CommandContext, requireReview: (root: string) => ReviewState): Promise<ReviewState | { done: CommittedEpisode }> {
  try {
    return requireReview(c.root);
  } catch (e) {
    const { isAureusError, AureusError, ExitCode } = await import('../../errors.js');
    if (!isAureusError(e) || e.diagnostics[0]?.code !== 'AUR6101') throw e;
    const { lastCommittedEpisode } = await import('../../pipeline/review-finished.js');
    const found = await lastCommittedEpisode(c.root);
    if (!found) throw e;
    if (found.reviewed) return { done: found.last };
    const { last } = found;
    const { diag } = await import('../../diagnostics/index.js');
    const hint = `nothing is staged for review: ${last.ref.id} is committed as ${last.commit.slice(0, 10)}, tag ${last.tag}; stage the next episode with \`aureus episode run --review\``;
    throw new AureusError(`episode ${last.ref.id} is already committed (tag ${last.tag}); nothing is staged for review`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6009', { episode: last.ref.id, tag: last.tag }, { hint })] });
  }
}

/** `episode commit` with its episode committed already by `episode commit`: said (AUR6117) with the commit's summary, exit 0. */
async function reportCommitted(c: CommandContext, last: CommittedEpisode, o: { json?: boolean }): Promise<void> {
  const { alreadyCommittedNote } = await import('../../pipeline/review-finished.js');
  const { recoveredSummary } = await import('../../pipeline/recovered-summary.js');
  const s = await recoveredSummary(c.root, last.commit, last.tag);
  printWarnings(c, [alreadyCommittedNote(last)]);
  if (o.json) printJson(c.io, s);
  else c.io.stdout(renderSummary(s, c));
}

/** The review (with --restore, the staged originals of the files a commit would refuse put back first). */
async function showReview(c: CommandContext, o: { json?: boolean; restore?: boolean }): Promise<void> {
  const { loadValidatedWorld } = await import('../../store/validate.js');
  const { reviewView, renderReview } = await import('../../pipeline/review-view.js');
  const r = await requireLiveReview(c);
  if (o.restore) {
    const { withLock } = await import('../../pipeline/lock.js');
    const { restoreStaged } = await import('../../pipeline/staged-edits.js');
    // Said on stderr: --json keeps stdout the review alone.
    for (const x of await withLock(c.root, 'episode review --restore', async () => restoreStaged(c.root, r))) {
      c.io.stderr(`restored ${x.file}${x.kept ? ` (your version: ${x.kept})` : ''}\n`);
    }
  }
  // What `episode commit` would refuse (AUR6106, AUR6111), said before it is tried.
  const { inspectStagedEdits } = await import('../../pipeline/staged-edits.js');
  printWarnings(c, inspectStagedEdits(c.root, r).refused.map((x) => x.diagnostic));
  const { world, remember } = await loadValidatedWorld(c.root);
  remember(); // the derived index (a review is staged, so .aureus/ exists already)
  const v = await reviewView(c.root, world);
  // On stderr, as every command says its warnings; with --json they are in the view too.
  printWarnings(c, v.warnings);
  if (o.json) printJson(c.io, v);
  else c.io.stdout(renderReview(v, c.chalk));
}
