import path from 'node:path';
import type { ApprovedScene, VerifierReport } from '../domain/scene.js';
import { AureusError, ExitCode, isAureusError } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { createGit } from '../git/adapter.js';
import { openShellRunner } from '../io/shell-runner.js';
import { cleanEnv } from '../git/exec.js';
import type { GitPort } from '../git/port.js';
import { ENTITY_DIFF_CONFIG } from '../git/attributes.js';
import { SilentProgress, StageWatch } from './progress.js';
import { testKillHook } from './checkpoint.js';
import { acquireLock } from './lock.js';
import { hasPendingCommits, recoverPendingCommits } from './transaction.js';
import { runPlanning, seasonPlanningInputs, type PlanningOutput } from './planning-adapter.js';
import { readReview } from './review-state.js';
import { changedParts, episodeInputPaths, planningDigest, type PlanningDigest } from './planning-inputs.js';
import { preflightEpisode, type RunPreflight } from './episode-choice.js';
import { requireWorldFolder } from '../store/load.js';
import { sayReview, type EpisodeRunSummary, type StageHCheckpoint } from './run-summary.js';
import { clearReviewOf, episodeOfTag, recoveredFor, recoveredSummary } from './recovered-summary.js';
import { dropCheckpoints, keptWarnings, loadPlanning, loadStageH, savePlanning, saveStageH, type PlanningCheckpoint } from './planning-checkpoint.js';
import { runStageH } from './run-stage-h.js';
import { storePlanningBlobs } from './early-blobs.js';
import { startVerifyPool, thisHost, verifyWorkers, type VerifyPool } from '../stages/verify-pool.js';
import { interrupted, openRun, type EpisodeRunOptions, type Run } from './run-state.js';
import { commitStep } from './commit-step.js';

export { preflightEpisode, type RunPreflight } from './episode-choice.js';
export type { EpisodeRunSummary } from './run-summary.js';
export type { EpisodeRunOptions } from './run-state.js';

/**
 * `aureus episode run`: stages A–H composed, checkpointed, resumable, committed atomically.
 * See docs/workflow.md for the run folder, the checkpoints and the commit transaction; the run's
 * shared state is opened in run-state.ts, the commit step is commit-step.ts.
 */
export async function runEpisode(o: EpisodeRunOptions): Promise<EpisodeRunSummary> {
  // One batch port for the run: its ref questions (HEAD before the lock and under it, the tag name,
  // HEAD around the commit) go to one `git cat-file` process, started now, while this process is
  // small: each process Node starts costs a fork whose price grows with the heap (issue 18).
  const git = createGit(o.root, { batch: true });
  // Likewise the run's other child processes (the preflight's and the commit's git commands)
  // start from one small shell started now (io/shell-runner.ts),
  // with git's environment (cleanEnv: its commands' lines then name only what differs).
  const closeShell = o.noCommit ? () => undefined : openShellRunner(cleanEnv());
  const progress = new StageWatch(o.progress ?? new SilentProgress());
  try {
    return await checkedRun({ ...o, progress }, git);
  } catch (e) {
    // The stage under way when the run failed is told so: a plain log otherwise ends on
    // "commit and tag …" with no mark, above the error.
    progress.failOpen(o.signal?.aborted ? 'interrupted' : undefined);
    throw e;
  } finally {
    git.close();
    closeShell();
  }
}

async function checkedRun(o: EpisodeRunOptions, git: GitPort): Promise<EpisodeRunSummary> {
  // The commit's config question (the diff driver, the identity) is asked now, read-only, while
  // this process is small; commitStep sets what differs (issue 18).
  if (!o.noCommit) git.prefetchConfig(ENTITY_DIFF_CONFIG.map(([key]) => key));
  // An interrupted commit changes the world when it is rolled forward (under the lock): the checks
  // then wait for it. Otherwise they come first, so a refused run writes nothing. The repository
  // check (a git process) runs alongside them (issue 18); its refusal still comes first.
  // Not a world at all (an empty folder, git or not): AUR1000, before the repository's AUR6011.
  requireWorldFolder(o.root);
  const [repo, checks] = await Promise.allSettled([git.requireRepo(), o.preflight ?? (hasPendingCommits(o.root) ? null : preflightEpisode(o, git))]);
  if (repo.status === 'rejected') throw repo.reason;
  if (checks.status === 'rejected') throw checks.reason;
  const pre = checks.value;
  const lock = o.lockHeld ? null : acquireLock(o.root, 'episode run', { warnings: o.warnings });
  testKillHook('run-locked');
  // A second Ctrl-C exits at once (process.exit): the lock still goes; the checkpoints stay.
  const onExit = () => lock?.release();
  process.once('exit', onExit);
  // Stage F's verification workers start once the checks have passed and the lock is held (a
  // refused run loads no verifier) and the preflight's git processes are forked (a fork costs more
  // while a worker grows its heap): they load the verifier and compromise on another core while
  // this thread plans (stages/verify-pool.ts, issue 18).
  const workers = verifyWorkers(o.env ?? process.env, thisHost());
  if (workers.warning) o.warnings?.push(workers.warning);
  const pool = startVerifyPool({ size: workers.count, signal: o.signal });
  try {
    return await runLocked(o, pre, git, pool);
  } finally {
    pool.close();
    process.off('exit', onExit);
    lock?.release();
  }
}

async function runLocked(o: EpisodeRunOptions, pre: RunPreflight | null, git: GitPort, pool: VerifyPool): Promise<EpisodeRunSummary> {
  const root = o.root;
  // 1. Finish any commit a crash interrupted (roll forward), before looking at the tree.
  const rec = await recoverPendingCommits(root, keptWarnings);
  (o.warnings ?? []).push(...rec.diagnostics);
  // The episode the run was for is now committed: that is its answer (`episode commit` re-run after
  // a kill names its episode; preflight would refuse it as already committed, AUR6009, and point to rollback).
  const done = rec.results.length ? recoveredFor(rec.results, o) : undefined;
  if (done) {
    clearReviewOf(root, episodeOfTag(done.tag));
    return recoveredSummary(root, done.commit, done.tag);
  }
  // 2. Dirty world, episode, full validation: done before the lock unless the world may have
  // changed since (a commit rolled forward, or another run committed before we took the lock).
  const checked = pre && !rec.results.length && (await git.head()) === pre.head ? pre : await preflightEpisode(o, git);
  o.onEpisode?.(checked.ref.id);
  (o.warnings ?? []).push(...checked.warnings);
  // Said now, before the work, as well as returned: they are about what the commit will do.
  o.progress?.warnings(checked.warnings);
  const run = await openRun(o, checked, git);
  let early: Promise<boolean | null> | null = null;
  let written: Promise<void> | null = null;
  try {
    const planning = await planningStep(run);
    // With a verification worker this thread mostly waits during the scenes: git stores the
    // planning files' blobs meanwhile (pipeline/early-blobs.ts). Never rejects.
    written = planning.written;
    early = o.noCommit || run.cp.has('stage-h') ? null : planning.written.then(() => storePlanningBlobs(git, planning.stored, pool.live));
    const scenes = await scenesStep(run, planning.output, pool);
    await planning.written; // stage H's checkpoint names the planning checkpoint's files
    // Stage F is done: the workers go now, so that the commit's git processes fork a smaller process.
    pool.close();
    run.where = 'stage H';
    let h = loadStageH(run.cp, planning.files);
    if (h) run.progress.stage('H', 'resumed');
    else {
      run.progress.stage('H', 'running');
      const carried = o.allowDirty ? await (await import('./clean-world.js')).dirtyWorldFiles(git) : [];
      h = saveStageH(run.cp, await runStageH({ ...run, planning: planning.output, scenes: scenes.output, signal: o.signal, planned: planning.files, carried }), planning.files);
      run.progress.stage('H', 'done');
    }
    // The recap's warnings travel in the checkpoint: a resumed run does not call the recap again.
    run.warnings.push(...(h.warnings ?? []));
    // Stored before the commit's `git add` looks for them (and never two git processes writing one object).
    await early;
    return await commitStep(run, await withCarriedEdits(run, h), { planning: planning.resumed, scenes: scenes.resumed });
  } catch (e) {
    // A run that ends on a model's bad answer resumes with fresh answers, not that failure again
    // (nor a sibling call's, refused as it landed after this one: forgotten once all have settled).
    await run.llm.forgetFailedAnswers(e);
    await Promise.all([written, early]); // the run's shell stays open until the store is done
    if (o.signal?.aborted && !(isAureusError(e) && e.exitCode === ExitCode.INTERRUPTED && e.diagnostics[0]?.code === 'AUR6008')) throw interrupted(run, e);
    if (isAureusError(e) && e.exitCode === ExitCode.INTERRUPTED && e.diagnostics[0]?.code !== 'AUR6008') throw interrupted(run, e);
    throw e;
  }
}

/**
 * With --allow-dirty, the commit carries the uncommitted edits of the episode's other inputs (its
 * season goals, notes, earlier episodes, style, config) as they stand now, as it carries the world
 * files' (AUR6061): they were left out, so the episode was committed without what it was made from.
 * Read at the commit, never kept in the stage H checkpoint: a resumed run carries the files as they
 * are then. Not for --no-commit: a staged episode's commit is refused over them (no --allow-dirty).
 */
async function withCarriedEdits(run: Run, h: StageHCheckpoint): Promise<StageHCheckpoint> {
  if (!run.o.allowDirty || run.o.noCommit) return h;
  const { carriedEdits } = await import('./clean-world.js');
  return { ...h, files: { ...(await carriedEdits(run.git, run.root, episodeInputPaths(run.ref))), ...h.files } };
}

/** A–D, or their checkpoint (pipeline/planning-checkpoint.ts: the committed planning files). */
async function planningStep(run: Run): Promise<PlanningCheckpoint & { resumed: boolean; written: Promise<void> }> {
  const { root, world, ref, seed, previousCliffhanger, llm, config, hasher } = run;
  // Read once: digested to tell a stale checkpoint, and planning's own input when it plans.
  const inputs = await seasonPlanningInputs(root, ref, world, run.o.steering ?? null);
  const digest = (worldHash: string) => planningDigest({ world: worldHash, inputs, previousCliffhanger, tokenBudget: config.packets.token_budget });
  // The world is hashed here only to judge a checkpoint; a fresh plan's digest takes stage A's hash.
  const saved = currentPlanning(run, () => digest(hasher.hash(world)));
  if (saved) {
    for (const s of ['A', 'B', 'C', 'D'] as const) run.progress.stage(s, 'resumed');
    run.warnings.push(...saved.warnings);
    return { ...saved, resumed: true, written: Promise.resolve() };
  }
  const planned = await runPlanning({ root, world, ref, seed, previousCliffhanger, llm, config, hasher, inputs, signal: run.o.signal, onStage: (s, state) => run.progress.stage(s, state), steering: run.o.steering });
  run.check();
  const warnings = planned.diagnostics.filter((d) => d.severity !== 'info');
  run.warnings.push(...warnings);
  const made = await savePlanning(run.cp, ref, { context: planned.context, proposals: planned.proposals, plan: planned.plan, packets: planned.packets }, warnings, digest(planned.context.state_hash));
  return { ...made, resumed: false };
}

/**
 * The planning checkpoint when it was made from what planning reads now (planning-inputs.ts: the
 * world files, season goals, notes, anchors, earlier episodes), or null, with every checkpoint of the
 * run folder dropped. The folder is keyed by episode, seed and steering only: resumed after a hand
 * edit, a what-if branch or a checkout, its plan and scenes were made on another world and would be
 * committed on this one (AUR6065 says so, naming what changed). An older checkpoint, without a
 * digest, is compared by its context's state hash (the world files). Not an episode staged for review.
 */
function currentPlanning(run: Run, now: () => PlanningDigest): PlanningCheckpoint | null {
  const saved = loadPlanning(run.cp, run.ref);
  // An episode staged for review keeps its plan and its scenes, the author's edits among them: its
  // commit verifies every scene again on the world as it is (AUR6108) and computes stage H on it.
  if (saved && readReview(run.root)?.run_dir === run.runRel) return saved;
  const hash = (saved?.output.context as { state_hash?: unknown } | undefined)?.state_hash;
  const made: PlanningDigest = { ...(typeof hash === 'string' ? { 'the world files': hash } : {}), ...saved?.inputs };
  const changed = saved ? changedParts(made, now()) : [];
  if (saved && !changed.length) return saved;
  if (saved) {
    const stale = diag('AUR6065', { episode: run.ref.id, run: run.runRel, what: changed.join(', ') });
    run.warnings.push(stale);
    run.progress.warnings([stale]);
  }
  dropCheckpoints(run.cp);
  return null;
}

type ScenesOutput = { scenes: ApprovedScene[]; report: VerifierReport };

/** E–G: every scene written, verified and repaired, or the checkpoint of a finished E–G. */
async function scenesStep(run: Run, planning: PlanningOutput, pool: VerifyPool): Promise<{ output: ScenesOutput; resumed: number }> {
  run.where = 'scene writing';
  const { plan, packets } = planning;
  const { progress, tracker, cp, llm, config } = run;
  const ids = plan.scenes.map((s) => s.id);
  progress.stage('EFG', 'running');
  tracker.scenes(ids);
  const saved = cp.load<ScenesOutput>('scenes');
  if (saved) {
    for (const id of ids) tracker.scene(id, 'resumed');
    progress.stage('EFG', 'resumed');
    run.review = sayReview(run.warnings, saved.report, run.runRel);
    return { output: saved, resumed: ids.length };
  }
  const resumed = ids.filter((id) => cp.has(`scene-${id}`)).length;
  for (const id of ids) if (cp.has(`scene-${id}`)) tracker.scene(id, 'resumed');
  testKillHook('scenes-start');
  const { loadStyle } = await import('../style/index.js');
  const { writeEpisodeScenes } = await import('../stages/scenes.js');
  const { writerStyleFrom } = await import('../stages/e-writer/prompt.js');
  const style = await loadStyle(run.root);
  const timer = setInterval(() => tracker.emit(), 250);
  let res;
  try {
    res = await writeEpisodeScenes({
      llm,
      plan,
      packets,
      world: run.world,
      style: writerStyleFrom(style),
      budgets: { per_scene: config.budgets.per_scene, per_episode: config.budgets.per_episode, format_fixes: config.budgets.format_fixes },
      minSceneWords: config.verifier.min_scene_words,
      concurrency: config.concurrency,
      seed: run.seed,
      draftDir: run.runDir,
      signal: run.o.signal,
      verifyPool: pool,
      onProgress: (p) => {
        if (p.verdict === 'PASS') {
          tracker.scene(p.scene, 'done', p.attempt > 1 ? `${p.attempt} attempts` : undefined);
          cp.save(`scene-${p.scene}`, p);
        } else tracker.scene(p.scene, 'repairing', `${p.findings} finding${p.findings === 1 ? '' : 's'}`);
      },
    });
  } finally {
    clearInterval(timer);
  }
  run.check();
  if (!res.ok) {
    const failing = res.report.scenes.filter((s) => s.final_verdict === 'FAIL').map((s) => s.scene);
    progress.stage('EFG', 'failed', `${failing.length} scene(s) failing`);
    throw new AureusError(`the repair budget of ${run.ref.id} is exhausted`, {
      exitCode: ExitCode.BUDGET_EXHAUSTED,
      diagnostics: [diag('AUR6007', { episode: run.ref.id, detail: `${failing.join(', ')} still failing after ${res.report.budget.used} regenerations; report in ${path.posix.join(run.runRel, 'verifier_report.json')}` })],
    });
  }
  const output = cp.save('scenes', { scenes: res.scenes, report: res.report });
  progress.stage('EFG', 'done', `${res.scenes.length} scenes, ${res.report.budget.used} repairs`);
  run.review = sayReview(run.warnings, output.report, run.runRel);
  return { output, resumed };
}
