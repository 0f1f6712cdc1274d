import fs from 'node:fs';
import path from 'node:path';
import { stableStringify } from '../core/json.js';
import { writeDurable } from '../store/durable.js';
import { requireWorldFolder } from '../store/load.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import type { Steering } from '../stages/c-director/steering.js';
import type { ApprovedScene, SceneAttempt, VerifierReport } from '../domain/scene.js';
import { Checkpoints } from './checkpoint.js';
import { loadReview, REVIEW_FILE } from './review-file.js';
import { readStateFile } from './state-file.js';
import { damagedStaged, stagedCheckpoints } from './staged-checkpoints.js';

/**
 * The episode staged for review (issue 16): `.aureus/review.json`, git-ignored like the run
 * folders. One staged episode per repository at a time: it names the run folder that holds the
 * episode (checkpoints, drafts, stage/) and what the showrunner did to each scene. The scenes
 * themselves live in the run's `checkpoints/scenes.json`, so the pipeline commits them as it would
 * a model's (see staged.ts).
 */
export interface SceneReviewState {
  author: 'model' | 'human';
  pinned: boolean;
  /**
   * Rewrites adopted: `scene rewrite`s whose draft passed and replaced the scene's text, as its
   * scenes checkpoint records them (withRecordedAuthors); a rewrite that failed or was interrupted
   * changed nothing and is not counted.
   */
  rewrites: number;
  /**
   * Rewrite nonces spent: the next rewrite asks with `rewrite/<nonce + 1>`, never a replay of an old
   * answer. Spent before the call, so a rewrite killed mid-call still gets a fresh one next time.
   * Absent in a record an older aureus wrote, whose `rewrites` counted them.
   */
  nonce?: number;
  /** The notes of the rewrites recorded, in order. */
  notes: string[];
}

export interface ReviewState {
  format: 1;
  episode: string;
  /** For `episode run --episode`: the number inside the season. */
  episode_number: number;
  season: number;
  seed: string;
  run_dir: string;
  steering: Steering | null;
  scenes: Record<string, SceneReviewState>;
  /** When the episode was first staged (ISO time; `status` says it). Absent in a record an older aureus wrote. */
  staged_at?: string;
}

export { REVIEW_FILE, loadReview };

/**
 * The review record for a message that changes nothing (a hint after `note`, a recovered commit's
 * clean-up): null when there is none or it is damaged. Any decision that reads, writes or removes
 * the staged episode uses loadReview, which refuses a damaged file (review-file.ts).
 */
export function readReview(root: string): ReviewState | null {
  try {
    return loadReview(root);
  } catch {
    return null;
  }
}

/**
 * Save the review state durably (file and folder synced). It is the marker of a change: a caller
 * that writes other files for the same change makes them durable first (scene-ops' recordVersion:
 * one barrier for its files, then this). A copy goes first into the run folder (keptReview), so
 * that staging the episode again after the record is lost keeps the pins and rewrite counts.
 */
export function writeReview(root: string, r: ReviewState): void {
  const runDir = path.join(root, r.run_dir);
  // Never into a run folder that is gone (discarded): writing would make it look staged again.
  if (fs.existsSync(runDir)) new Checkpoints(runDir).write(REVIEW_CHECKPOINT, r);
  writeDurable(path.join(root, REVIEW_FILE), stableStringify(r));
}

/**
 * The checkpoint beside the scenes checkpoint that keeps a copy of the review record. The scenes
 * checkpoint keeps each scene's text, author and attempts, but a pin and the rewrite nonces spent
 * (README "Review before commit") are only in the record: lost with `.aureus/review.json`
 * (deleted, or moved aside as AUR6199's hint says), a pinned scene could be rewritten and the nonce
 * of a rewrite interrupted before its draft was recorded asked for again. Dropped with the other checkpoints when the plan is made again.
 */
export const REVIEW_CHECKPOINT = 'review';

/**
 * The record kept in run folder `runRel` for episode `episode`, or null when there is none (or it is
 * another run's: a copied folder). A damaged one is told (AUR6113, warning) and not used: the episode
 * is staged again without what it kept, as before this copy existed, rather than refused.
 */
export function keptReview(root: string, runRel: string, episode: string, warnings: Diagnostic[]): ReviewState | null {
  const cp = new Checkpoints(path.join(root, runRel));
  const rel = path.posix.join(runRel, 'checkpoints', `${REVIEW_CHECKPOINT}.json`);
  const read = readStateFile<ReviewState>(cp.file(REVIEW_CHECKPOINT), rel, 'state/review', { doc: 'the copy of the review record `aureus episode run --review` keeps in its run folder' });
  if (read.ok) return read.value.run_dir === runRel && read.value.episode === episode ? read.value : null;
  if (!read.missing) warnings.push(diag('AUR6113', { file: rel, detail: read.detail }, { file: rel }));
  return null;
}

/**
 * The review is over (committed, discarded, its run folder gone): the record, and the copy its run
 * folder keeps (and `runRel`'s, the run just committed, whose record may have been lost), so that a
 * later staging of the same run folder (after a rollback) starts with no pins, as a new review.
 */
export function clearReview(root: string, runRel?: string): void {
  const runs = new Set([readReview(root)?.run_dir, runRel].filter((r): r is string => !!r));
  for (const r of runs) fs.rmSync(new Checkpoints(path.join(root, r)).file(REVIEW_CHECKPOINT), { force: true });
  fs.rmSync(path.join(root, REVIEW_FILE), { force: true });
}

/**
 * The episode of run folder `runRel` is committed: its review is over. The record goes when it names
 * that folder (another's, or a damaged one, is kept), and the copy the folder keeps goes anyway: the
 * folder may outlive the commit (removeRunDir leaves what it cannot remove), and a later staging of
 * it (after a rollback) must start with no pins, as a new review.
 */
export function clearReviewOfRun(root: string, runRel: string): void {
  if (readReview(root)?.run_dir === runRel) clearReview(root, runRel);
  else fs.rmSync(new Checkpoints(path.join(root, runRel)).file(REVIEW_CHECKPOINT), { force: true });
}

export function requireReview(root: string): ReviewState {
  // Not a world at all: AUR1000 (exit 3), as episode run says it, not that nothing is staged (exit 2).
  requireWorldFolder(root);
  const r = loadReview(root);
  if (!r || !fs.existsSync(path.join(root, r.run_dir))) {
    throw new AureusError('no episode is staged for review', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6101')] });
  }
  return r;
}

/**
 * Who wrote each scene and how many rewrites it took, as the run's scenes checkpoint records them.
 * The checkpoint holds a scene's text, its `author` and the report of its attempts in one atomic
 * write; the review file is written after it (scene-ops' recordVersion), so a process killed in
 * between leaves the file behind. The checkpoint is what the commit commits, so its word is the one
 * the trailers, the review and the next write use: an author's text is never committed without
 * Aureus-Edited, nor a model's with it, and a rewrite never named in Aureus-Rewritten unless its
 * draft is the text committed (a rewrite interrupted before a draft passed changed nothing).
 */
export function withRecordedAuthors(r: ReviewState, scenes: readonly Pick<ApprovedScene, 'scene' | 'author'>[], report?: Pick<VerifierReport, 'scenes'>): ReviewState {
  const out: ReviewState = { ...r, scenes: { ...r.scenes } };
  for (const s of scenes) {
    if (typeof s?.scene !== 'string') continue; // a checkpoint is the run's own file; a torn entry says nothing
    const before = sceneState(r, s.scene);
    const now: SceneReviewState = { ...before, author: s.author === 'human' ? 'human' : 'model' };
    const attempts = report?.scenes?.find((x) => x?.scene === s.scene)?.attempts;
    if (Array.isArray(attempts)) {
      const counted = rewritesOf(attempts);
      now.rewrites = counted.adopted;
      // A record an older aureus wrote counted the nonces spent in `rewrites`: they stay spent.
      const nonce = Math.max(before.nonce ?? before.rewrites, counted.tried);
      if (nonce > 0) now.nonce = nonce;
    }
    if (now.author !== before.author || now.rewrites !== before.rewrites || now.nonce !== before.nonce) out.scenes[s.scene] = now;
  }
  return out;
}

/**
 * The rewrites a scene's attempts record: `tried`, one per `rewrite` attempt (the first draft of
 * each `scene rewrite`); `adopted`, those whose draft, or a repair of it, passed and so replaced the
 * scene's text. A rewrite's repairs follow its first draft until the next write, rewrite or edit.
 */
function rewritesOf(attempts: readonly Pick<SceneAttempt, 'mode' | 'verdict'>[]): { tried: number; adopted: number } {
  let tried = 0;
  let adopted = 0;
  let inRewrite = false;
  for (const a of attempts) {
    if (a?.mode === 'write' || a?.mode === 'edit' || a?.mode === 'rewrite') inRewrite = a.mode === 'rewrite';
    if (a?.mode === 'rewrite') tried += 1;
    // A rewrite stops at its first passing draft (scene-rewrite.ts), which is adopted.
    if (inRewrite && a?.verdict === 'PASS') adopted += 1;
  }
  return { tried, adopted };
}

/**
 * The review record with the authors its run's scenes checkpoint records (as is when there is no
 * checkpoint). Read through the staged episode's sink (staged-checkpoints.ts): a damaged one was
 * taken for "no authors recorded" without a word. It is refused (AUR6115, exit 3, nothing changed),
 * as loadStaged refuses it, not warned of (AUR6098 says the step is done again; nothing here redoes
 * it), because every caller acts on what it gives: recordStaged writes these authors into the
 * review record, `episode commit` into its Aureus-Edited trailer (a guess would commit an author's
 * text as the model's), and beforeRun names the edited scenes in its AUR6102 refusal, which could
 * then list fewer than the author made; the episode cannot be committed as it stands either.
 */
export function recordedReview(root: string, r: ReviewState): ReviewState {
  const { review, damaged } = withScenes(root, r);
  if (damaged.length) throw damagedStaged(r, damaged);
  return review;
}

/**
 * The record with the authors its scenes checkpoint records, and how many scenes it holds; read through the staged
 * episode's sink, so that a damaged checkpoint is in `damaged` (the one read path of recordedReview and stagedReview).
 */
function withScenes(root: string, r: ReviewState): { review: ReviewState; scenes: number | null; damaged: { file: string; detail: string }[] } {
  const { cp, damaged } = stagedCheckpoints(path.join(root, r.run_dir));
  const saved = cp.load<{ scenes?: unknown; report?: { scenes?: unknown } }>('scenes');
  const report = Array.isArray(saved?.report?.scenes) ? (saved.report as Pick<VerifierReport, 'scenes'>) : undefined;
  return Array.isArray(saved?.scenes) ? { review: withRecordedAuthors(r, saved.scenes as ApprovedScene[], report), scenes: saved.scenes.length, damaged } : { review: r, scenes: null, damaged };
}

/**
 * The staged episode for a view that changes nothing (`status`): its record with the authors its
 * scenes checkpoint records, and how many scenes it has (null: that checkpoint cannot be read, and
 * `damaged` says so when it is there but damaged); null when nothing is staged (no record, or its run
 * folder is gone, as requireReview says). A damaged record is refused as every reader refuses it
 * (AUR6199, AUR6112; exit 3), never taken for "nothing staged".
 */
export function stagedReview(root: string): { review: ReviewState; scenes: number | null; damaged: { file: string; detail: string }[] } | null {
  const r = loadReview(root);
  if (!r || !fs.existsSync(path.join(root, r.run_dir))) return null;
  return withScenes(root, r);
}

export function sceneState(r: ReviewState, scene: string): SceneReviewState {
  return r.scenes[scene] ?? { author: 'model', pinned: false, rewrites: 0, notes: [] };
}

/** The scenes the showrunner edited, rewrote (the rewrite's draft is the scene's text) and pinned, by id. */
export interface ReviewChanges {
  edited: string[];
  rewritten: string[];
  pinned: string[];
}

/** What the showrunner did, in words ("2 edited, 1 rewritten, 1 pinned"), for messages and trailers. */
export function reviewChanges(r: ReviewState): ReviewChanges {
  const ids = Object.keys(r.scenes).sort();
  return {
    edited: ids.filter((id) => r.scenes[id]!.author === 'human'),
    rewritten: ids.filter((id) => r.scenes[id]!.rewrites > 0 && r.scenes[id]!.author !== 'human'),
    pinned: ids.filter((id) => r.scenes[id]!.pinned),
  };
}

export function describeChanges(r: ReviewState): string {
  const c = reviewChanges(r);
  const parts = [
    c.edited.length ? `edited ${c.edited.join(', ')}` : '',
    c.rewritten.length ? `rewritten ${c.rewritten.join(', ')}` : '',
    c.pinned.length ? `pinned ${c.pinned.join(', ')}` : '',
  ].filter(Boolean);
  return parts.join('; ');
}
