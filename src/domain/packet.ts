import type { ResolvedDelta } from './delta.js';
import type { Gender, Register, Setting, SecretStatus } from './world.js';
import type { MandatoryBeat } from './plan.js';

export interface PacketCastMember {
  id: string;
  name: string;
  cue: string;
  /** For pronouns and forms of address; absent when the world does not say. */
  gender?: Gender;
  /** The office held in the world's year ("consul"), from the world; absent when none. */
  office?: string;
  status: string;
  mood: string;
  objective: string;
  register: Register;
  voice_tags: string[];
  sample_lines: string[];
  /** Where the character was before this scene (for the teleport check). */
  previous_location: string;
  /** Days available to travel here since their previous scene. */
  days_since_previous: number;
}

export interface SubgraphEdge {
  from: string;
  to: string;
  weights: Record<string, number>;
  flags: string[];
  relevance: number;
}

export interface PacketInstruction {
  beat_id: string;
  application_id: string;
  tag: MandatoryBeat | null;
  operator_id: string;
  operator_name: string;
  type: 'thriller' | 'soap';
  bindings: Record<string, string>;
  outcome: 'success' | 'fail';
  /** success_beat or fail_beat, with role names replaced by character names. */
  narrative_directive: string;
  visual_cues: string[];
  triggered_risks: string[];
}

export interface ScenePacket {
  format: 1;
  episode_id: string;
  scene_id: string; // "SC04"
  number: number;
  act: number;
  marquee: boolean;
  setting: {
    location: string;
    location_name: string;
    kind: Setting;
    /** Outdoors (EXT. heading) or indoors (INT.), from the location (world isExterior). Optional for older packets. */
    exterior?: boolean;
    time_of_day: string;
    day: number;
    date_text: string;
    atmosphere: string;
  };
  cast: PacketCastMember[];
  /** Characters known to be dead at this point (may be mentioned, never speak or act). */
  dead: { id: string; name: string; cue: string }[];
  retrieved_subgraph: {
    k: number;
    characters: { id: string; name: string; faction: string; status: string; location: string; stats: Record<string, number>; intentions: string[] }[];
    edges: SubgraphEdge[];
    /** `told`: an earlier scene of this episode already put the secret into words; refer to it, do not quote it again. */
    secrets: { id: string; text: string; subject: string; holders: string[]; status: SecretStatus; legal_value: number; public_damage: number; told?: boolean }[];
    threads: { id: string; question: string; progress: number; status: string }[];
    accounts: { id: string; owner: string; denarii: number }[];
  };
  /**
   * Where the characters this packet names sit among every character id of the world, sorted
   * (kept in the file, never sent to a model): the offline writer gives each stock line one owner
   * among them for the whole season (providers/offline/writer-lines.ts). Absent in older packets.
   */
  voice_seats?: VoiceSeats;
  /** Every character id of the world, sorted: the seats as packets before `voice_seats` wrote them (read, never written). */
  voices?: string[];
  /** What the budget left out (kept in the file, never sent): forbidden_fact ids are the secret's, dead ids the character's. */
  pruned: { kind: 'edge' | 'secret' | 'thread' | 'account' | 'character' | 'forbidden_fact' | 'dead'; id: string; relevance: number }[];
  director_instructions: { purpose: string; sequence: PacketInstruction[] };
  constraints: {
    required_deltas: (ResolvedDelta & { application_id: string })[];
    forbidden_facts: string[];
    allowed_inventions: { max: number; kinds: string[] };
    hook_requirement: string;
  };
  state_hash_before: string;
  token_estimate: number;
  token_budget: number;
}

/**
 * A packet's seats at the table stock lines are dealt round: `count` seats (every character of the
 * world), and `at`, the seat of each character id the packet names. Why not the whole list: it
 * grew with the world (10,001 ids, ~250 KB of every packet at 10,000 characters, and committed
 * with every episode), while the writer only ever asks for the characters the packet names.
 */
export interface VoiceSeats {
  count: number;
  at: Record<string, number>;
}
