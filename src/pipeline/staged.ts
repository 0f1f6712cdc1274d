import fs from 'node:fs';
import path from 'node:path';
import type { EpisodeRef } from '../domain/context.js';
import type { World } from '../domain/world.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { hasFlags, steeringKey, type Steering } from '../stages/c-director/steering.js';
import { Checkpoints } from './checkpoint.js';
import { retireStageH } from './planning-checkpoint.js';
import { clearReview, describeChanges, keptReview, loadReview, recordedReview, reviewChanges, sceneState, writeReview, type ReviewChanges, type ReviewState } from './review-state.js';

/**
 * The staged episode between `episode run --review` (or `--no-commit`) and its commit (issue 16).
 * `runEpisode` calls two hooks: `beforeRun` once it knows its run folder, `recordStaged` after
 * staging. What they guarantee:
 *   - an episode under review is never replaced by another run (AUR6102: commit or discard it);
 *   - a hand edit of the staged script is adopted as a human edit of its scene, a hand edit of any
 *     other staged file is refused (AUR6106), and so is a staged file deleted, emptied or no longer
 *     text, or a script missing a scene (AUR6111, staged-edits.ts): nothing in stage/ is silently
 *     overwritten;
 *   - before a commit every scene the author touched (all of them when the world changed since
 *     planning) is verified again on the current world; a hard finding refuses the commit naming
 *     the scene and the finding (AUR6105, exit 4);
 *   - stage H is computed again from the scenes, so the commit holds exactly the reviewed scenes.
 */
export { clearReview };

/** The run folder's name: the seed, plus a hash of the steering flags when there are any. */
export function runKey(seed: string, steering: Steering | null | undefined): string {
  return steering && hasFlags(steering) ? `${seed}-${steeringKey(steering)}` : seed;
}

export interface BeforeRun {
  root: string;
  ref: EpisodeRef;
  runRel: string;
  world: World;
  commit: boolean;
  warnings: Diagnostic[];
}

export async function beforeRun(o: BeforeRun): Promise<void> {
  // A damaged review file refuses the run (AUR6199, exit 3) before any work: read as "nothing
  // staged", the run would write a new record over it and the staged edits would be lost.
  const r = loadReview(o.root);
  if (!r) return;
  if (!fs.existsSync(path.join(o.root, r.run_dir))) {
    clearReview(o.root); // its run folder is gone (committed, or deleted by hand): nothing is staged
    return;
  }
  // Its episode committed and tagged already (a kill after the commit left the record): over, not staged.
  const { committedReview, committedReviewNote, dropCommittedReview } = await import('./review-finished.js');
  const committed = await committedReview(o.root, r);
  if (committed) {
    dropCommittedReview(o.root, r);
    o.warnings.push(committedReviewNote(r, committed));
    return;
  }
  if (r.run_dir !== o.runRel) {
    const changes = describeChanges(recordedReview(o.root, r));
    throw new AureusError(`${r.episode} is staged for review`, {
      exitCode: ExitCode.USAGE,
      diagnostics: [diag('AUR6102', { episode: r.episode, run_dir: r.run_dir, changes: changes ? ` (${changes})` : '' })],
    });
  }
  const { adoptStagedEdits, verifyForCommit } = await import('./scene-ops.js');
  await adoptStagedEdits(o.root, r, o.world, o.warnings);
  if (o.commit) await verifyForCommit(o.root, loadReview(o.root) ?? r, o.world, o.warnings);
  // Stage H again from the scenes as they are now (edits, rewrites), on the world as it is now.
  retireStageH(new Checkpoints(path.join(o.root, r.run_dir)));
}

/**
 * After `--review` / `--no-commit` staged the episode: remember it (keeping what the author did).
 * With no record (lost, or moved aside as AUR6199's hint says), the copy its run folder keeps gives
 * back the pins, rewrite counts and notes; a damaged copy is told in `warnings` (AUR6113).
 */
export function recordStaged(root: string, s: { ref: EpisodeRef; seed: string; runRel: string; steering: Steering | null; warnings: Diagnostic[] }): void {
  const prior = loadReview(root);
  const same = prior ? (prior.run_dir === s.runRel ? prior : null) : keptReview(root, s.runRel, s.ref.id, s.warnings);
  const state: ReviewState = {
    format: 1,
    episode: s.ref.id,
    season: s.ref.season,
    episode_number: s.ref.episode,
    seed: s.seed,
    run_dir: s.runRel,
    steering: s.steering && hasFlags(s.steering) ? { ...s.steering, notes: [] } : null,
    scenes: same?.scenes ?? {},
    staged_at: same?.staged_at ?? new Date().toISOString(),
  };
  // The authors as the scenes checkpoint records them: a run folder staged again after its record
  // was lost (moved aside as AUR6199's hint says) keeps its author's edits as edits.
  writeReview(root, recordedReview(root, state));
}

/**
 * The review trailers of the commit of run folder `runRel`, and what they name; null for an episode
 * that was never staged for review (a plain run: its commit is byte for byte as before). One function
 * for every path that commits a staged episode — `episode commit`, and a plain `episode run` or
 * `season run` that commits it (README: "a later plain run commits it") — so none of them commits an
 * author's text without Aureus-Edited. Asked at the commit: the hand edits of the staged script are
 * adopted by then (beforeRun). The record, else the copy its run folder keeps, gives the pins; who
 * wrote each scene and which rewrites were adopted are read from the scenes checkpoint the commit
 * commits, so even with both lost an edited or rewritten scene is named.
 */
export function reviewTrailers(root: string, run: { ref: EpisodeRef; runRel: string; seed: string }, warnings: Diagnostic[]): { trailers: string[]; reviewed: ReviewChanges } | null {
  const prior = loadReview(root);
  const kept = prior?.run_dir === run.runRel ? prior : keptReview(root, run.runRel, run.ref.id, warnings);
  const base: ReviewState = kept ?? { format: 1, episode: run.ref.id, season: run.ref.season, episode_number: run.ref.episode, seed: run.seed, run_dir: run.runRel, steering: null, scenes: {} };
  const reviewed = reviewChanges(recordedReview(root, base));
  if (!kept && !reviewed.edited.length && !reviewed.rewritten.length) return null;
  const trailers = [
    'Aureus-Reviewed: yes',
    ...(reviewed.edited.length ? [`Aureus-Edited: ${reviewed.edited.join(', ')} (author: human)`] : []),
    ...(reviewed.rewritten.length ? [`Aureus-Rewritten: ${reviewed.rewritten.join(', ')}`] : []),
    ...(reviewed.pinned.length ? [`Aureus-Pinned: ${reviewed.pinned.join(', ')}`] : []),
  ];
  return { trailers, reviewed };
}

export { sceneState };
