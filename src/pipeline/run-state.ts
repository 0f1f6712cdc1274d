import path from 'node:path';
import type { CliffhangerConstraints, EpisodeRef } from '../domain/context.js';
import type { World } from '../domain/world.js';
import { AureusError } from '../errors.js';
import type { Diagnostic } from '../diagnostics/index.js';
import { interruptedDuring } from '../diagnostics/interrupted.js';
import { runRelDir } from '../paths.js';
import type { AureusConfig, ConfigOverrides } from '../config/types.js';
import type { LlmRequest } from '../ports/llm.js';
import type { GitPort } from '../git/port.js';
import { SceneTracker, SilentProgress, type ProgressSink } from './progress.js';
import { Checkpoints } from './checkpoint.js';
import { JournaledLlm, journalSalt, journalSpend } from './call-journal.js';
import type { RunPreflight } from './episode-choice.js';
import { deriveSeed, previousCliffhangerText } from './seed.js';
import { StateHasher } from '../core/state-hash.js';
import type { SaidReview } from './run-summary.js';

/**
 * `aureus episode run`: stages A–H composed, checkpointed, resumable, committed atomically.
 * See docs/workflow.md for the run folder, the checkpoints and the commit transaction.
 */
export interface EpisodeRunOptions {
  root: string;
  season?: number;
  episode?: number;
  seed?: string;
  overrides?: ConfigOverrides;
  noCommit?: boolean;
  allowDirty?: boolean;
  /** false: the command takes no --allow-dirty (`episode commit`): the dirty refusal does not suggest it. */
  allowDirtyFlag?: boolean;
  /** Informational: a plain re-run resumes too (same episode + seed = same run folder). */
  resume?: boolean;
  signal?: AbortSignal;
  progress?: ProgressSink;
  env?: NodeJS.ProcessEnv;
  /** Warnings and notes gathered on the way (stale lock removed, commit recovered…). */
  warnings?: Diagnostic[];
  /** The caller already holds the lock (season run). */
  lockHeld?: boolean;
  /** Told the episode's id once it is chosen, before any stage (season run's "episode 2 of 3" line). */
  onEpisode?: (episode: string) => void;
  /** Checks already made by the caller before taking the lock (season run), see preflightEpisode. */
  preflight?: RunPreflight | null;
  /** Issue 16: the showrunner's steering flags (a staged review's trailers are the commit step's: pipeline/staged.ts). */
  steering?: import('../stages/c-director/steering.js').Steering | null;
  /** The spend and `--max-cost` cap shared across a season's episodes (default: one per episode, from config). */
  costGuard?: import('../providers/cost-guard.js').CostGuard;
  /** `season run --batch`: real calls go through the Message Batches API (batch ids kept in the run folder). */
  batch?: boolean;
}

/**
 * Map any failure after an abort to the documented "interrupted" error (exit 130), naming the
 * episode: in a season's log the step alone does not say which episode stopped.
 */
export function interrupted(run: Pick<Run, 'where' | 'ref'>, cause: unknown): AureusError {
  const where = `${run.where} of ${run.ref.id}`;
  return interruptedDuring(where, { cause });
}

/** Everything the steps of one run share once the episode, seed and run folder are known. */
export interface Run {
  o: EpisodeRunOptions;
  /** The run's batch git port (runEpisode closes it). */
  git: GitPort;
  root: string;
  ref: EpisodeRef;
  world: World;
  seed: string;
  previousCliffhanger: CliffhangerConstraints | null;
  /** The state hasher that took the default seed's world hash: stage A reuses its chunk digests. */
  hasher: StateHasher;
  config: AureusConfig;
  runDir: string;
  runRel: string;
  cp: Checkpoints;
  llm: JournaledLlm;
  providerId: string;
  runLogFile: string;
  flushRunLog: () => Promise<void>;
  progress: ProgressSink;
  /** Scene states and counters for E–G (the counters follow the scene lines). */
  tracker: SceneTracker;
  warnings: Diagnostic[];
  /** The AUR5097 among `warnings` (naming the run folder's report until the commit renames it). */
  review: SaidReview | null;
  where: string;
  check: () => void;
}

/** The run folder, seed, config, provider and journal of a run whose checks passed, under the lock. */
export async function openRun(o: EpisodeRunOptions, checked: RunPreflight, git: GitPort): Promise<Run> {
  const root = o.root;
  const progress = o.progress ?? new SilentProgress();
  const { ref, world } = checked;
  // The run goes ahead (the lock is held): the checks' verdict may now be kept (derived index).
  checked.remember();
  // Read as `episode plan` reads it (the store's reader, its shape checked: AUR3003, exit 3); a bare
  // JSON.parse here took a BOM or a hand edit for an internal error.
  const { readPreviousCliffhanger } = await import('../stages/planning.js');
  const previousCliffhanger = await readPreviousCliffhanger(root, ref);
  const prevText = previousCliffhangerText(root, ref);
  const hasher = new StateHasher();
  const seed = o.seed ?? deriveSeed(ref, prevText, world, hasher);
  // The config file as the preflight read it: one read per run, the flags resolved over it here.
  const { resolveConfig, configOrThrow, configWarnings } = await import('../config/load.js');
  const loaded = configOrThrow(resolveConfig(checked.configFile, o.overrides));
  const { config } = loaded;
  // Said now, with the world's, and kept with the run's (config/load.ts configWarnings).
  const warned = configWarnings(loaded);
  if (warned.length) {
    o.warnings?.push(...warned);
    progress.warnings(warned);
  }
  const staged = await import('./staged.js');
  const runRel = runRelDir(ref, staged.runKey(seed, o.steering));
  await staged.beforeRun({ root, ref, runRel, world, commit: !o.noCommit, warnings: o.warnings ?? [] });
  const runDir = path.join(root, runRel);
  const { JsonlRunLog, openLlm } = await import('../providers/index.js');
  const runLogFile = path.join(runDir, 'run_log.jsonl');
  const runLog = new JsonlRunLog(runLogFile);
  // A resumed run's journaled calls were paid for: they count against --max-cost.
  const { CostGuard } = await import('../providers/cost-guard.js');
  const costGuard = o.costGuard ?? (config.budgets.max_cost_usd !== null ? new CostGuard(config.budgets.max_cost_usd, journalSpend(runDir)) : undefined);
  // A corrupt cache entry (AUR4302) is said as it is found, and listed with the run's warnings.
  const onWarning = (d: Diagnostic) => {
    o.warnings?.push(d);
    progress.warnings([d]);
  };
  const router = openLlm({ root, config, seed, runLog, signal: o.signal, env: o.env ?? process.env, onNotice: (t) => progress.notice(t), onWarning, costGuard, ...(o.batch ? { batch: { runDir } } : {}) });
  const tracker = new SceneTracker(progress, () => ({ active: llm.active, waiting: router.pending.queued }));
  const llm: JournaledLlm = new JournaledLlm(router, runDir, () => runLog.flush(), (req: LlmRequest) => {
    const scene = req.meta?.scene;
    if (!scene) return;
    if (req.role === 'writer') tracker.scene(scene, (req.meta?.attempt ?? 1) > 1 ? 'repairing' : 'writing', `attempt ${req.meta?.attempt ?? 1}`);
    else if (req.role === 'critic') tracker.scene(scene, 'verifying');
  }, journalSalt(router.providerId, config), onWarning);
  const run: Run = {
    o, git, root, ref, world, seed, hasher, config, runDir, runRel, llm, progress, tracker,
    previousCliffhanger,
    cp: new Checkpoints(runDir, onWarning),
    providerId: router.providerId,
    runLogFile,
    flushRunLog: () => runLog.flush(),
    warnings: o.warnings ?? [],
    review: null,
    where: 'planning',
    check: () => {
      if (o.signal?.aborted) throw interrupted(run, o.signal.reason);
    },
  };
  return run;
}
