import { Command } from 'commander';
import type { CommandContext } from '../context.js';
import type { AureusError } from '../../errors.js';
import '../../diagnostics/codes/planning.js';
import '../../diagnostics/codes/commit.js';
import { interruptedDuring } from '../../diagnostics/interrupted.js';
import { formatDiagnostics, printJson } from '../io.js';
import { addSteerFlags, type SteerFlags } from './steer-flags.js';
import { inheritErrorHandling } from './index.js';
import { requirePositiveInt } from '../../season/episode-id.js';

/**
 * The `episode` command group. Other modules add their subcommands to the same group
 * (`episode run`): call `episodeCommand(program)`, which creates the group once and returns it.
 */
export function episodeCommand(program: Command): Command {
  const existing = program.commands.find((c) => c.name() === 'episode');
  if (existing) return existing;
  return program
    .command('episode')
    .description('plan and compile episodes')
    .addHelpText('after', `
Examples:
  $ aureus episode plan                  plan the next episode (stages A–D) into its draft folder`);
}


/**
 * A number option, read as every command reads one (season/episode-id.ts requirePositiveInt): a bad
 * value is AUR7010, exit 2, as `episode run --episode x` says it (this command said AUR3008 before).
 */
const int = (name: string, max: number, min = 1) => (v: string): number => requirePositiveInt(name, v, max, min)!;

interface PlanOptions extends SteerFlags {
  season?: number;
  episode?: number;
  seed?: string;
  json?: boolean;
  provider?: string;
  k?: number;
  tokenBudget?: number;
}

export function registerEpisodePlan(program: Command, ctx: () => CommandContext): void {
  const sub = defineEpisodePlan(program);
  inheritErrorHandling(program, sub);
  // With --json a refused plan answers on stdout through the CLI's error boundary (main.ts).
  sub.action(async (opts: PlanOptions) => runEpisodePlan(ctx(), opts));
}

/** `episode plan`'s flags and help only; the work is in runEpisodePlan. */
function defineEpisodePlan(program: Command): Command {
  const episode = episodeCommand(program);
  return addSteerFlags(episode
    .command('plan')
    .description('run planning stages A–D: snapshot, agent proposals, the Director\'s plan and the scene packets')
    .option('--season <n>', 'season number (default: the latest season folder)', int('season', 99))
    .option('--episode <n>', 'episode number (default: the one after the last committed episode)', int('episode', 99))
    .option('--seed <s>', 'planning seed (default: the one `episode run` uses, from the previous cliffhanger or the world)')
    .option('--provider <id>', 'LLM provider for the proposals and director roles (default: config, else offline)')
    .option('--k <hops>', 'subgraph walk depth for packets: 1 or 2', int('k', 2))
    .option('--token-budget <n>', 'estimated tokens allowed per packet', int('token-budget', 200_000, 200))
    .option('--json', 'print a summary object instead of the beat sheet'))
    .addHelpText('after', `
Writes episode_context.json, agent_proposals.json, episode_plan.json and packets/SCxx.json into
the run's draft folder .aureus/runs/<sNNeNN>-<seed>[-<steering8>]-<hash8>/. The same world and seed give
byte-identical files.

Examples:
  $ aureus episode plan                          plan the next episode with its default seed
  $ aureus episode plan --episode 2 --seed alt   another plan for episode 2
  $ aureus -C my-world episode plan --json       machine-readable summary
  $ aureus episode plan --focus thr_murena_trial --cast terentia   steer the Director (notes from aureus note are read too)

Exit codes: 0 planned, 2 unknown id in a steering flag, 3 invalid world or config, 6 no feasible plan
(the diagnostic names the rule, e.g. steer_focus when no move can advance the focus thread), 7 provider
error (--provider anthropic or replay:<dir>), 9 a run holds the lock (a plan writes into the folder a
run uses, so it takes the same lock), 130 interrupted (Ctrl-C: the lock released, the plan's partial
files removed).`);
}

/** Checks the flags, plans the episode (pipeline/plan-episode.ts), then prints the result. */
async function runEpisodePlan(c: CommandContext, opts: PlanOptions): Promise<void> {
  (await import('../../config/overrides.js')).parseSeedFlag(opts.seed);
  // Ctrl-C (or SIGTERM), with the run's handler (run-shared.ts): the plan stops at its next step,
  // removes what it wrote and releases the lock (pipeline/plan-episode.ts), exit 130 (AUR6008).
  // Without one the process died by the signal, leaving the lock's owner record and a partial run folder.
  const { interruptSignal } = await import('./run-shared.js');
  const intr = interruptSignal(c.io.stderr, PLAN_NOTICE);
  const { planEpisodeRun, PlanInterrupted } = await import('../../pipeline/plan-episode.js');
  try {
    const report = await planEpisodeRun({
      root: c.root, season: opts.season, episode: opts.episode, seed: opts.seed, provider: opts.provider,
      k: opts.k as 1 | 2 | undefined, tokenBudget: opts.tokenBudget,
      steer: { focus: opts.focus, require: opts.require, avoid: opts.avoid, cast: opts.cast },
      env: c.io.env, signal: intr.signal,
      onWarnings: (list) => c.io.stderr(formatDiagnostics(list, c.chalk).replace(/^\n/, '')),
    });
    await reportPlan(c, opts, report);
  } catch (e) {
    if (e instanceof PlanInterrupted) throw planInterrupted(e.episode, e.cause);
    throw e;
  } finally {
    intr.dispose();
  }
}

/** What the first and a second Ctrl-C say of a plan. */
const PLAN_NOTICE = { first: 'The partial plan is removed.', again: 'Run `aureus episode plan` again to plan it.' };

/** AUR6008 (exit 130): the plan was interrupted; what it wrote is removed. */
function planInterrupted(episode: string | undefined, cause: unknown): AureusError {
  const where = `episode plan${episode ? ` of ${episode}` : ''}`;
  const hint = 'nothing was planned: the lock is released and the plan\'s partial files removed; run `aureus episode plan` again';
  return interruptedDuring(where, { hint, cause });
}

/** What `episode plan` prints: the JSON summary with --json, else diagnostics on stderr and the beat sheet. */
async function reportPlan(c: CommandContext, opts: PlanOptions, r: import('../../pipeline/plan-episode.js').PlanEpisodeReport): Promise<void> {
  const { artifacts, seed, rel, files, ms, estimate } = r;
  const { plan } = artifacts;
  const apps = plan.beats.flatMap((b) => b.applications);
  if (opts.json) {
    printJson(c.io, {
      episode_id: plan.episode_id, seed, title: plan.title, dir: rel, files,
      scenes: plan.scenes.length,
      applications: { thriller: apps.filter((a) => a.type === 'thriller').length, soap: apps.filter((a) => a.type === 'soap').length, failed: apps.filter((a) => a.outcome === 'fail').length },
      threads_advanced: plan.threads_advanced,
      mandatory: Object.fromEntries(plan.beats.filter((b) => b.tag).map((b) => [b.tag!, b.scene])),
      drama_responses: plan.drama_responses.map((r) => `${r.action}@${r.at}`),
      acceptance: Object.fromEntries(plan.acceptance_checks.map((a) => [a.id, a.passed])),
      director: plan.director,
      estimated_cost_usd: estimate,
      state_hash: plan.state_hash,
      diagnostics: artifacts.diagnostics,
    });
    return;
  }
  if (artifacts.diagnostics.length) c.io.stderr(formatDiagnostics(artifacts.diagnostics, c.chalk).replace(/^\n/, ''));
  const { formatUsd } = await import('../../core/readable.js');
  const est = `estimated cost on the real provider at this routing: ${formatUsd(estimate.usd, 2)} (with --batch ${formatUsd(estimate.batch_usd, 2)}; a clean run, repairs extra)`;
  c.io.stdout(beatSheet(artifacts, c) + `\n${c.chalk.green('✓')} planned ${plan.episode_id} (seed ${seed}) in ${ms} ms: ${files.length} files in ${rel}\n${est}\n`);
}

function beatSheet(a: import('../../stages/planning.js').PlanningArtifacts, c: CommandContext): string {
  const { plan, context } = a;
  const ch = c.chalk;
  const names = new Map<string, string>();
  for (const p of a.packets) for (const m of p.cast) names.set(m.id, m.cue);
  const lines: string[] = [];
  lines.push(ch.bold(`${plan.episode_id} — ${plan.title}`));
  lines.push(`${context.date_text}; tension ${context.tension}; ${context.must_start_immediately ? 'opens immediately after the cliffhanger' : context.time_skip_allowed ? 'time skip allowed' : 'no time skip'}`);
  for (const [f, o] of Object.entries(plan.objectives)) lines.push(`  objective ${f}: ${o}`);
  let act = 0;
  for (const s of plan.scenes) {
    if (s.act !== act) { act = s.act; lines.push('', ch.bold(`ACT ${act} — ${plan.beats.find((b) => b.scene === s.id)?.phase ?? ''}`)); }
    const beat = plan.beats.find((b) => b.scene === s.id);
    const tag = beat?.tag ? ch.magenta(` [${beat.tag.toUpperCase()}]`) : '';
    lines.push(`${ch.cyan(s.id)} day ${s.day} ${s.time_of_day}, ${s.location} — ${s.cast.map((x) => names.get(x) ?? x).join(', ')}${tag}`);
    for (const app of beat?.applications ?? []) {
      const out = app.outcome === 'success' ? ch.green('success') : ch.red('fail');
      const binds = Object.entries(app.bindings).filter(([r]) => r !== 'actor').map(([r, id]) => `${r}=${id}`).join(' ');
      lines.push(`    ${app.id} ${app.operator_id} (${app.type}) by ${app.bindings.actor} ${binds} → ${out}${app.threads_advanced.length ? `; advances ${app.threads_advanced.join(', ')}` : ''}`);
    }
  }
  lines.push('', `threads advanced: ${plan.threads_advanced.join(', ')}`);
  if (plan.drama_responses.length) lines.push(`drama responses: ${plan.drama_responses.map((r) => `${r.action} at ${r.at}`).join('; ')}`);
  const failed = plan.acceptance_checks.filter((x) => !x.passed);
  lines.push(`acceptance: ${plan.acceptance_checks.length - failed.length}/${plan.acceptance_checks.length} checks pass; director: ${plan.director.source}${plan.director.fallback_reason ? ` (fallback: ${plan.director.fallback_reason})` : ''}`);
  return lines.join('\n');
}

export { Command };
