import { readFileBytesSafe } from '../store/read.js';
import path from 'node:path';
import { episodeRef, type EpisodeRef } from '../domain/context.js';
import type { World } from '../domain/world.js';
import { sha256, hashValue } from '../core/hash.js';
import type { StateHasher } from '../core/state-hash.js';
import { cliffhangerRel } from '../paths.js';

/**
 * An episode's default seed, in a module of its own: `episode plan` derives the seed `episode run`
 * would, without loading the run's git, lock and commit machinery (issue 18: importing
 * run-episode.ts for this function cost a plan about a dozen modules, the git adapter and proper-lockfile).
 */

/**
 * Default seed: from the previous episode's cliffhanger (season chaining), else from the world's
 * hashValue. Given planning's state hasher, the world's hash is taken by it (StateHasher.flatHash:
 * the same value), which leaves stage A's state hash of the same world nearly free (issue 18).
 */
export function deriveSeed(ref: EpisodeRef, previousCliffhangerText: string | null, world: World, hasher?: StateHasher): string {
  const basis = previousCliffhangerText ?? `world:${hasher ? hasher.flatHash(world) : hashValue(world)}`;
  return sha256(`aureus/${ref.id}\n${basis}`).slice(0, 12);
}

/** The previous episode's committed cliffhanger_constraints.json, as text (null for episode 1 or when missing). */
export function previousCliffhangerText(root: string, ref: EpisodeRef): string | null {
  if (ref.episode <= 1) return null;
  // The store's reader refuses a FIFO instead of blocking on it (readFileSync waited for a writer for
  // ever); a file it cannot read is no basis, and readPreviousCliffhanger says why (AUR3003).
  const rel = cliffhangerRel(episodeRef(ref.season, ref.episode - 1));
  const r = readFileBytesSafe(path.join(root, rel), rel);
  return r.ok ? r.bytes.toString('utf8') : null;
}
