import fs from 'node:fs';
import path from 'node:path';
import { plural } from '../core/readable.js';
import { REVIEW_FILE, reviewChanges, stagedReview } from '../pipeline/review-state.js';
import { committedReview } from '../pipeline/review-finished.js';

/**
 * The episode staged for review on the `status` dashboard (README "Review before commit"): which
 * episode, since when, what the showrunner did to its scenes, and the commands that go on from it.
 * Without it `status` gave the staged episode as merely "next", and the user had to remember that
 * `episode review` and `episode commit` were waiting.
 */
export interface StagedForReview {
  episode: string;
  run_dir: string;
  seed: string;
  /** When it was first staged (ISO time); null in a record an older aureus wrote, which did not keep it. */
  staged_at: string | null;
  /** When the record last changed (staged, a scene pinned, edited or rewritten): its file's time (ISO). */
  changed_at: string;
  /** Scenes in the staged episode (null: its scenes checkpoint cannot be read). */
  scenes: number | null;
  /**
   * Its checkpoints found damaged (file and what is wrong): `episode review` and `episode commit` refuse the episode
   * while its planning or scenes checkpoint is (AUR6115), so the dashboard says so instead of a bare unknown count.
   */
  damaged_checkpoints: { file: string; detail: string }[];
  /** Scene ids, as the commit's trailers name them (Aureus-Edited, Aureus-Rewritten, Aureus-Pinned). */
  edited: string[];
  rewritten: string[];
  pinned: string[];
  /** Its `episode commit` was interrupted (a journal waits): `episode commit` finishes it, nothing else goes on first. */
  commit_interrupted: boolean;
  /** The commands that go on from here, in the order a showrunner uses them. */
  commands: string[];
}

/**
 * The staged episode, or null when none is (no record, its run folder is gone, or its episode is
 * committed already: pipeline/review-finished.ts). A damaged record
 * refuses `status` as it refuses every command that reads it (AUR6199, AUR6112, exit 3: the hint
 * names the run folder that keeps the episode), rather than showing "nothing staged".
 */
export async function statusOfReview(root: string, pendingCommits: readonly string[]): Promise<StagedForReview | null> {
  const staged = stagedReview(root);
  if (!staged) return null;
  const { review: r, scenes, damaged } = staged;
  const commitInterrupted = pendingCommits.includes(r.episode);
  // Committed already (a kill after the commit left the record): nothing is staged, and no command
  // is offered that would fail; the next `episode commit` or run removes the record.
  if (!commitInterrupted && (await committedReview(root, r))) return null;
  return {
    episode: r.episode,
    run_dir: r.run_dir,
    seed: r.seed,
    staged_at: r.staged_at ?? null,
    changed_at: fs.statSync(path.join(root, REVIEW_FILE)).mtime.toISOString(),
    scenes,
    damaged_checkpoints: damaged,
    ...reviewChanges(r),
    commit_interrupted: commitInterrupted,
    commands: commitInterrupted ? ['aureus episode commit'] : ['aureus episode review', 'aureus episode commit', 'aureus episode discard'],
  };
}

type Paint = { bold: (t: string) => string; dim: (t: string) => string; yellow: (t: string) => string };

/** The dashboard's lines for it, under the Episodes line; `now` is the time the ages are told from. */
export function renderReviewStatus(s: StagedForReview, c: Paint, now = Date.now()): string[] {
  const when = s.staged_at ? `since ${moment(s.staged_at, now)}` : `last changed ${moment(s.changed_at, now)}`;
  const out = [`${c.bold('Review')}    ${c.yellow(`${s.episode.toUpperCase()} is staged for review`)}, ${when}: ${changes(s)}`];
  out.push(`          ${c.dim(`run folder ${s.run_dir}, seed ${s.seed}`)}`);
  for (const d of s.damaged_checkpoints) out.push(`          ${c.yellow(`its checkpoint ${d.file} is damaged (${d.detail}): \`aureus episode review\` and \`aureus episode commit\` refuse it (AUR6115) until the file is restored; \`aureus episode discard\` drops the episode`)}`);
  if (s.commit_interrupted) out.push(`          next: \`aureus episode commit\` finishes its interrupted commit`);
  else out.push('          next: `aureus episode review` to read it, `aureus episode commit` to commit it as reviewed, `aureus episode discard` to drop it');
  return out;
}

/** "24 scenes: 1 edited (SC02), 1 rewritten (SC04), 1 pinned (SC03)", or none touched yet. */
function changes(s: StagedForReview): string {
  const count = s.scenes === null ? '' : `${s.scenes} ${plural(s.scenes, 'scene')}: `;
  const done = ([['edited', s.edited], ['rewritten', s.rewritten], ['pinned', s.pinned]] as const).filter(([, ids]) => ids.length).map(([what, ids]) => `${ids.length} ${what} (${ids.join(', ')})`);
  return `${count}${done.length ? done.join(', ') : 'none edited, rewritten or pinned yet'}`;
}

/** "2026-03-14 09:05 UTC (12 minutes ago)"; an unreadable time as it is written. */
function moment(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const at = `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `${at} (${ago(now - t)})`;
}

/** How long ago, in the largest whole unit (Intl's wording: "12 minutes ago", "yesterday"). */
function ago(ms: number): string {
  const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  const s = Math.round(ms / 1000);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [['day', 86400], ['hour', 3600], ['minute', 60]];
  for (const [unit, size] of units) if (Math.abs(s) >= size) return rtf.format(-Math.trunc(s / size), unit);
  return 'just now';
}
