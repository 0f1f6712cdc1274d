import type { InWorldDate } from './world.js';
import type { CliffhangerConstraints } from './context.js';

/** Where a thread stands against its cadence at the start of an episode (spec §10.3). */
export interface ThreadCadenceStatus {
  id: string;
  question: string;
  type: 'thriller' | 'soap';
  priority: number;
  major: boolean;
  status: 'open' | 'resolved' | 'dormant';
  progress: number;
  cadence: number;
  last_progress_episode: number;
  /** Episodes since the thread last progressed, counted up to the episode being planned. */
  episodes_since_progress: number;
  /** Past its cadence: the Director must advance it first. */
  overdue: boolean;
  /** Progress at or above the near-resolution mark (docs/planning.md). */
  near_resolution: boolean;
}

/**
 * Stage A output (episode_context.json): the snapshot the episode is planned from, with the
 * previous episode's cliffhanger applied. Pure data; everything later stages need to know
 * about "where we are" without re-reading the previous episode.
 */
export interface EpisodeContext {
  format: 1;
  episode_id: string;
  season: number;
  episode: number;
  seed: string;
  /** core/hash.ts hashValue(World) of the snapshot. */
  state_hash: string;
  date: InWorldDate;
  date_text: string;
  /** The previous episode's cliffhanger, as read from its cliffhanger_constraints.json (null for a first episode). */
  previous_cliffhanger: CliffhangerConstraints | null;
  /** Physical danger: scene 1 continues at that place and moment with those characters. */
  must_start_immediately: boolean;
  /** Revelation (or no cliffhanger): the episode may open after a time skip. */
  time_skip_allowed: boolean;
  /** The opening the cliffhanger forces, with dead/unavailable characters removed (null when unconstrained). */
  opening: { location: string; characters: string[]; scene: string; summary: string } | null;
  active_threads: ThreadCadenceStatus[];
  /** Principals who can act this episode (alive, not exiled or imprisoned). */
  acting_principals: string[];
  /** Principals who cannot act, with why. */
  unavailable: { id: string; status: string }[];
  /** world.global metric values at the snapshot. */
  metrics: Record<string, number>;
  /** Spec §10.1 tension of the snapshot (0..10). */
  tension: number;
  /** What stage A did, in words (applied constraints, skipped characters). */
  notes: string[];
}
