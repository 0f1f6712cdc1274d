import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { inheritErrorHandling } from './index.js';
import { printErrorJson } from '../error-json.js';
import { addRunFlags, COMMIT_NOTICE, finishedDespiteInterrupt, interruptSignal, overridesFrom, printWarnings, renderSummary, RUN_NOTICE, warningsJson, type RunFlags } from './run-shared.js';
import type { Diagnostic } from '../../diagnostics/index.js';
import type { EpisodeRunSummary, RunPreflight } from '../../pipeline/run-episode.js';
import type { ConfigOverrides } from '../../config/types.js';
import type { CostGuard } from '../../providers/cost-guard.js';
import type { CommitWatch, RunWarnings } from '../progress.js';
import { AureusError, ExitCode, isAureusError } from '../../errors.js';
import { printJson } from '../io.js';

type SeasonFlags = RunFlags & { count: string; batch?: boolean };

/** `aureus season run --count N`: N episodes in sequence, each committed, each seeded from the previous cliffhanger. */
export function registerSeason(program: Command, ctx: () => CommandContext): void {
  const sub = defineSeasonRun(program);
  inheritErrorHandling(program, sub);
  sub.action(async (f: SeasonFlags) => runSeason(ctx(), f));
}

/** The `season` group (shared with other season subcommands) and its `run` subcommand: flags and help only. */
function defineSeasonRun(program: Command): Command {
  const group =
    program.commands.find((x) => x.name() === 'season') ??
    program
      .command('season')
      .description('season workflow: compile several episodes in a row')
      .addHelpText('after', `
Examples:
  $ aureus season run --count 3          three episodes, each committed and tagged
See also: aureus status, recap, diff, branch, rollback, export.`);
  return addRunFlags(group.command('run').description('compile N episodes in sequence, each committed and tagged'))
    .option('--count <n>', 'how many episodes, 1 to 99', '1')
    .option('--batch', 'send the real calls through the Message Batches API: half price, slower; batch ids kept in each run folder, so a killed run resumes by polling them')
    .addHelpText(
      'after',
      `
Each episode is committed before the next starts, and each is seeded from the previous episode's
cliffhanger (seed = hash of its cliffhanger_constraints.json), so a season is reproducible. --seed
applies to the first episode only. An interrupted commit recovered at the start counts as one of N.

Examples:
  $ aureus season run --count 3             three episodes offline (CI's command)
  $ aureus season run --count 2 --json      one JSON object with every episode's summary
  $ aureus season run --count 10 --batch    ten episodes through the Message Batches API (half price)
  $ aureus season run --count 5 --max-cost 2.50 --cache-ttl 1h
                                            five episodes for at most $2.50, the prompt cache kept an hour`,
    );
}

/** Validates the flags and runs the season under the lock; usage errors are thrown before anything is touched. */
async function runSeason(c: CommandContext, f: SeasonFlags): Promise<void> {
  const warnings: Diagnostic[] = [];
  // The world files' warnings are said as an episode starts (stderr); the end says the others.
  const { RunWarnings, distinctWarnings } = await import('../progress.js');
  const early = new RunWarnings((ws) => printWarnings(c, ws));
  // Every episode reads the config and the world files anew and adds their warnings (AUR4010): each
  // is said once a season, on stderr as in the JSON.
  const listed = () => warningsJson(distinctWarnings(warnings));
  const done: EpisodeRunSummary[] = [];
  const before: CommittedBefore = { ids: null };
  let count = 0;
  try {
    const flags = await seasonFlags(f);
    count = flags.count;
    await runUnderLock(c, f, { ...flags, warnings, early, done, before });
    // With --json the warnings go in the JSON; scenes left for manual review are said on stderr as well.
    early.say(f.json ? warnings.filter((w) => w.code === 'AUR5097') : warnings);
    if (f.json) printJson(c.io, { episodes: done, warnings: listed() });
  } catch (e) {
    // The episodes committed before the failure stay committed: --json still reports them, and a
    // season refused before its first episode (a bad flag, an invalid or dirty world, a held lock)
    // says why on stdout in the same shape, so a CI job reading the JSON gets an answer whatever
    // failed: on one line, as every command's failure document (README, Exit codes).
    if (f.json) printErrorJson(c.io, e, { episodes: done, warnings: listed() });
    else early.say(warnings);
    await sayWhatFinishes(c, e, count, await committedThisSeason(c.root, done, before));
    throw e;
  }
}

/** The flags read into what the season needs; a usage error (exit 2) for a bad one, before anything is read. */
async function seasonFlags(f: SeasonFlags): Promise<{ count: number; season: number | undefined; overrides: ConfigOverrides }> {
  const { requirePositiveInt } = await import('../../season/episode-id.js');
  const count = requirePositiveInt('count', f.count, 99)!;
  const season = requirePositiveInt('season', f.season);
  if (count > 1 && f.commit === false) {
    // Episode n+1 is planned from episode n's committed world and cliffhanger: nothing to build on.
    const { diag } = await import('../../diagnostics/index.js');
    throw new AureusError(`--no-commit stages one episode, but --count is ${count}`, {
      exitCode: ExitCode.USAGE,
      diagnostics: [diag('AUR7012', { option: '--no-commit', other: `--count ${count}`, reason: 'it stages one episode, and each episode is planned from the committed one before it', fix: 'use --count 1 with --no-commit, or commit the episodes' })],
    });
  }
  const overrides = await overridesFrom(f);
  // A batch is a dependency layer: let every scene of a layer be issued at once.
  if (f.batch) overrides.concurrency = Math.max(overrides.concurrency ?? 0, 64);
  return { count, season, overrides };
}

/**
 * After a failure that left some of the episodes asked committed: which they are and the --count
 * that finishes the season, since the same command again would compile all N anew (each run counts
 * its own episodes), and the failure's own hint speaks only of the episode it stopped.
 */
async function sayWhatFinishes(c: CommandContext, e: unknown, count: number, committed: string[]): Promise<void> {
  if (!committed.length || committed.length >= count) return;
  const { diag } = await import('../../diagnostics/index.js');
  const stay = committed.length === 1 ? 'stays' : 'stay';
  const note = diag('AUR6028', { done: committed.length, count, stay, episodes: committed.join(', '), rest: count - committed.length });
  // Said after the failure's own diagnostics (main prints them); the --json document is already out,
  // so its codes stay the failure's.
  if (isAureusError(e)) {
    for (const d of e.diagnostics) d.hint = seasonHint(d, count - committed.length) ?? d.hint;
    e.diagnostics.push(note);
  }
  else printWarnings(c, [note]);
}

/**
 * The hints of an episode run's failures that say "nothing was committed" and "re-run the same
 * command" (an interrupt, AUR6008; a failed verification, AUR6007; the cost cap, AUR4209; a commit
 * rolled back, AUR6052), as they are true of a season whose earlier episodes stay committed: nothing
 * of the episode it stopped in was, and the same command would compile N more, so the --count that
 * finishes it is named (the one AUR6028 names after them: one instruction, not two).
 * `undefined` for any other diagnostic (its hint stays).
 */
export function seasonHint(d: Diagnostic, rest: number): string | undefined {
  const stopped = 'nothing of the episode it stopped in was committed';
  const finish = `\`aureus season run --count ${rest}\``;
  if (d.code === 'AUR6008') return `${stopped}; ${finish} continues it where it stopped`;
  if (d.code === 'AUR6007') return `${stopped}; fix the world or raise the budget, then ${finish} resumes it`;
  if (d.code === 'AUR4209') return `${stopped}; raise --max-cost (or budgets.max_cost_usd) and ${finish} resumes it`;
  if (d.code === 'AUR6052') return `Fix the cause above, then ${finish}: the episode's run resumes from its checkpoints and commits.`;
  return undefined;
}

/** The episodes committed when the season took the lock (null: it failed before). */
interface CommittedBefore {
  ids: Set<string> | null;
}

/**
 * The episodes this season committed, as git says: those committed now that were not when it took
 * the lock, with those its summaries name. Not the summaries alone: a failure after an episode's
 * commit (its run folder's removal, before the fix, ended in an internal error) left that episode
 * committed and tagged with no summary, and AUR6028 said it was not.
 */
async function committedThisSeason(root: string, done: EpisodeRunSummary[], before: CommittedBefore): Promise<string[]> {
  const summarized = done.filter((s) => s.status !== 'staged').map((s) => s.episode);
  if (!before.ids) return summarized;
  const was = before.ids;
  const { committedEpisodes } = await import('../../season/episodes.js');
  const now = await committedEpisodes(root).catch(() => null);
  if (!now) return summarized;
  return now.map((x) => x.ref.id).filter((id) => !was.has(id) || summarized.includes(id));
}

/** The preflight, the lock and the episodes; the loop's preflight, cost guard and signal are made here. */
async function runUnderLock(c: CommandContext, f: SeasonFlags, s: Pick<SeasonLoop, 'count' | 'season' | 'overrides' | 'warnings' | 'early' | 'done'> & { before: CommittedBefore }): Promise<void> {
  const { acquireLock } = await import('../../pipeline/lock.js');
  await (await import('../../pipeline/world-repo.js')).requireWorldRepo(c.root);
  // Everything `aureus validate` checks, before the lock: a refused season writes nothing.
  const { preflightEpisode } = await import('../../pipeline/run-episode.js');
  const { hasPendingCommits } = await import('../../pipeline/transaction.js');
  const preflight = hasPendingCommits(c.root) ? null : await preflightEpisode({ root: c.root, season: s.season, allowDirty: Boolean(f.allowDirty), noCommit: f.commit === false });
  const lock = acquireLock(c.root, 'season run', { warnings: s.warnings });
  // What is committed already, read under the lock: a failure later reads git again for what this season committed.
  // A git that cannot answer leaves it unknown (null), never the lock held: the summaries say it then.
  const already = await (await import('../../season/episodes.js')).committedEpisodes(c.root).catch(() => null);
  s.before.ids = already && new Set(already.map((x) => x.ref.id));
  const onExit = () => lock.release(); // a second Ctrl-C exits at once
  process.once('exit', onExit);
  // The episode under way's progress: a Ctrl-C during its commit is told the commit (atomic) is
  // finished first, as `episode run` says, not that the run stays resumable.
  const watch: { current: CommitWatch | null } = { current: null };
  const intr = interruptSignal(c.io.stderr, { ...RUN_NOTICE, first: () => (watch.current?.committing ? COMMIT_NOTICE : RUN_NOTICE.first) });
  // The cap (--max-cost, else budgets.max_cost_usd) caps the whole season: one spend tracker across
  // its episodes. Without one here each episode would build its own guard from the config and the
  // season could spend the cap once per episode.
  const { CostGuard } = await import('../../providers/cost-guard.js');
  const cap = s.overrides.maxCostUsd ?? (await configuredCap(c.root, preflight));
  const costGuard = cap !== null ? new CostGuard(cap) : undefined;
  try {
    await runEpisodes(c, f, { ...s, costGuard, preflight, signal: intr.signal, watch });
  } finally {
    intr.dispose();
    process.off('exit', onExit);
    lock.release();
  }
}

/**
 * `budgets.max_cost_usd` as the config file says it (the preflight's read, else a fresh one when a
 * pending commit skipped the preflight). A broken file reads as the defaults (no cap): the episode
 * then refuses the config itself (exit 3) before any call.
 */
async function configuredCap(root: string, preflight: RunPreflight | null): Promise<number | null> {
  const { readConfigFile } = await import('../../config/load.js');
  return (preflight?.configFile ?? readConfigFile(root)).base.budgets.max_cost_usd;
}

interface SeasonLoop {
  count: number;
  season: number | undefined;
  overrides: ConfigOverrides;
  costGuard: CostGuard | undefined;
  preflight: RunPreflight | null;
  warnings: Diagnostic[];
  /** The warnings said as an episode starts, left out at the end. */
  early: RunWarnings;
  signal: AbortSignal;
  /** Filled as episodes finish, so a failure still reports the ones before it. */
  done: EpisodeRunSummary[];
  /** The progress of the episode under way, which knows whether its commit is. */
  watch: { current: CommitWatch | null };
}

/**
 * An interrupt that came once nothing of the episode was left to stop (during its commit, which is
 * atomic and finished first, or as its summary was printed): the episode is committed. The last
 * one asked: the season is done, said as `episode run` says it (exit 0). Otherwise the season stops
 * here, before the next episode begins (exit 130), and names the --count that continues it.
 */
async function stopAfter(c: CommandContext, s: EpisodeRunSummary, rest: number): Promise<void> {
  if (rest === 0) {
    // Said on stderr: with --json stdout holds the one document.
    c.io.stderr(finishedDespiteInterrupt(s));
    return;
  }
  const { diag } = await import('../../diagnostics/index.js');
  const d = diag('AUR6030', { episode: s.episode, rest });
  throw new AureusError(d.message, { exitCode: ExitCode.INTERRUPTED, diagnostics: [d] });
}

/** The episodes one after another, with the lock already held: each seeded from the one before. */
async function runEpisodes(c: CommandContext, f: SeasonFlags, s: SeasonLoop): Promise<void> {
  const { makeProgress, CommitWatch } = await import('../progress.js');
  const { runEpisode } = await import('../../pipeline/run-episode.js');
  for (let i = 0; i < s.count; i++) {
    const progress = new CommitWatch(await makeProgress(c.io, c.chalk, Boolean(f.json), s.early));
    s.watch.current = progress;
    try {
      const summary = await runEpisode({
        root: c.root,
        season: s.season,
        seed: i === 0 ? f.seed : undefined,
        overrides: s.overrides,
        costGuard: s.costGuard,
        batch: Boolean(f.batch),
        noCommit: f.commit === false,
        allowDirty: Boolean(f.allowDirty),
        signal: s.signal,
        progress,
        env: c.io.env,
        warnings: s.warnings,
        lockHeld: true,
        preflight: i === 0 ? s.preflight : undefined,
        // A season's log repeats stages A–H: this line says which episode the next ones are of.
        onEpisode: (id) => { if (!f.json) c.io.stderr(c.chalk.bold(`episode ${i + 1} of ${s.count}: ${id}`) + '\n'); },
      });
      s.done.push(summary);
      await progress.close();
      if (!f.json) c.io.stdout(renderSummary(summary, c));
      if (summary.status === 'staged') break; // --no-commit: the next episode needs this one committed
      if (s.signal.aborted) await stopAfter(c, summary, s.count - s.done.length);
    } catch (e) {
      await progress.close();
      throw e;
    }
  }
}
