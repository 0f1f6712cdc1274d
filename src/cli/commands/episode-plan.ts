import { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { AureusError, ExitCode } from '../../errors.js';
import { diag } from '../../diagnostics/catalog.js';
import type { Diagnostic } from '../../diagnostics/index.js';
import '../../diagnostics/codes/planning.js';
import '../../diagnostics/codes/commit.js';
import { formatDiagnostics, printJson } from '../io.js';
import { addSteerFlags, steeringFrom, type SteerFlags } from './steer-flags.js';
import { inheritErrorHandling } from './index.js';

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


const int = (flag: string, min: number) => (v: string): number => {
  if (!/^\d+$/.test(v) || Number(v) < min) {
    throw new AureusError(`bad ${flag} value "${v}"`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR3008', { option: flag, detail: `"${v}" is not a whole number >= ${min}` })] });
  }
  return Number(v);
};

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
    .option('--season <n>', 'season number (default: the latest season folder)', int('--season', 1))
    .option('--episode <n>', 'episode number (default: the one after the last committed episode)', int('--episode', 1))
    .option('--seed <s>', 'planning seed (default: the one `episode run` uses, from the previous cliffhanger or the world)')
    .option('--provider <id>', 'LLM provider for the proposals and director roles (default: config, else offline)')
    .option('--k <hops>', 'subgraph walk depth for packets: 1 or 2', int('--k', 1))
    .option('--token-budget <n>', 'estimated tokens allowed per packet', int('--token-budget', 200))
    .option('--json', 'print a summary object instead of the beat sheet'))
    .addHelpText('after', `
Writes episode_context.json, agent_proposals.json, episode_plan.json and packets/SCxx.json into
the run's draft folder .aureus/runs/<sNNeNN>-<seed>-<hash8>/. The same world and seed give
byte-identical files.

Examples:
  $ aureus episode plan                          plan the next episode with its default seed
  $ aureus episode plan --episode 2 --seed alt   another plan for episode 2
  $ aureus -C my-world episode plan --json       machine-readable summary
  $ aureus episode plan --focus thr_murena_trial --cast terentia   steer the Director (notes from aureus note are read too)

Exit codes: 0 planned, 2 unknown id in a steering flag, 3 invalid world or config, 6 no feasible plan
(the diagnostic names the rule, e.g. steer_focus when no move can advance the focus thread), 9 a run
holds the lock (a plan writes into the folder a run uses, so it takes the same lock).`);
}

/** Checks the flags and the target episode, plans it into its run folder, then prints the result. */
async function runEpisodePlan(c: CommandContext, opts: PlanOptions): Promise<void> {
  if (opts.k !== undefined && opts.k !== 1 && opts.k !== 2) {
    throw new AureusError('bad --k value', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR3008', { option: '--k', detail: 'the subgraph walk is 1 or 2 hops' })] });
  }
  (await import('../../config/overrides.js')).parseSeedFlag(opts.seed);
  // The plan writes into the run folder `episode run` uses for this episode and seed: planning into it
  // while a run holds it raced the run's checkpoints and its removal of the folder after its commit
  // (a season crashed, a plan's files vanished). So a plan takes the run lock, as a run does, and is
  // refused the same way (exit 9, AUR6002) while one holds it; taken before the world is read, so the
  // plan is of the world and the committed episodes as no run is changing them. Outside a world,
  // AUR1000 first: the lock would make `.aureus/` there.
  (await import('../../store/load.js')).requireWorldFolder(c.root);
  const lockWarnings: Diagnostic[] = [];
  // A plan refused by the world's checks leaves nothing behind, as `episode run` (which checks before its lock) does:
  // the `.aureus/` the lock made is removed again when nothing else was written into it.
  const { existsSync, rmdirSync } = await import('node:fs');
  const aureusDir = `${c.root}/.aureus`;
  const madeAureus = !existsSync(aureusDir);
  const lock = (await import('../../pipeline/lock.js')).acquireLock(c.root, 'episode plan', { warnings: lockWarnings });
  try {
    if (lockWarnings.length) c.io.stderr(formatDiagnostics(lockWarnings, c.chalk).replace(/^\n/, ''));
    await planLocked(c, opts);
  } finally {
    lock.release();
    try {
      if (madeAureus) rmdirSync(aureusDir); // only when empty: a plan's files keep it
    } catch {
      /* not empty, or gone: nothing to undo */
    }
  }
}

/** The plan itself, the run lock held: the checks, the target episode and seed, stages A–D, the report. */
async function planLocked(c: CommandContext, opts: PlanOptions): Promise<void> {
  const path = await import('node:path');
  const { loadValidatedWorld } = await import('../../store/validate.js');
  const { resolveConfig, configOrThrow, configWarnings } = await import('../../config/load.js');
  const { openLlm, JsonlRunLog } = await import('../../providers/index.js');
  const { planEpisode, writePlanningArtifacts, readPreviousCliffhanger, nextEpisodeRef } = await import('../../stages/planning.js');
  const { episodeRef } = await import('../../domain/context.js');
  const { runRelDir, episodeRelDir } = await import('../../paths.js');
  const fs = await import('node:fs');

  // Everything `aureus validate` checks, before any file is written.
  const { world, configFile, remember } = await loadValidatedWorld(c.root);
  // A killed commit waits to be rolled forward by the next run: say so, since a plan made now is of
  // the world as its files stand, which that commit may still change (status says it too).
  const pending = (await import('../../pipeline/transaction.js')).pendingCommitEpisodes(c.root);
  if (pending.length) c.io.stderr(formatDiagnostics([diag('AUR6023', { episodes: pending.join(', ') })], c.chalk).replace(/^\n/, ''));
  const next = await nextEpisodeRef(c.root, opts.season);
  const ref = opts.episode !== undefined ? episodeRef(opts.season ?? next.season, opts.episode) : next;
  (await import('../../season/require-season.js')).requireSeasonGoals(c.root, ref.season);
  if (fs.existsSync(path.join(c.root, episodeRelDir(ref), 'episode_plan.json'))) {
    throw new AureusError(`episode ${ref.id} is already committed`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR3007', { season: ref.season, episode: ref.episode })] });
  }
  // The plan goes ahead: the checks' verdict may be kept (the derived index; a refused plan writes nothing).
  remember();
  // The same default seed as `episode run` (deriveSeed: the previous cliffhanger's bytes, else the
  // world's hash), so a plan previews exactly the episode a run would compile.
  // One state hasher for the seed's hash of the world and stage A's: the second finds the first's chunks.
  const hasher = new (await import('../../core/state-hash.js')).StateHasher();
  const seed = opts.seed ?? await defaultRunSeed(c.root, ref, world, hasher);
  const flags = await steeringFrom(opts);
  const { runKey } = await import('../../pipeline/staged.js');
  const runDir = path.join(c.root, runRelDir(ref, runKey(seed, flags)));
  const { parseProviderFlag } = await import('../../config/overrides.js');
  // The config file as validation read it, with --provider over it: read once.
  const loaded = configOrThrow(resolveConfig(configFile, opts.provider ? { provider: parseProviderFlag(opts.provider) } : undefined));
  const { config } = loaded;
  // A model at its end-of-life (AUR4010) concerns the calls this plan makes: said before them, as AUR6023.
  const warned = configWarnings(loaded);
  if (warned.length) c.io.stderr(formatDiagnostics(warned, c.chalk).replace(/^\n/, ''));
  await fs.promises.mkdir(runDir, { recursive: true });
  const runLog = new JsonlRunLog(path.join(runDir, 'run_log.jsonl'));
  const llm = openLlm({ root: c.root, config, env: c.io.env, seed, runLog });
  const previousCliffhanger = await readPreviousCliffhanger(c.root, ref);
  const started = performance.now();
  // The same season inputs as `episode run` (goals, memory, steering and notes, anchors), so the plan previews the run.
  const { seasonPlanningInputs } = await import('../../pipeline/planning-adapter.js');
  const artifacts = await planEpisode({
    ...(await seasonPlanningInputs(c.root, ref, world, flags)),
    world, ref, seed, previousCliffhanger, llm, hasher,
    packets: { ...(opts.k ? { k: opts.k as 1 | 2 } : {}), ...(opts.tokenBudget ? { tokenBudget: opts.tokenBudget } : {}) },
  });
  const files = await writePlanningArtifacts(runDir, artifacts);
  await runLog.finalize();
  const ms = Math.round(performance.now() - started);
  const rel = path.relative(c.root, runDir) || '.';
  const estimate = await estimateFor(c.root, config, artifacts);
  await reportPlan(c, opts, { artifacts, seed, rel, files, ms, estimate });
}

interface PlanReport {
  artifacts: import('../../stages/planning.js').PlanningArtifacts;
  seed: string;
  /** The run folder, relative to the world root. */
  rel: string;
  files: string[];
  ms: number;
  estimate: Awaited<ReturnType<typeof estimateFor>>;
}

/** What `episode plan` prints: the JSON summary with --json, else diagnostics on stderr and the beat sheet. */
async function reportPlan(c: CommandContext, opts: PlanOptions, r: PlanReport): Promise<void> {
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

/** The episode's estimated cost from its artifacts (providers/estimate.ts), measured on the writer requests the run would send. */
async function estimateFor(root: string, config: import('../../config/types.js').AureusConfig, a: import('../../stages/planning.js').PlanningArtifacts) {
  const { estimateEpisodeCost } = await import('../../providers/estimate.js');
  const { directorBrief } = await import('../../stages/c-director/llm.js');
  const { buildWriterRequest, writerReferences, writerStyleFrom } = await import('../../stages/e-writer/prompt.js');
  const { loadStyle } = await import('../../style/index.js');
  const s = await loadStyle(root);
  const style = writerStyleFrom(s);
  const references = writerReferences(a.packets);
  return estimateEpisodeCost(config, {
    principals: a.proposals.proposals.length,
    director_chars: directorBrief(a.plan, a.context, null).length,
    scenes: a.packets.map((p) => {
      const req = buildWriterRequest(p, style, { seed: a.plan.seed ?? '', attempt: 1, mode: 'write', escalate: p.marquee || undefined, references });
      return { prefix_chars: req.system.length + (req.static_context?.length ?? 0), chars: req.messages.reduce((n, m) => n + m.content.length, 0), marquee: p.marquee };
    }),
  });
}

/** `episode run`'s default seed: deriveSeed over the previous episode's committed cliffhanger text. */
async function defaultRunSeed(root: string, ref: import('../../domain/context.js').EpisodeRef, world: import('../../domain/world.js').World, hasher: import('../../core/state-hash.js').StateHasher): Promise<string> {
  // pipeline/seed.ts, not run-episode.ts: a plan needs none of the run's git, lock and commit modules.
  const { deriveSeed, previousCliffhangerText } = await import('../../pipeline/seed.js');
  return deriveSeed(ref, previousCliffhangerText(root, ref), world, hasher);
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
