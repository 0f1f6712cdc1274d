import type { CliffhangerConstraints, EpisodeRef } from '../../domain/context.js';
import type { EpisodeContext, ThreadCadenceStatus } from '../../domain/episode-context.js';
import type { InWorldDate, Thread, World } from '../../domain/world.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diag } from '../../diagnostics/catalog.js';
import '../../diagnostics/codes/planning.js';
import { stateHash, type StateHasher } from '../../core/state-hash.js';
import { round } from '../../core/json.js';
import { addDays, formatDate } from '../../core/roman-date.js';
import { tension } from '../../core/tension.js';
import { compareText } from '../../core/text-order.js';

/** Progress at or above this counts as "near resolution" (spec §10.2 deferral). */
export const NEAR_RESOLUTION = 0.8;

/** A scene heading's date: the world's date plus the scene's day offset, in the one reader format (core/roman-date). */
export function dateText(d: InWorldDate, plusDays = 0): string {
  return formatDate(addDays(d, plusDays));
}

/** Spec §10.3: episodes since the thread last progressed, counted up to the episode being planned. */
export function episodesSinceProgress(t: Thread, episode: number): number {
  return Math.max(0, episode - 1 - (t.last_progress_episode ?? 0));
}

export function threadCadence(t: Thread, episode: number): ThreadCadenceStatus {
  const since = episodesSinceProgress(t, episode);
  return {
    id: t.id,
    question: t.question,
    type: t.type,
    priority: t.priority,
    major: t.major,
    status: t.status,
    progress: round(t.progress),
    cadence: t.cadence,
    last_progress_episode: t.last_progress_episode,
    episodes_since_progress: since,
    overdue: since > t.cadence,
    near_resolution: t.progress >= NEAR_RESOLUTION,
  };
}

export interface SnapshotInput {
  world: World;
  ref: EpisodeRef;
  seed: string;
  /** The previous episode's cliffhanger_constraints.json, or null (first episode / none written). */
  previousCliffhanger: CliffhangerConstraints | null;
  /** Planning's state hasher, shared with stage D, whose first state is mostly this world's elements. */
  hasher?: StateHasher;
}

/** Stage A (pure): the episode context. */
export function buildEpisodeContext(input: SnapshotInput): { context: EpisodeContext; diagnostics: Diagnostic[] } {
  const { world, ref, seed } = input;
  const cliff = input.previousCliffhanger;
  const diagnostics: Diagnostic[] = [];
  const notes: string[] = [];
  const chars = world.characters.characters;
  const principals = chars.filter((c) => c.principal);
  const acting = principals.filter((c) => c.status === 'alive').map((c) => c.id).sort();
  const unavailable = principals.filter((c) => c.status !== 'alive').map((c) => ({ id: c.id, status: c.status })).sort((a, b) => compareText(a.id, b.id));
  for (const u of unavailable) notes.push(`${u.id} is ${u.status} and cannot act`);

  let mustStart = false;
  let timeSkip = true;
  let opening: EpisodeContext['opening'] = null;
  if (cliff) {
    mustStart = cliff.kind === 'physical_danger' || cliff.must_start_immediately === true;
    timeSkip = !mustStart && (cliff.kind === 'revelation' || cliff.time_skip_allowed === true);
    if (mustStart) {
      const locationOk = world.world.locations.some((l) => l.id === cliff.location);
      // Made only here: the opening's few characters are all it looks up (10,000 entries at 10,000 characters).
      const byId = new Map(chars.map((c) => [c.id, c]));
      const characters: string[] = [];
      for (const id of cliff.characters) {
        const c = byId.get(id);
        if (c && c.status === 'alive') characters.push(id);
        else {
          diagnostics.push(diag('AUR3004', { what: 'character', id }, { severity: 'info' }));
          notes.push(`cliffhanger character ${id} left out of the opening (${c ? c.status : 'unknown'})`);
        }
      }
      if (!locationOk) {
        diagnostics.push(diag('AUR3004', { what: 'location', id: cliff.location }));
        notes.push(`cliffhanger location ${cliff.location} is unknown; the opening is unconstrained`);
      } else if (characters.length > 0) {
        opening = { location: cliff.location, characters, scene: cliff.scene, summary: cliff.summary };
        notes.push(`physical danger: scene 1 continues at ${cliff.location} with ${characters.join(', ')}, no time skip`);
      } else {
        notes.push('physical danger, but no one from the cliffhanger can appear; the opening is unconstrained');
      }
    } else if (timeSkip) {
      notes.push(`${cliff.kind} cliffhanger: a time skip is allowed`);
    } else {
      notes.push(`${cliff.kind} cliffhanger: no time skip`);
    }
  }

  const metrics: Record<string, number> = {};
  for (const k of Object.keys(world.world.global).sort()) metrics[k] = round(world.world.global[k]!.value);

  const context: EpisodeContext = {
    format: 1,
    episode_id: ref.id,
    season: ref.season,
    episode: ref.episode,
    seed,
    state_hash: input.hasher ? input.hasher.hash(world) : stateHash(world),
    date: { ...world.world.date },
    date_text: dateText(world.world.date),
    previous_cliffhanger: cliff,
    must_start_immediately: mustStart,
    time_skip_allowed: timeSkip,
    opening,
    active_threads: world.threads.threads
      .filter((t) => t.status === 'open')
      .map((t) => threadCadence(t, ref.episode))
      .sort((a, b) => Number(b.overdue) - Number(a.overdue) || b.priority - a.priority || compareText(a.id, b.id)),
    acting_principals: acting,
    unavailable,
    metrics,
    tension: round(tension(world)),
    notes,
  };
  return { context, diagnostics };
}
