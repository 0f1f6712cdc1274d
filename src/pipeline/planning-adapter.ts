import type { EpisodeRef, CliffhangerConstraints } from '../domain/context.js';
import type { EpisodeContext } from '../domain/episode-context.js';
import type { AgentProposals } from '../domain/proposals.js';
import type { EpisodePlan } from '../domain/plan.js';
import type { ScenePacket } from '../domain/packet.js';
import type { World } from '../domain/world.js';
import type { Llm } from '../ports/llm.js';
import type { AureusConfig } from '../config/types.js';
import type { Diagnostic } from '../diagnostics/index.js';
import type { Steering } from '../stages/c-director/steering.js';
import type { StateHasher } from '../core/state-hash.js';

/**
 * The seam between the pipeline and the planning stages A–D (src/stages/planning.ts). Kept in
 * one place so the pipeline's checkpoints do not depend on how planning is organised inside.
 */
export interface PlanningOutput {
  context: EpisodeContext;
  proposals: AgentProposals;
  plan: EpisodePlan;
  packets: ScenePacket[];
}

export interface PlanningInput {
  root: string;
  world: World;
  ref: EpisodeRef;
  seed: string;
  previousCliffhanger: CliffhangerConstraints | null;
  llm: Llm;
  config: AureusConfig;
  signal?: AbortSignal;
  /** Told when each of A–D really starts and ends. */
  onStage?: (stage: 'A' | 'B' | 'C' | 'D', state: 'running' | 'done') => void;
  /** The showrunner's flags (--focus, --require, --avoid, --cast); the season notes are added here. */
  steering?: Steering | null;
  /** The state hasher the default seed was derived with (stages/planning.ts PlanningInput.hasher). */
  hasher?: StateHasher;
  /** seasonPlanningInputs already read (the run digests them to tell a stale checkpoint): not read again. */
  inputs?: Awaited<ReturnType<typeof seasonPlanningInputs>>;
}

/**
 * What the Director reads from the season besides the world (goals, its recent moves, the showrunner's
 * steering and notes, the historical anchors and what was already played). One function for
 * `episode run` and `episode plan`, so that the plan previews the run byte for byte.
 */
export async function seasonPlanningInputs(root: string, ref: EpisodeRef, world: World, flags: Steering | null) {
  const { readSeasonGoals, readRecentMoves } = await import('../stages/planning.js');
  const { readAnchors, readPlayedOperators } = await import('../stages/anchors-io.js');
  return {
    // Thread progress is paced to the season (docs/planning.md, "Thread pacing").
    seasonGoals: await readSeasonGoals(root, ref.season),
    recentMoves: await readRecentMoves(root, ref),
    steering: await steeringWithNotes(root, ref.id, flags),
    anchors: await readAnchors(root, world),
    playedOperators: await readPlayedOperators(root, ref),
  };
}

export async function runPlanning(input: PlanningInput): Promise<PlanningOutput & { diagnostics: Diagnostic[] }> {
  const { planEpisode } = await import('../stages/planning.js');
  input.signal?.throwIfAborted();
  const a = await planEpisode({
    ...(input.inputs ?? (await seasonPlanningInputs(input.root, input.ref, input.world, input.steering ?? null))),
    world: input.world,
    ref: input.ref,
    seed: input.seed,
    previousCliffhanger: input.previousCliffhanger,
    llm: input.llm,
    packets: { tokenBudget: input.config.packets.token_budget },
    onStage: input.onStage,
    hasher: input.hasher,
  });
  return { context: a.context, proposals: a.proposals, plan: a.plan, packets: a.packets, diagnostics: a.diagnostics };
}

/**
 * The steering flags plus the season notes addressed to this episode (the Director's input, issue
 * 16), and the threads proposed in play for it (issue 15): a proposed thread is not in the world
 * yet, so it reaches the Director as a note that leans toward featuring its first stakeholder.
 */
export async function steeringWithNotes(root: string, episodeId: string, flags: Steering | null): Promise<Steering> {
  const { notesFor, proposedThreadsFor } = await import('../season/notes.js');
  const { NO_STEERING } = await import('../stages/c-director/steering.js');
  const notes = notesFor(root, episodeId).map((n) => ({ id: n.id, text: n.text, ...(n.thread ? { thread: n.thread } : {}), ...(n.character ? { character: n.character } : {}) }));
  const proposed = proposedThreadsFor(root, episodeId).map((t) => ({ id: t.id, text: `Proposed thread${t.session ? ` (play session ${t.session})` : ''}: ${t.question}`, ...(t.stakeholders[0] ? { character: t.stakeholders[0] } : {}) }));
  return { ...(flags ?? NO_STEERING), notes: [...notes, ...proposed] };
}
