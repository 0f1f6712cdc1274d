import { requireCleanWorld } from './clean-world.js';
import fs from 'node:fs';
import path from 'node:path';
import { episodeRef, type CliffhangerConstraints, type EpisodeRef } from '../domain/context.js';
import type { ApprovedScene, VerifierReport } from '../domain/scene.js';
import type { World } from '../domain/world.js';
import { sha256, hashValue } from '../core/hash.js';
import { canonicalCompact, round, stableStringify } from '../core/json.js';
import { AureusError, ExitCode, isAureusError } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { episodeRelDir, runRelDir } from '../paths.js';
import type { ConfigOverrides } from '../config/types.js';
import type { LlmRequest } from '../ports/llm.js';
import { createGit } from '../git/simple-git.js';
import { SilentProgress, type ProgressSink } from '../cli/progress.js';
import { episodesInTree, findCommittedEpisode, nextEpisode, tagNameFor } from '../season/episodes.js';
import { Checkpoints } from './checkpoint.js';
import { recoveredSummary } from './recovered-summary.js';
import { requireSeasonGoals } from '../season/require-season.js';
import { JournaledLlm } from './call-journal.js';
import { acquireLock } from './lock.js';
import { commitEpisode, hasPendingCommits, recoverPendingCommits, stageFiles } from './transaction.js';
import { runPlanning, type PlanningOutput } from './planning-adapter.js';

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
  /** Informational: a plain re-run resumes too (same episode + seed = same run folder). */
  resume?: boolean;
  signal?: AbortSignal;
  progress?: ProgressSink;
  env?: NodeJS.ProcessEnv;
  /** Warnings and notes gathered on the way (stale lock removed, commit recovered…). */
  warnings?: Diagnostic[];
  /** The caller already holds the lock (season run). */
  lockHeld?: boolean;
  /** Checks already made by the caller before taking the lock (season run), see preflightEpisode. */
  preflight?: RunPreflight | null;
  /** The spend and `--max-cost` cap shared across a season's episodes (default: one per episode, from config). */
  costGuard?: import('../providers/cost-guard.js').CostGuard;
  /** `season run --batch`: real calls go through the Message Batches API (batch ids kept in the run folder). */
  batch?: boolean;
}

export interface EpisodeRunSummary {
  status: 'committed' | 'staged' | 'recovered';
  episode: string;
  title: string;
  seed: string;
  provider: string;
  scenes: number;
  approved: number;
  attempts: number;
  repairs: number;
  manual_review: number;
  findings: { hard: number; soft: number };
  tokens: { input: number; output: number; cache_read: number; cache_write: number };
  cost_usd: number;
  commit: string | null;
  tag: string | null;
  script: string;
  run_dir: string;
  resumed: { planning: boolean; scenes: number; calls_replayed: number };
}

interface StageHCheckpoint {
  files: Record<string, string>;
  message: string;
  title: string;
  provider: string;
  totals: { input: number; output: number; cache_read: number; cache_write: number; cost_usd: number };
  report: { scenes: number; approved: number; attempts: number; repairs: number; manual_review: number; hard: number; soft: number };
}

const WORLD_PATHS = ['world', 'operators'];

const RECAP_SYSTEM =
  'You write the "Previously on…" recap of a serialized late-Republic political thriller. Use only the events in the JSON payload ' +
  '(they are the committed state changes, not the prose). Four to eight sentences, present perfect, no invention, no anachronisms. ' +
  'Start with "Previously on <world title>…". Plain text only.';

/** Default seed: from the previous episode's cliffhanger (season chaining), else from the world. */
export function deriveSeed(ref: EpisodeRef, previousCliffhangerText: string | null, world: World): string {
  const basis = previousCliffhangerText ?? `world:${hashValue(world)}`;
  return sha256(`aureus/${ref.id}\n${basis}`).slice(0, 12);
}

function readPreviousCliffhanger(root: string, ref: EpisodeRef): string | null {
  if (ref.episode <= 1) return null;
  try {
    return fs.readFileSync(path.join(root, episodeRelDir(episodeRef(ref.season, ref.episode - 1)), 'cliffhanger_constraints.json'), 'utf8');
  } catch {
    return null;
  }
}

async function chooseEpisode(root: string, o: Pick<EpisodeRunOptions, 'season' | 'episode'>): Promise<EpisodeRef> {
  const next = nextEpisode(root, o.season);
  requireSeasonGoals(root, next.season);
  if (o.episode === undefined) return next;
  const ref = episodeRef(o.season ?? next.season, o.episode);
  if ((await findCommittedEpisode(root, ref)) || episodesInTree(root).some((r) => r.id === ref.id)) {
    throw new AureusError(`episode ${ref.id} is already committed`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6009', { episode: ref.id, tag: ref.id })] });
  }
  if (ref.episode > 1 && !episodesInTree(root).some((r) => r.season === ref.season && r.episode === ref.episode - 1)) {
    throw new AureusError(`episode ${ref.id} cannot be compiled yet`, {
      exitCode: ExitCode.USAGE,
      diagnostics: [diag('AUR6015', { episode: ref.id, reason: `the previous episode s${String(ref.season).padStart(2, '0')}e${String(ref.episode - 1).padStart(2, '0')} is not committed (next is ${next.id})` })],
    });
  }
  return ref;
}

/**
 * What a run checks before it may write anything: the dirty world (exit 8), the episode asked for
 * (usage, exit 2) and the whole of `aureus validate` (exit 3), in that order. Read-only, so it runs
 * before the lock and a refused run leaves no trace, not even an empty .aureus/.
 */
export interface RunPreflight {
  ref: EpisodeRef;
  world: World;
  /** HEAD when the checks ran: a commit made since (another run) means they must be made again. */
  head: string | null;
}

export async function preflightEpisode(o: Pick<EpisodeRunOptions, 'root' | 'season' | 'episode' | 'allowDirty' | 'noCommit'>): Promise<RunPreflight> {
  const root = o.root;
  const git = createGit(root);
  const head = await git.head();
  // Refuse to run on top of uncommitted world edits (they would be committed as the episode's).
  if (!o.allowDirty && !o.noCommit) await requireCleanWorld(git, WORLD_PATHS);
  const ref = await chooseEpisode(root, o);
  const { loadValidatedWorld } = await import('../store/validate.js');
  const { world } = await loadValidatedWorld(root);
  return { ref, world, head };
}

export async function runEpisode(o: EpisodeRunOptions): Promise<EpisodeRunSummary> {
  await createGit(o.root).requireRepo();
  // An interrupted commit changes the world when it is rolled forward (under the lock): the checks
  // then wait for it. Otherwise they come first, so a refused run writes nothing.
  const pre = o.preflight ?? (hasPendingCommits(o.root) ? null : await preflightEpisode(o));
  const lock = o.lockHeld ? null : acquireLock(o.root, 'episode run', { warnings: o.warnings });
  try {
    return await runLocked(o, pre);
  } finally {
    lock?.release();
  }
}

/** Map any failure after an abort to the documented "interrupted" error (exit 130). */
function interrupted(where: string, cause: unknown): AureusError {
  return new AureusError(`interrupted during ${where}`, { exitCode: ExitCode.INTERRUPTED, diagnostics: [diag('AUR6008', { where })], cause });
}

async function runLocked(o: EpisodeRunOptions, pre: RunPreflight | null): Promise<EpisodeRunSummary> {
  const root = o.root;
  const progress = o.progress ?? new SilentProgress();
  const warnings = o.warnings ?? [];

  // 1. Finish any commit a crash interrupted (roll forward), before looking at the tree.
  const rec = await recoverPendingCommits(root);
  warnings.push(...rec.diagnostics);
  if (rec.results.length && o.episode === undefined) {
    const r = rec.results[rec.results.length - 1];
    return recoveredSummary(root, r.commit, r.tag);
  }

  // 2. Dirty world, episode, full validation: done before the lock unless the world may have
  // changed since (a commit rolled forward, or another run committed before we took the lock).
  const checked = pre && !rec.results.length && (await createGit(root).head()) === pre.head ? pre : await preflightEpisode(o);
  const { ref, world } = checked;
  const prevText = readPreviousCliffhanger(root, ref);
  const previousCliffhanger = prevText ? (JSON.parse(prevText) as CliffhangerConstraints) : null;
  const seed = o.seed ?? deriveSeed(ref, prevText, world);
  const { loadConfigOrThrow } = await import('../config/load.js');
  const { config } = loadConfigOrThrow(root, o.overrides);

  const runRel = runRelDir(ref, seed);
  const runDir = path.join(root, runRel);
  const cp = new Checkpoints(runDir);
  const { JsonlRunLog, openLlm, readRunLog, sortRunLog, summarizeRunLog } = await import('../providers/index.js');
  const runLogFile = path.join(runDir, 'run_log.jsonl');
  const runLog = new JsonlRunLog(runLogFile);
  const router = openLlm({ root, config, seed, runLog, signal: o.signal, env: o.env ?? process.env, costGuard: o.costGuard, ...(o.batch ? { batch: { runDir } } : {}) });
  const sceneOf = (req: LlmRequest) => req.meta?.scene;
  const llm: JournaledLlm = new JournaledLlm(router, runDir, () => runLog.flush(), (req) => {
    const scene = sceneOf(req);
    progress.inflight(llm.active, router.pending.queued);
    if (!scene) return;
    if (req.role === 'writer') progress.scene(scene, (req.meta?.attempt ?? 1) > 1 ? 'repairing' : 'writing', `attempt ${req.meta?.attempt ?? 1}`);
    else if (req.role === 'critic') progress.scene(scene, 'verifying');
  }, { provider: router.providerId, models: config.models, chaos: config.chaos });

  const check = (where: string) => {
    if (o.signal?.aborted) throw interrupted(where, o.signal.reason);
  };
  let where = 'planning';
  try {
    // A–D
    let planning = cp.load<PlanningOutput>('planning');
    const resumedPlanning = planning !== null;
    if (planning) for (const s of ['A', 'B', 'C', 'D'] as const) progress.stage(s, 'resumed');
    else {
      const planned = await runPlanning({ root, world, ref, seed, previousCliffhanger, llm, config, signal: o.signal, onStage: (s) => progress.stage(s, 'done') });
      check(where);
      warnings.push(...planned.diagnostics.filter((d) => d.severity !== 'info'));
      planning = cp.save('planning', { context: planned.context, proposals: planned.proposals, plan: planned.plan, packets: planned.packets });
    }
    const { context, proposals, plan, packets } = planning;

    // E–G
    where = 'scene writing';
    const ids = plan.scenes.map((s) => s.id);
    progress.scenes(ids);
    let scenes = cp.load<{ scenes: ApprovedScene[]; report: VerifierReport }>('scenes');
    let resumedScenes = 0;
    if (scenes) {
      resumedScenes = ids.length;
      for (const id of ids) progress.scene(id, 'resumed');
      progress.stage('EFG', 'resumed');
    } else {
      for (const id of ids) if (cp.has(`scene-${id}`)) {
        resumedScenes += 1;
      }
      const { loadStyle } = await import('../style/index.js');
      const { writeEpisodeScenes } = await import('../stages/scenes.js');
      const style = await loadStyle(root);
      const timer = setInterval(() => progress.inflight(llm.active, router.pending.queued), 250);
      let res;
      try {
        res = await writeEpisodeScenes({
          llm,
          plan,
          packets,
          world,
          style: { guide: style.guide, lexicon: style.lexicon.map((e) => ({ forbidden: e.forbidden, replacement: e.replacement })), lexicon_md: style.lexiconMarkdown },
          budgets: { per_scene: config.budgets.per_scene, per_episode: config.budgets.per_episode },
          concurrency: config.concurrency,
          seed,
          draftDir: runDir,
          signal: o.signal,
          onProgress: (p) => {
            if (p.verdict === 'PASS') {
              progress.scene(p.scene, 'done', p.attempt > 1 ? `${p.attempt} attempts` : undefined);
              cp.save(`scene-${p.scene}`, p);
            } else progress.scene(p.scene, 'repairing', `${p.findings} finding${p.findings === 1 ? '' : 's'}`);
          },
        });
      } finally {
        clearInterval(timer);
      }
      check(where);
      if (!res.ok) {
        const failing = res.report.scenes.filter((s) => s.final_verdict === 'FAIL').map((s) => s.scene);
        progress.stage('EFG', 'failed', `${failing.length} scene(s) failing`);
        throw new AureusError('the repair budget is exhausted', {
          exitCode: ExitCode.BUDGET_EXHAUSTED,
          diagnostics: [diag('AUR6007', { detail: `${failing.join(', ')} still failing after ${res.report.budget.used} regenerations; report in ${path.posix.join(runRel, 'verifier_report.json')}` })],
        });
      }
      scenes = cp.save('scenes', { scenes: res.scenes, report: res.report });
      progress.stage('EFG', 'done', `${res.scenes.length} scenes, ${res.report.budget.used} repairs`);
    }

    // H
    where = 'stage H';
    let h = cp.load<StageHCheckpoint>('stage-h');
    if (h) progress.stage('H', 'resumed');
    else {
      const { stageH, episodeFiles, commitMessage } = await import('../stages/h-commit/index.js');
      const input = { ref, seed, world, context, proposals, plan, packets, scenes: scenes.scenes, report: scenes.report, runDir: runRel };
      const out = stageH(input);
      (await import('../stages/h-commit/hard-constraints.js')).requireHardConstraints(world, out.world, ref.episode, ref.id);
      const recapRes = await llm.complete({
        role: 'recap',
        system: RECAP_SYSTEM,
        messages: [{ role: 'user', content: canonicalCompact(out.recap) }],
        max_tokens: config.max_tokens.recap,
        payload: out.recap,
        meta: { episode: ref.id, label: 'recap' },
        signal: o.signal,
      } as LlmRequest);
      check(where);
      await runLog.flush();
      // Canonical order, and a line repeated by a call redone after a crash counts once.
      // Calls aborted by Ctrl-C are artifacts of the interruption, not of the episode: dropped.
      const entries = sortRunLog(readRunLog(runLogFile).entries.filter((e) => e.error !== 'AUR4205'));
      const lines = [...new Set(entries.map((e) => canonicalCompact(e)))];
      const unique = lines.map((l) => JSON.parse(l));
      const total = summarizeRunLog(unique).total;
      const drafts: Record<string, string> = {};
      for (const s of scenes.report.scenes) {
        for (const a of s.attempts) {
          try {
            drafts[a.raw_file] = fs.readFileSync(path.join(runDir, a.raw_file), 'utf8');
          } catch {
            /* a draft the writer never saved */
          }
        }
      }
      const files = episodeFiles(input, out, recapRes.text, lines.map((l) => l + '\n').join(''), drafts);
      const models = [...new Set(unique.map((e) => `${e.role}=${e.model}`))].sort().join(', ') || 'none';
      const report = scenes.report;
      const allFindings = [...report.scenes.flatMap((s) => s.attempts.flatMap((a) => a.findings)), ...report.episode_findings];
      h = {
        files,
        title: plan.title,
        provider: router.providerId,
        message: commitMessage(ref, plan.title, recapRes.text, {
          provider: router.providerId,
          models,
          seed,
          tokens: `${total.input_tokens + total.output_tokens} (input ${total.input_tokens}, output ${total.output_tokens}, cache read ${total.cache_read_tokens}, cache write ${total.cache_write_tokens})`,
          cost: `$${total.cost_usd.toFixed(4)}`,
        }),
        totals: { input: total.input_tokens, output: total.output_tokens, cache_read: total.cache_read_tokens, cache_write: total.cache_write_tokens, cost_usd: round(total.cost_usd, 6) },
        report: {
          scenes: report.scenes.length,
          approved: report.scenes.filter((s) => s.final_verdict === 'PASS').length,
          attempts: report.scenes.reduce((n, s) => n + s.attempts.length, 0),
          repairs: report.budget.used,
          manual_review: report.scenes.filter((s) => s.manual_review).length,
          hard: allFindings.filter((f) => f.severity === 'hard').length,
          soft: allFindings.filter((f) => f.severity === 'soft').length,
        },
      };
      h = cp.save('stage-h', h);
      progress.stage('H', 'done');
    }

    const base = {
      episode: ref.id,
      title: h.title,
      seed,
      provider: h.provider,
      scenes: h.report.scenes,
      approved: h.report.approved,
      attempts: h.report.attempts,
      repairs: h.report.repairs,
      manual_review: h.report.manual_review,
      findings: { hard: h.report.hard, soft: h.report.soft },
      tokens: { input: h.totals.input, output: h.totals.output, cache_read: h.totals.cache_read, cache_write: h.totals.cache_write },
      cost_usd: h.totals.cost_usd,
      run_dir: runRel,
      resumed: { planning: resumedPlanning, scenes: resumedScenes, calls_replayed: llm.replayed },
    };
    const scriptRel = path.posix.join(episodeRelDir(ref), 'episode_script.md');
    if (o.noCommit) {
      const stageDir = stageFiles(runDir, h.files);
      progress.stage('commit', 'skipped', '--no-commit');
      return { ...base, status: 'staged', commit: null, tag: null, script: path.posix.join(runRel, 'stage', scriptRel) + (stageDir ? '' : '') };
    }
    where = 'commit';
    check(where);
    const tag = await tagNameFor(root, ref);
    const committed = await commitEpisode(root, runDir, { episode: ref.id, tag, message: h.message, files: h.files });
    progress.stage('commit', 'done', `${committed.commit.slice(0, 10)} ${committed.tag}`);
    return { ...base, status: 'committed', commit: committed.commit, tag: committed.tag, script: scriptRel };
  } catch (e) {
    if (o.signal?.aborted && !(isAureusError(e) && e.exitCode === ExitCode.INTERRUPTED && e.diagnostics[0]?.code === 'AUR6008')) throw interrupted(where, e);
    if (isAureusError(e) && e.exitCode === ExitCode.INTERRUPTED && e.diagnostics[0]?.code !== 'AUR6008') throw interrupted(where, e);
    throw e;
  }
}

export { stableStringify };
