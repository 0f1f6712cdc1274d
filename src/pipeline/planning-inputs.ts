import { sha256 } from '../core/hash.js';
import { canonicalCompact } from '../core/json.js';
import { episodeRef, type CliffhangerConstraints, type EpisodeRef } from '../domain/context.js';
import { ANCHORS_REL } from '../domain/anchors.js';
import { CONFIG_FILE, cliffhangerRel, episodePlanRel, notesRel, seasonGoalsRel } from '../paths.js';
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

/** The season's episodes before `ref`: their plans and cliffhangers are read (the recent moves, the operators played, the next episode's opening and seed). */
const earlier = (ref: EpisodeRef): EpisodeRef[] => Array.from({ length: Math.max(0, ref.episode - 1) }, (_, i) => episodeRef(ref.season, i + 1));

/**
 * What planning reads, part by part: the files each part is read from and its digest. ONE list for
 * the two questions asked of it: whether a checkpoint was made from what planning reads now (the
 * digest, AUR6065), and which uncommitted edits an episode run refuses (episodeInputPaths): an
 * uncommitted season goal, note or earlier cliffhanger changed the episode and was not committed
 * with it, so the commit could not reproduce it. A reader that starts reading a new file adds it here.
 */
const PARTS: Record<string, { files: (ref: EpisodeRef) => string[]; digest: (s: DigestSource) => string }> = {
  'the world files': { files: () => ['world'], digest: (s) => s.world },
  'the season goals': { files: (ref) => [seasonGoalsRel(ref.season)], digest: (s) => digest(s.inputs.seasonGoals) },
  // The notes and the threads proposed in play for it, both in notes.json.
  'the notes for it': { files: (ref) => [notesRel(ref.season)], digest: (s) => digest(s.inputs.steering) },
  'the historical anchors': { files: () => [ANCHORS_REL], digest: (s) => digest(s.inputs.anchors) },
  // What the Director reads of the episodes before it: their moves, operators played, the last cliffhanger.
  // Every earlier cliffhanger counts: which episode comes next is told by them (season/episodes.ts).
  'the episodes before it': {
    files: (ref) => earlier(ref).flatMap((e) => [episodePlanRel(e), cliffhangerRel(e)]),
    digest: (s) => digest({ recentMoves: s.inputs.recentMoves, played: [...s.inputs.playedOperators].sort(), cliffhanger: s.previousCliffhanger }),
  },
  'packets.token_budget': { files: () => [CONFIG_FILE], digest: (s) => digest(s.tokenBudget) },
};

export function planningDigest(s: DigestSource): PlanningDigest {
  return Object.fromEntries(Object.entries(PARTS).map(([part, p]) => [part, p.digest(s)]));
}

/**
 * Every path an episode is compiled from: what planning reads (PARTS) and what the writer and the
 * verifier read besides (the operators, the style guide and lexicon, the config's models and budgets).
 * An uncommitted edit under one of them refuses the run (exit 8, AUR6001), or is committed with the
 * episode under --allow-dirty (AUR6061): a committed episode must be reproducible from its commit.
 */
export function episodeInputPaths(ref: EpisodeRef): string[] {
  return [...new Set([...Object.values(PARTS).flatMap((p) => p.files(ref)), 'operators', 'style'])];
}

/**
 * The parts whose digest differs, in `now`'s order; a part the saved digest lacks (an older checkpoint)
 * is not compared. Empty: the checkpoint was made from what planning would read now.
 */
export function changedParts(saved: PlanningDigest, now: PlanningDigest): string[] {
  return Object.keys(now).filter((k) => typeof saved[k] === 'string' && saved[k] !== now[k]);
}
