import type { World } from '../../domain/world.js';
import { perState, type WorldIndex } from '../../core/world-index.js';
import { violatedConstraints } from '../../core/invariants.js';

/**
 * The planner's hook for world/constraints.json (issue 12): a move whose projected state breaks a
 * hard constraint that held before it is never planned. Only constraints that held before count,
 * so a constraint already broken by the starting state (which `validate` rejects) cannot make
 * every move look forbidden. Returns the id of the first constraint the move breaks, or null.
 */
export function breaksHardConstraint(before: World | WorldIndex, after: World | WorldIndex, episode: number): string | null {
  const broken = violatedConstraints(after, 'hard', { episode });
  if (broken.length === 0) return null;
  const already = brokenBefore(before, episode);
  return broken.find((v) => !already.has(v.id))?.id ?? null;
}

/**
 * The hard constraints a state already breaks, per state and episode: the Director tries many moves
 * from the same projected state (states are immutable), and re-evaluated them for each (issue 18).
 */
function brokenBefore(before: World | WorldIndex, episode: number): ReadonlySet<string> {
  const byEpisode = perState(before, brokenBefore, () => new Map<number, ReadonlySet<string>>());
  let ids = byEpisode.get(episode);
  if (!ids) byEpisode.set(episode, (ids = new Set(violatedConstraints(before, 'hard', { episode }).map((v) => v.id))));
  return ids;
}
