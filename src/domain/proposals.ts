import type { ResolvedDelta } from './delta.js';

/** One candidate move of a principal (spec §6.2), bound and scored against the snapshot. */
export interface ProposedMove {
  operator_id: string;
  /** The main bound target id (the `target` role, else the first non-actor role), or null. */
  target: string | null;
  /** role name -> entity id; always includes `actor`. */
  bindings: Record<string, string>;
  rationale: string;
  /** The operator's effects, resolved against the snapshot with these bindings. */
  expected_deltas: ResolvedDelta[];
  /** The key side-effect risk, in words ("none" if the operator has none). */
  risk: string;
  /** 0..1, from the BDI score (docs/planning.md). */
  priority: number;
}

export interface CharacterProposals {
  character_id: string;
  moves: ProposedMove[];
  /** Who produced the moves that were kept. */
  source: 'symbolic' | 'llm';
  /** Model moves rejected by validation and replaced by symbolic ones, with the reason. */
  dropped: { operator_id: string; reason: string }[];
}

/** Stage B output (agent_proposals.json). */
export interface AgentProposals {
  format: 1;
  episode_id: string;
  state_hash: string;
  proposals: CharacterProposals[];
  /** Principals who propose nothing (dead, exiled, imprisoned). */
  skipped: { character_id: string; status: string }[];
}
