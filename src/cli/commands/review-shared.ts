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
  await requireLiveReview(c);
  const { requireReview } = await import('../../pipeline/review-state.js');
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

/**
 * The staged episode, for a command that works on it (requireReview after requireWorldRepo). A
 * record whose episode is committed already (a kill after its commit left it behind:
 * pipeline/review-finished.ts) is nothing staged (AUR6101, exit 2), said with the commit and what
 * removes the record, rather than a staged episode whose run folder is half gone.
 */
export async function requireLiveReview(c: CommandContext): Promise<ReviewState> {
  await requireWorldRepo(c);
  const { requireReview } = await import('../../pipeline/review-state.js');
  const r = requireReview(c.root);
  const { committedReview } = await import('../../pipeline/review-finished.js');
  const found = await committedReview(c.root, r);
  if (!found) return r;
  const { AureusError, ExitCode } = await import('../../errors.js');
  const { diag } = await import('../../diagnostics/index.js');
  const hint = `${r.episode} is committed as ${found.commit.slice(0, 10)}, tag ${found.tag}; \`aureus episode commit\` (or the next \`aureus episode run\`) removes the review record a kill left behind`;
  throw new AureusError('no episode is staged for review', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6101', {}, { hint })] });
}

/** How restage runs: under a lock its caller holds; to the commit (`episode commit`: the commit step adds the review trailers); what it says as it starts. */
export interface RestageOptions {
  lockHeld?: boolean;
  commit?: boolean;
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
    ...(o.progress ? { progress: o.progress } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  });
}
