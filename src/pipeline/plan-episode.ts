import fs from 'node:fs';
import path from 'node:path';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import '../diagnostics/codes/planning.js';
import '../diagnostics/codes/commit.js';
import type { AureusConfig } from '../config/types.js';
import type { EpisodeRef } from '../domain/context.js';
import type { World } from '../domain/world.js';
import type { StateHasher } from '../core/state-hash.js';
import type { PlanningArtifacts } from '../stages/planning.js';
import type { CostEstimate } from '../providers/estimate.js';

/**
 * `aureus episode plan`: stages A–D of the next (or a named) episode into the run folder `episode
 * run` would use for it, under the run lock, as `episode run` has pipeline/run-episode.ts. The
 * command parses its flags and prints the report; everything between is here.
 */
export interface PlanEpisodeOptions {
  root: string;
  season?: number;
  episode?: number;
  /** Already checked (parseSeedFlag): default, the seed `episode run` would derive. */
  seed?: string;
  /** `--provider`, over the config file's. */
  provider?: string;
  k?: 1 | 2;
  tokenBudget?: number;
  /** The steering flags as given (--focus, --require…): read once the world has passed its checks. */
  steer: { focus?: string[]; require?: string[]; avoid?: string[]; cast?: string[] };
  env: NodeJS.ProcessEnv;
  /** Aborts the model calls (Ctrl-C). */
  signal?: AbortSignal;
  /** Warnings said as they are found, before the calls they concern: the lock's, a pending commit (AUR6023), the config's. */
  onWarnings: (list: Diagnostic[]) => void;
}

export interface PlanEpisodeReport {
  artifacts: PlanningArtifacts;
  seed: string;
  /** The run folder, relative to the world root. */
  rel: string;
  files: string[];
  ms: number;
  estimate: CostEstimate;
}

/** A plan under way: the episode once known, the topmost folder it made (removed if interrupted), and how to wait for its calls. */
interface PlanJob {
  episode?: string;
  made?: string;
  /** The run folder, once known. */
  runDir?: string;
  /** Resolves once every model call has settled and its run-log line is written. */
  quiet?: () => Promise<void>;
}

/** The plan stopped by its signal (Ctrl-C): what it wrote is removed and the lock released. */
export class PlanInterrupted extends Error {
  constructor(readonly episode: string | undefined, cause: unknown) {
    super(`episode plan${episode ? ` of ${episode}` : ''} interrupted`, { cause });
  }
}

export async function planEpisodeRun(o: PlanEpisodeOptions): Promise<PlanEpisodeReport> {
  // The plan writes into the run folder `episode run` uses for this episode and seed: planning into it
  // while a run holds it raced the run's checkpoints and its removal of the folder after its commit
  // (a season crashed, a plan's files vanished). So a plan takes the run lock, as a run does, and is
  // refused the same way (exit 9, AUR6002) while one holds it; taken before the world is read, so the
  // plan is of the world and the committed episodes as no run is changing them. Outside a world,
  // AUR1000 first: the lock would make `.aureus/` there.
  (await import('../store/load.js')).requireWorldFolder(o.root);
  const lockWarnings: Diagnostic[] = [];
  // A plan refused by the world's checks leaves nothing behind, as `episode run` (which checks before its lock) does:
  // the `.aureus/` the lock made is removed again when nothing else was written into it.
  const aureusDir = `${o.root}/.aureus`;
  const madeAureus = !fs.existsSync(aureusDir);
  const lock = (await import('./lock.js')).acquireLock(o.root, 'episode plan', { warnings: lockWarnings });
  const job: PlanJob = {};
  try {
    if (lockWarnings.length) o.onWarnings(lockWarnings);
    return await planLocked(o, job);
  } catch (e) {
    if (!o.signal?.aborted) {
      // A plan refused before it wrote anything (an unknown id in --cast) leaves no empty run folder behind;
      // one that wrote something (paid answers in its call journal) keeps it for the run that follows.
      await job.quiet?.();
      removeEmptyUpTo(job.runDir, job.made);
      throw e;
    }
    // Removed under the lock: no run sees a partial plan. A run folder that was there before is
    // kept (an interrupted run's checkpoints; its plan files are whole, each written atomically).
    // The calls cancelled with it still log into the folder: it is removed once they are done.
    await job.quiet?.();
    if (job.made) fs.rmSync(job.made, { recursive: true, force: true });
    throw new PlanInterrupted(job.episode, e);
  } finally {
    lock.release();
    try {
      if (madeAureus) fs.rmdirSync(aureusDir); // only when empty: a plan's files keep it
    } catch {
      /* not empty, or gone: nothing to undo */
    }
  }
}

/** Removes `dir` and its parents up to `top` (the topmost folder the plan made) while they are empty. */
function removeEmptyUpTo(dir: string | undefined, top: string | undefined): void {
  if (!dir || !top) return;
  for (let d = dir; d.startsWith(top); d = path.dirname(d)) {
    try {
      fs.rmdirSync(d);
    } catch {
      return; // not empty (or gone): what is in it stays
    }
    if (d === top) return;
  }
}

/** The checks, the target episode and its seed, under the lock, before anything is written. */
async function targetOf(o: PlanEpisodeOptions): Promise<{ world: World; configFile: import('../config/load.js').ConfigFile; ref: EpisodeRef; seed: string; hasher: StateHasher }> {
  const { loadValidatedWorld } = await import('../store/validate.js');
  const { nextEpisodeRef } = await import('../stages/planning.js');
  const { episodeRef } = await import('../domain/context.js');
  const { episodeRelDir } = await import('../paths.js');
  // Everything `aureus validate` checks, before any file is written.
  const { world, configFile, remember } = await loadValidatedWorld(o.root);
  // A killed commit waits to be rolled forward by the next run: say so, since a plan made now is of
  // the world as its files stand, which that commit may still change (status says it too).
  const { pendingCommitEpisodes, pendingCommitWarnings } = await import('./commit-journal.js');
  const pending = pendingCommitWarnings(pendingCommitEpisodes(o.root));
  if (pending.length) o.onWarnings(pending);
  const next = await nextEpisodeRef(o.root, o.season);
  const ref = o.episode !== undefined ? episodeRef(o.season ?? next.season, o.episode) : next;
  (await import('../season/require-season.js')).requireSeasonGoals(o.root, ref.season);
  if (fs.existsSync(path.join(o.root, episodeRelDir(ref), 'episode_plan.json'))) {
    throw new AureusError(`episode ${ref.id} is already committed`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR3007', { season: ref.season, episode: ref.episode, id: ref.id })] });
  }
  // The plan previews the run (README): an episode the run would refuse out of order is refused here too.
  if (o.episode !== undefined) (await import('./episode-choice.js')).refuseOutOfOrder(o.root, ref, next);
  // The plan goes ahead: the checks' verdict may be kept (the derived index; a refused plan writes nothing).
  remember();
  // The same default seed as `episode run` (deriveSeed: the previous cliffhanger's bytes, else the
  // world's hash), so a plan previews exactly the episode a run would compile.
  // One state hasher for the seed's hash of the world and stage A's: the second finds the first's chunks.
  const hasher = new (await import('../core/state-hash.js')).StateHasher();
  const seed = o.seed ?? await defaultRunSeed(o.root, ref, world, hasher);
  return { world, configFile, ref, seed, hasher };
}

/** The plan itself, the run lock held: stages A–D into the run folder, then the cost estimate. */
async function planLocked(o: PlanEpisodeOptions, job: PlanJob): Promise<PlanEpisodeReport> {
  const { resolveConfig, configOrThrow, configWarnings } = await import('../config/load.js');
  const { openLlm, JsonlRunLog } = await import('../providers/index.js');
  const { planEpisode, writePlanningArtifacts, readPreviousCliffhanger } = await import('../stages/planning.js');
  const { runRelDir } = await import('../paths.js');
  const { world, configFile, ref, seed, hasher } = await targetOf(o);
  job.episode = ref.id;
  // Between its steps the plan stops once interrupted (its model calls stop at once, by the signal).
  const stop = () => {
    if (o.signal?.aborted) throw o.signal.reason;
  };
  const { parseSteeringFlags, hasFlags } = await import('../stages/c-director/steering.js');
  const parsed = parseSteeringFlags(o.steer);
  const steering = hasFlags(parsed) ? parsed : null;
  const { runKey } = await import('./staged.js');
  const runDir = path.join(o.root, runRelDir(ref, runKey(seed, steering)));
  const { parseProviderFlag } = await import('../config/overrides.js');
  // The config file as validation read it, with --provider over it: read once.
  const loaded = configOrThrow(resolveConfig(configFile, o.provider ? { provider: parseProviderFlag(o.provider) } : undefined));
  const { config } = loaded;
  // A model at its end-of-life (AUR4010) concerns the calls this plan makes: said before them, as AUR6023.
  const warned = configWarnings(loaded);
  if (warned.length) o.onWarnings(warned);
  stop();
  // The topmost folder made (`.aureus/runs`, or the run folder), if any: what an interrupt removes.
  job.made = await fs.promises.mkdir(runDir, { recursive: true });
  job.runDir = runDir;
  const runLog = new JsonlRunLog(path.join(runDir, 'run_log.jsonl'));
  const router = openLlm({ root: o.root, config, env: o.env, seed, runLog, signal: o.signal, onWarning: (d) => o.onWarnings([d]) });
  // The run folder's call journal, as `episode run` keeps it: the run that follows answers these
  // calls from it (the Director's rejected answers too) instead of paying for them again.
  const { JournaledLlm, journalSalt } = await import('./call-journal.js');
  const llm = new JournaledLlm(router, runDir, () => runLog.flush(), undefined, journalSalt(router.providerId, config), (d) => o.onWarnings([d]));
  job.quiet = async () => {
    await llm.settled();
    await runLog.flush().catch(() => {}); // a write error here concerns a folder about to go
  };
  const previousCliffhanger = await readPreviousCliffhanger(o.root, ref);
  const started = performance.now();
  // The same season inputs as `episode run` (goals, memory, steering and notes, anchors), so the plan previews the run.
  const { seasonPlanningInputs } = await import('./planning-adapter.js');
  const artifacts = await planEpisode({
    ...(await seasonPlanningInputs(o.root, ref, world, steering)),
    world, ref, seed, previousCliffhanger, llm, hasher,
    packets: { ...(o.k ? { k: o.k } : {}), ...(o.tokenBudget ? { tokenBudget: o.tokenBudget } : {}) },
  }).catch(async (e: unknown) => {
    await llm.forgetFailedAnswers(e); // a plan that ends on a bad answer or refusal: the run asks afresh
    throw e;
  });
  stop();
  const files = await writePlanningArtifacts(runDir, artifacts);
  (await import('./checkpoint.js')).testKillHook('plan-written');
  await runLog.finalize();
  stop();
  const ms = Math.round(performance.now() - started);
  const rel = path.relative(o.root, runDir) || '.';
  const estimate = await estimateFor(o.root, config, artifacts);
  return { artifacts, seed, rel, files, ms, estimate };
}

/** The episode's estimated cost from its artifacts (providers/estimate.ts), measured on the writer requests the run would send. */
async function estimateFor(root: string, config: AureusConfig, a: PlanningArtifacts): Promise<CostEstimate> {
  const { estimateEpisodeCost } = await import('../providers/estimate.js');
  const { directorBrief } = await import('../stages/c-director/llm.js');
  const { buildWriterRequest, writerReferences, writerStyleFrom } = await import('../stages/e-writer/prompt.js');
  const { loadStyle } = await import('../style/index.js');
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
async function defaultRunSeed(root: string, ref: EpisodeRef, world: World, hasher: StateHasher): Promise<string> {
  // seed.ts, not run-episode.ts: a plan needs none of the run's git and commit modules.
  const { deriveSeed, previousCliffhangerText } = await import('./seed.js');
  return deriveSeed(ref, previousCliffhangerText(root, ref), world, hasher);
}
