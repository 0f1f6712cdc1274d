import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { episodeCommand } from './episode-plan.js';
import { inheritErrorHandling } from './index.js';
import { printErrorJson } from '../error-json.js';
import { addRunFlags, COMMIT_NOTICE, finishedDespiteInterrupt, interruptSignal, overridesFrom, printWarnings, renderSummary, RUN_NOTICE, warningsJson, type RunFlags } from './run-shared.js';
import type { Diagnostic } from '../../diagnostics/index.js';
import { addSteerFlags, steeringFrom, type SteerFlags } from './steer-flags.js';
import { printJson } from '../io.js';

/** `aureus episode run`: compile the next episode, A–H, and commit it. */
export function registerEpisodeRun(program: Command, ctx: () => CommandContext): void {
  const group = episodeCommand(program);
  const sub = addSteerFlags(addRunFlags(group.command('run').description('compile an episode end to end (stages A–H) and commit it to git with its tag'))
    .option('--episode <n>', 'episode number (default: the one after the last committed episode)'))
    .option('--review', 'stop before the commit and keep the episode staged for review (see `aureus episode review`)')
    .addHelpText(
      'after',
      `
Runs the snapshot, proposals, plan, packets, writing, verification, repair and commit. Every stage
and every finished scene is checkpointed in .aureus/runs/<sNNeNN>-<seed>[-<steering8>]-<hash8>/: after a crash,
a kill or Ctrl-C, run the same command again (or add --resume) and it continues without repeating
finished LLM calls. The commit holds only the world files and seasons/season_NN/episode_NN/, tagged sNNeNN.

Examples:
  $ aureus episode run                         the next episode, offline unless ANTHROPIC_API_KEY is set
  $ aureus episode run --seed alt --no-commit  a variant, staged in the run folder only
  $ aureus episode run --chaos 0.3             watch the verifier and repair loop work
  $ aureus episode run --json | jq .commit
  $ aureus episode run --review                stage it, then: episode review, scene edit/rewrite/pin, episode commit
  $ aureus episode run --focus thr_murena_trial --require op_bribe@crassus --avoid op_assassination_attempt
  $ aureus episode run --provider anthropic --max-cost 0.60   stop before the spend could pass $0.60

Exit codes: 0 committed, 3 invalid world/config, 5 repair budget or --max-cost exhausted (resumable), 6 no feasible
plan, 7 provider error, 8 uncommitted world changes, 9 another run holds the lock, 10 git error,
130 interrupted (resumable; during the commit, which is atomic and finished first: 0, nothing to resume).`,
    );
  inheritErrorHandling(program, sub);
  sub.action(async (f: RunFlags & SteerFlags & { episode?: string; review?: boolean }) => {
    const c = ctx();
    const { season, episode, overrides, steering } = await answered(c, f, async () => {
      const { requirePositiveInt } = await import('../../season/episode-id.js');
      return { season: requirePositiveInt('season', f.season), episode: requirePositiveInt('episode', f.episode), overrides: await overridesFrom(f), steering: await steeringFrom(f) };
    });
    const { makeProgress, RunWarnings, CommitWatch } = await import('../progress.js');
    const { runEpisode } = await import('../../pipeline/run-episode.js');
    // The world files' warnings are said as the run starts (stderr); the end says the others.
    const early = new RunWarnings((ws) => printWarnings(c, ws));
    const progress = new CommitWatch(await makeProgress(c.io, c.chalk, Boolean(f.json), early));
    const warnings: Diagnostic[] = [];
    const intr = interruptSignal(c.io.stderr, { ...RUN_NOTICE, first: () => (progress.committing ? COMMIT_NOTICE : RUN_NOTICE.first) });
    try {
      const s = await runEpisode({
        root: c.root,
        season,
        episode,
        seed: f.seed,
        overrides,
        noCommit: f.commit === false || Boolean(f.review),
        steering,
        allowDirty: Boolean(f.allowDirty),
        resume: Boolean(f.resume),
        signal: intr.signal,
        progress,
        env: c.io.env,
        warnings,
      });
      await progress.close();
      // With --json the warnings go in the JSON; scenes left for manual review are said on stderr as well.
      printWarnings(c, early.unsaid(f.json ? warnings.filter((w) => w.code === 'AUR5097') : warnings));
      if (f.json) printJson(c.io, { ...s, warnings: warningsJson(warnings) });
      else c.io.stdout(renderSummary(s, c));
      // Nothing was left to stop: said after the summary, exit 0 (the episode is done).
      if (intr.signal.aborted) c.io.stderr(finishedDespiteInterrupt(s));
    } catch (e) {
      await progress.close();
      // With --json a refused or failed run answers on stdout with its warnings beside the error (the
      // CLI's boundary prints the bare error only for a command that has not answered); the
      // diagnostics are said on stderr all the same.
      printWarnings(c, early.unsaid(f.json ? warnings.filter((w) => w.code === 'AUR5097') : warnings));
      if (f.json) printErrorJson(c.io, e, { warnings: warningsJson(warnings) });
      throw e;
    } finally {
      intr.dispose();
    }
  });
}

/**
 * The flags read (a bad value is a usage error, exit 2, before anything is touched); with --json a
 * refusal here answers in the run's failure shape, `{error, warnings: []}`, as one found later does
 * (README: a run that fails or is refused prints one JSON object).
 */
async function answered<T>(c: CommandContext, f: { json?: boolean }, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (f.json) printErrorJson(c.io, e, { warnings: [] });
    throw e;
  }
}
