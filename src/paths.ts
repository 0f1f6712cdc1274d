import { createHash } from 'node:crypto';
import path from 'node:path';
import type { EpisodeRef } from './domain/context.js';

/** Where things live inside a world repository. One place, so no module invents its own layout. */
export const seasonDirName = (season: number) => `season_${String(season).padStart(2, '0')}`;
export const episodeDirName = (episode: number) => `episode_${String(episode).padStart(2, '0')}`;

/** Committed episode folder, relative to the root: seasons/season_01/episode_03 */
export function episodeRelDir(ref: EpisodeRef): string {
  return path.posix.join('seasons', seasonDirName(ref.season), episodeDirName(ref.episode));
}

export function seasonGoalsRel(season: number): string {
  return path.posix.join('seasons', seasonDirName(season), 'season_goals.json');
}

/** The season's notes for coming episodes (season/notes.ts): seasons/season_01/notes.json */
export const notesRel = (season: number): string => path.posix.join('seasons', seasonDirName(season), 'notes.json');

/** A committed episode's plan, read again when the later episodes of its season are planned (their recent moves, the operators played). */
export const episodePlanRel = (ref: EpisodeRef): string => path.posix.join(episodeRelDir(ref), 'episode_plan.json');

/** A committed episode's cliffhanger: the next episode's opening and default seed; its presence marks the episode done (season/episodes.ts). */
export const cliffhangerRel = (ref: EpisodeRef): string => path.posix.join(episodeRelDir(ref), 'cliffhanger_constraints.json');

/** Run-private state, git-ignored. */
export const AUREUS_DIR = '.aureus';
export const CACHE_DIR = path.posix.join(AUREUS_DIR, 'cache');
export const RUNS_DIR = path.posix.join(AUREUS_DIR, 'runs');
export const LOCK_FILE = path.posix.join(AUREUS_DIR, 'lock');

/**
 * A run's draft/checkpoint folder: .aureus/runs/s01e03-<seed>-<hash8> (same layout as the episode
 * folder; `seed` is pipeline/staged.ts runKey's, `<seed>-<steering8>` for a steered run). The name
 * must be injective in the seed — `x.y` and `x_y` sanitise alike, and a resume in the wrong folder
 * would commit the other seed's episode — so a short hash of the raw seed follows the readable part.
 */
export function runRelDir(ref: EpisodeRef, seed: string): string {
  const safeSeed = seed.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 48);
  const tag = createHash('sha256').update(seed, 'utf8').digest('hex').slice(0, 8);
  return path.posix.join(RUNS_DIR, `${ref.id}-${safeSeed}-${tag}`);
}

export const CONFIG_FILE = 'aureus.config.yaml';

/** Root of the aureus package itself (where the starter kit and schemas ship). */
export function packageRoot(): string {
  return path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
}
