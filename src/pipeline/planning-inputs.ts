import { sha256 } from '../core/hash.js';
import { canonicalCompact } from '../core/json.js';
import type { CliffhangerConstraints } from '../domain/context.js';
import type { seasonPlanningInputs } from './planning-adapter.js';

/**
 * What planning (stages A–D) was made from, one digest per part, kept with the planning checkpoint.
 * A run folder is keyed by episode, seed and steering only, and the world's state hash covers the
 * world files alone: a resumed run whose season goals, notes, anchors or earlier episodes changed
 * since (a hand edit committed, a what-if branch, a checkout) would otherwise commit a plan, and the
 * scenes and deltas made from it, that planning would no longer make (audit k, D2).
 */
export type SeasonInputs = Awaited<ReturnType<typeof seasonPlanningInputs>>;

/** Part → digest. The keys are the words the stale-checkpoint warning (AUR6065) names a change by. */
export type PlanningDigest = Record<string, string>;

export interface DigestSource {
  /** The world's state hash (stage A's EpisodeContext.state_hash). */
  world: string;
  inputs: SeasonInputs;
  previousCliffhanger: CliffhangerConstraints | null;
  /** config packets.token_budget: the packets are cut to it. */
  tokenBudget: number;
}

const digest = (value: unknown): string => sha256(canonicalCompact(value ?? null));

export function planningDigest(s: DigestSource): PlanningDigest {
  const { seasonGoals, recentMoves, steering, anchors, playedOperators } = s.inputs;
  return {
    'the world files': s.world,
    'the season goals': digest(seasonGoals),
    'the notes for it': digest(steering),
    'the historical anchors': digest(anchors),
    // What the Director reads of the episodes before it: their moves, operators played, the last cliffhanger.
    'the episodes before it': digest({ recentMoves, played: [...playedOperators].sort(), cliffhanger: s.previousCliffhanger }),
    'packets.token_budget': digest(s.tokenBudget),
  };
}

/**
 * The parts whose digest differs, in `now`'s order; a part the saved digest lacks (an older checkpoint)
 * is not compared. Empty: the checkpoint was made from what planning would read now.
 */
export function changedParts(saved: PlanningDigest, now: PlanningDigest): string[] {
  return Object.keys(now).filter((k) => typeof saved[k] === 'string' && saved[k] !== now[k]);
}
