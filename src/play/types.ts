import type { ResolvedDelta } from '../domain/delta.js';
import type { Claim } from '../domain/scene.js';
import type { ScenePacket } from '../domain/packet.js';

/** The play data model (seeds 000, 001, 002, 004). Pure types: no I/O. */

export type CompletionMode = 'open' | 'beat_gated' | 'turn_limited' | 'objective';
export const COMPLETION_MODES: readonly CompletionMode[] = ['open', 'beat_gated', 'turn_limited', 'objective'];
export type Beat = 'establishment' | 'complication' | 'escalation' | 'pivot' | 'resolution';
export const BEATS: readonly Beat[] = ['establishment', 'complication', 'escalation', 'pivot', 'resolution'];

/** The Actor's structured answer (seed 000). The user sees only `*action* "dialogue"`. */
export interface ActorAnswer {
  speaker: string;
  dialogue: string;
  action: string;
  internal: string;
  mood: string;
  tension_shift: number;
}

/** The hidden ContextBrief (seed 002): never shown, never spoken, never exported. */
export interface ContextBrief {
  turn: number;
  key_facts: string[];
  suggested_topics: string[];
  tokens: number;
}

/** One proposed change, staged with its evidence (seed 004); same delta/claim forms as stage F. */
export interface Proposal {
  id: string; // "p1"
  kind: 'delta' | 'claim';
  delta?: ResolvedDelta;
  claim?: Claim;
  /** Who brings the change about (the event's actor when stage F judges it). */
  actor?: string;
  turns: string[]; // supporting turn ids ("t0003")
  reason: string;
  critical: boolean;
  /** `unchanged`: judged and not rejected, but it wrote nothing (already so, or a claim kept as the cast's word). */
  status: 'pending' | 'accepted' | 'unchanged' | 'rejected';
  rejection?: string;
}

export interface SceneSetup {
  scene: string; // "SC03" or "play"
  episode: string | null; // "s01e02" when played from a planned/committed episode
  location: string;
  principal: string;
  cast: string[]; // the other characters on stage
  mode: CompletionMode;
  turn_budget: number;
  objective: string | null;
  season: number;
}

export interface DirectorState {
  turn_count: number;
  current_beat: Beat;
  beats_completed: Beat[];
  user_signals: Record<string, number>;
  tension_curve: number[];
  flags: Record<string, boolean>;
  completion_trigger: string | null;
}

export interface Evaluation {
  summary: string;
  key_moments: string[];
  play_style: string;
  world_changes: string[];
}

export interface NextSuggestion {
  kind: 'compile_episode' | 'play_scene';
  command: string;
  reason: string;
  threads: string[];
}

/** One line of turns.jsonl. Every record is self-contained and the log is only appended to. */
export type TurnRecord =
  /**
   * `packet`, `packet_file`: a planned or committed scene's stage D packet, pinned when the session
   * started (and the file it was read from): every resume and canonization plays this one, whatever
   * a later plan or episode run wrote since. A log written before they existed has neither.
   */
  | { type: 'start'; session: string; seed: string; setup: SceneSetup; packet?: ScenePacket; packet_file?: string }
  | { type: 'user'; id: string; text: string; truncated: boolean }
  /** `beat`, `objective_met`: the Director's observation of the exchange (observe.ts); objective_met in `--mode objective` only. */
  | { type: 'actor'; id: string; reply_to: string; answer: ActorAnswer; content: string; beat?: Beat; objective_met?: boolean }
  | { type: 'command'; id: string; name: string; args: string; effect: string }
  | { type: 'brief'; id: string; brief: ContextBrief }
  | { type: 'proposal'; proposal: Proposal }
  | { type: 'undo'; id: string; target: string }
  | { type: 'canonized'; id: string; commit: string | null; accepted: string[]; unchanged?: string[]; rejected: Record<string, string>; scene_findings?: string[] }
  | { type: 'complete'; id: string; trigger: string; evaluation: Evaluation; next: NextSuggestion };

/** The stream events of seed 000, printed one per line with --json. */
export type PlayEvent =
  /**
   * A model turn's line as it streams: `content` continues the line so far (`reset`: drop what
   * came before, the model's answer started over). Only providers that stream send chunks; the
   * message_complete that follows carries the whole line and is the authority.
   */
  | { type: 'chunk'; turn: string; content: string; reset?: boolean }
  | { type: 'message_complete'; turn: string; content: string; structured: ActorAnswer; director: { turn_count: number; beat: Beat; completion_eligible: boolean } }
  /**
   * `code`: a warning's diagnostic code (the config's, e.g. AUR4010), absent on other notices;
   * `hint`: that diagnostic's hint whenever it has one, the text text mode prints under it.
   */
  | { type: 'notice'; message: string; code?: string; hint?: string }
  | { type: 'episode_complete'; trigger: string; evaluation: Evaluation; next_suggestion: NextSuggestion }
  /** `scene_findings`: stage F's hard findings that name no proposal (a teleport, …): reported, not binding. */
  /** `accepted`: written to canon; `unchanged`: judged, nothing written (already so, or kept as the cast's word). */
  | { type: 'canonized'; commit: string | null; accepted: string[]; unchanged: string[]; rejected: Record<string, string>; scene_findings: string[] }
  | { type: 'done'; session: string; turns: number };

export type PlayNotice = Extract<PlayEvent, { type: 'notice' }>;
