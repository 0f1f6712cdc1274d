import type { BeatTag } from './world.js';
import type { ResolvedDelta } from './delta.js';

export type Phase = 'establishment' | 'complication' | 'escalation' | 'pivot' | 'resolution';
export type MandatoryBeat = 'reveal' | 'reversal' | 'confrontation' | 'cliffhanger';
export const MANDATORY_BEATS: readonly MandatoryBeat[] = ['reveal', 'reversal', 'confrontation', 'cliffhanger'];

export interface RiskRoll {
  text: string;
  prob: number;
  /** The seeded draw in [0,1). triggered = roll < prob. */
  roll: number;
  triggered: boolean;
}

/** One use of an operator in the episode, fully bound. */
export interface OperatorApplication {
  id: string; // "a01"
  operator_id: string;
  type: 'thriller' | 'soap';
  /** role name -> entity id */
  bindings: Record<string, string>;
  outcome: 'success' | 'fail';
  risks: RiskRoll[];
  prereqs: { expr: string; holds: boolean }[];
  /** What must happen on screen; applied at commit if the scene is approved. */
  required_deltas: ResolvedDelta[];
  threads_advanced: string[];
  /** Where the move came from. */
  source: 'proposal' | 'director' | 'injected' | 'fallback';
  proposed_by?: string;
}

export interface Beat {
  id: string; // "b01"
  act: number; // 1..4
  phase: Phase;
  /** At most one mandatory tag per beat; each mandatory tag appears exactly once per episode. */
  tag: MandatoryBeat | null;
  scene: string; // "SC03"
  applications: OperatorApplication[];
  summary: string;
}

export interface PlannedScene {
  id: string; // "SC01"
  number: number;
  act: number;
  location: string;
  time_of_day: 'dawn' | 'morning' | 'day' | 'afternoon' | 'dusk' | 'night';
  /** Day offset within the episode (0-based); travel between scenes is checked against it. */
  day: number;
  cast: string[];
  beats: string[];
  purpose: string;
  /** Cold opens, reversals and finales: the writer may use the escalation model. */
  marquee: boolean;
  /** Characters who travel to this scene (the planner applies `characters.<id>.location set <to>` in its projection). */
  movements?: { character: string; from: string; to: string; days: number }[];
}

export interface AcceptanceCheck {
  id: string;
  rule: string;
  passed: boolean;
  detail: string;
}

export interface DramaResponse {
  condition: 'pacing_low' | 'tension_plateau' | 'threads_near_resolution';
  action: 'inject_complication' | 'schedule_confrontation' | 'defer_resolution';
  at: string; // scene or act reference
  detail: string;
}

export interface EpisodePlan {
  format: 1;
  episode_id: string; // "s01e01"
  season: number;
  episode: number;
  seed: string;
  title: string;
  state_hash: string;
  objectives: Record<string, string>;
  beats: Beat[];
  scenes: PlannedScene[];
  threads_advanced: string[];
  drama_responses: DramaResponse[];
  acceptance_checks: AcceptanceCheck[];
  director: { source: 'symbolic' | 'llm'; attempts: number; fallback_reason: string | null };
}

export type { BeatTag };
