import type { CommandContext } from '../context.js';
import type { World } from '../../domain/world.js';
import type { ConfigFile } from '../../config/load.js';
import type { EpisodeRunSummary } from '../../pipeline/run-episode.js';
import type { ReviewState } from '../../pipeline/review-state.js';
import type { Diagnostic } from '../../diagnostics/index.js';
import type { ProgressSink } from '../../pipeline/progress.js';

/**
 * What the review commands share: under the run lock, load the world and the staged episode, do
 * the operation, then stage the episode again (stage H from the scenes as they now are), so the
 * staged files in the run folder always show what `episode commit` would commit.
 */
export async function underReview<T>(c: CommandContext, command: string, op: (world: World, configFile: ConfigFile, say: (list: Diagnostic[]) => void) => Promise<T>): Promise<{ result: T; staged: EpisodeRunSummary; warnings: Diagnostic[] }> {
  await requireWorldRepo(c);
  const { requireReview } = await import('../../pipeline/review-state.js');
  requireReview(c.root);
  const { withLock } = await import('../../pipeline/lock.js');
  const warnings: Diagnostic[] = [];
  // What the operation says as it goes (the config's warnings before a model call) is not said again at the end.
  const { RunWarnings } = await import('../progress.js');
  const { printWarnings } = await import('./run-shared.js');
  const early = new RunWarnings((ws) => printWarnings(c, ws));
  return withLock(c.root, command, async () => {
    const { loadValidatedWorld } = await import('../../store/validate.js');
    const { world, configFile, remember } = await loadValidatedWorld(c.root);
    remember(); // under the lock: the operation goes ahead (derived index)
    // Hand edits of the staged script first: the operation drops the staged stage H, they must not go with it.
    const { adoptStagedEdits } = await import('../../pipeline/scene-ops.js');
    await adoptStagedEdits(c.root, requireReview(c.root), world, warnings);
    // The config as validation read it: an operation that calls a model resolves it, not a second read.
    const result = await op(world, configFile, (list) => early.say(list));
    const staged = await restage(c, requireReview(c.root), warnings, { lockHeld: true });
    return { result, staged, warnings };
  }, warnings).finally(() => {
    // Adopted hand edits of the staged script (AUR6107), a stale lock removed…: always said.
    printWarnings(c, early.unsaid(warnings));
  });
}

/**
 * Every review command's first check, before it asks what is staged (pipeline/world-repo.ts). A
 * world outside git has no staged episode either, but "no episode staged" (AUR6101) would send its
 * user to `episode run --review`, which refuses it for the missing repository.
 */
export async function requireWorldRepo(c: CommandContext): Promise<void> {
  await (await import('../../pipeline/world-repo.js')).requireWorldRepo(c.root);
}

/** How restage runs: under a lock its caller holds; to the commit (`episode commit`), with its trailers; what it says as it starts. */
export interface RestageOptions {
  lockHeld?: boolean;
  commit?: boolean;
  trailers?: string[] | (() => string[]);
  progress?: ProgressSink;
  /** Ctrl-C (`episode commit`): the run stops before its commit, or finishes the commit under way. */
  signal?: AbortSignal;
}

/** `episode run` of the staged episode again: its own run folder, from its checkpoints. */
export async function restage(c: CommandContext, r: ReviewState, warnings: Diagnostic[], o: RestageOptions = {}): Promise<EpisodeRunSummary> {
  const { runEpisode } = await import('../../pipeline/run-episode.js');
  return runEpisode({
    root: c.root,
    season: r.season,
    episode: r.episode_number,
    seed: r.seed,
    steering: r.steering,
    noCommit: !o.commit,
    allowDirtyFlag: false, // `episode commit` takes no --allow-dirty: its dirty refusal must not offer it
    lockHeld: Boolean(o.lockHeld),
    env: c.io.env,
    warnings,
    trailers: o.trailers ?? [],
    ...(o.progress ? { progress: o.progress } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  });
}
