import type { ResolvedDelta } from '../domain/delta.js';
import type { Thread, World } from '../domain/world.js';

/**
 * Thread tracking (spec §10.3). Episode numbers are 1-based within a season; a thread's
 * `last_progress_episode` is the last episode that advanced it (0 = never).
 *
 * episodes_since_progress(thread, E) = E - last_progress_episode, where E is the most recently
 * COMPLETED episode. A thread is overdue when episodes_since_progress > cadence.
 */
export interface ThreadProgress {
  advanced: boolean;
  last_episode: number;
  episodes_since_progress: number;
}

/**
 * thread_progress after episode `episode` completes, for every thread, given the ids of the
 * threads the episode advanced. Keys are thread ids (sorted when serialised).
 */
export function threadProgress(world: World, episode: number, advanced: Iterable<string>): Record<string, ThreadProgress> {
  const adv = new Set(advanced);
  const out: Record<string, ThreadProgress> = {};
  for (const t of world.threads?.threads ?? []) {
    const did = adv.has(t.id);
    const last = did ? episode : t.last_progress_episode;
    out[t.id] = { advanced: did, last_episode: last, episodes_since_progress: Math.max(0, episode - last) };
  }
  return out;
}

/** The deltas that record progress: last_progress_episode := episode for each advanced thread. */
export function threadProgressDeltas(world: World, episode: number, advanced: Iterable<string>): ResolvedDelta[] {
  const adv = new Set(advanced);
  return (world.threads?.threads ?? [])
    .filter((t) => adv.has(t.id) && t.last_progress_episode !== episode)
    .map((t) => ({ path: `threads.${t.id}.last_progress_episode`, op: 'set' as const, value: episode }));
}

export interface OverdueThread {
  thread: Thread;
  episodes_since_progress: number;
  /** episodes_since_progress - cadence (> 0). */
  overdue_by: number;
}

/**
 * Open threads past their cadence after `completedEpisode` (pass N-1 when planning episode N),
 * most urgent first: larger overdue_by, then higher priority, then major, then id.
 */
export function overdueThreads(world: World, completedEpisode: number): OverdueThread[] {
  const out: OverdueThread[] = [];
  for (const t of world.threads?.threads ?? []) {
    if (t.status !== 'open') continue;
    const since = completedEpisode - t.last_progress_episode;
    if (since > t.cadence) out.push({ thread: t, episodes_since_progress: since, overdue_by: since - t.cadence });
  }
  return out.sort(
    (a, b) =>
      b.overdue_by - a.overdue_by ||
      b.thread.priority - a.thread.priority ||
      Number(b.thread.major) - Number(a.thread.major) ||
      (a.thread.id < b.thread.id ? -1 : a.thread.id > b.thread.id ? 1 : 0),
  );
}

/**
 * Season pacing of thread progress (docs/planning.md, "Thread pacing"). A thread has a target
 * episode: the season's finale (season_goals.episodes_planned) for the finale threads, twice the
 * season for the others (subplots that may run on), never earlier than MIN_RESOLUTION_EPISODE.
 * Before its target a thread may gain at most (1 − progress) / (target − episode + 1) in one
 * episode — the remaining distance spread evenly over the episodes left, so it can never reach 1
 * early — and from its target on, the whole remaining distance.
 */
export const MIN_RESOLUTION_EPISODE = 4;
export const DEFAULT_EPISODES_PLANNED = 10;

export interface SeasonPacingGoals {
  episodes_planned: number;
  finale_threads: string[];
}

export interface ThreadPace {
  target_episode: number;
  /** Progress the thread may gain this episode (planner steps and operator effects together). */
  budget: number;
  /** Whether it may be resolved this episode. */
  may_resolve: boolean;
}

export function threadTargetEpisode(thread: Thread, goals: SeasonPacingGoals | null | undefined): number {
  const planned = Math.max(1, goals?.episodes_planned ?? DEFAULT_EPISODES_PLANNED);
  // Without season goals the major threads are the finale's.
  const finale = goals ? goals.finale_threads.includes(thread.id) : thread.major;
  return Math.max(MIN_RESOLUTION_EPISODE, finale ? planned : 2 * planned);
}

export function threadPace(thread: Thread, episode: number, goals: SeasonPacingGoals | null | undefined): ThreadPace {
  const target = threadTargetEpisode(thread, goals);
  const remaining = Math.max(0, 1 - thread.progress);
  const mayResolve = episode >= target;
  const budget = mayResolve ? remaining : remaining / (target - episode + 1);
  // Rounded down so the spread never adds up to 1 early; the whole remainder once it may resolve.
  return { target_episode: target, budget: mayResolve ? budget : Math.floor(budget * 10000) / 10000, may_resolve: mayResolve };
}
