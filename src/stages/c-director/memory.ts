import type { EpisodePlan } from '../../domain/plan.js';
import type { Candidate } from './candidates.js';

/**
 * The Director's memory of the season (docs/planning.md, "Season model"): the moves of recent
 * episodes, so the same scheme with the same people is not replayed week after week.
 *
 * A move is remembered as (operator, actor, target) — the target being the `target` binding or,
 * failing that, the first other role — with the episode it was played in.
 */
export interface RecentMove {
  episode: number;
  operator: string;
  actor: string;
  target: string | null;
}

/** Episodes during which the same (operator, actor, target) is barred after it was played. */
export const COOLDOWN_EPISODES = 4;
/** Heavy, though lighter than the cliffhanger reserve (RESERVE_PENALTY, 100): a cooled move is taken only when little else applies. */
export const COOLDOWN_PENALTY = 60;
/** The same operator with the same actor (another target) in the previous episodes costs a little. */
export const FAMILY_PENALTY = 1.2;

export function targetOf(bindings: Record<string, string>): string | null {
  if (bindings.target) return bindings.target;
  const other = Object.keys(bindings).filter((r) => r !== 'actor').sort()[0];
  return other ? bindings[other]! : null;
}

export const moveKey = (m: { operator: string; actor: string; target: string | null }): string => `${m.operator}|${m.actor}|${m.target ?? ''}`;

/** The (operator, actor, target) moves of committed plans, in episode order. */
export function recentMovesOf(plans: readonly Pick<EpisodePlan, 'episode' | 'beats'>[]): RecentMove[] {
  const out: RecentMove[] = [];
  for (const p of plans) for (const b of p.beats) for (const a of b.applications) {
    if (!a.operator_id || !a.bindings.actor) continue;
    out.push({ episode: p.episode, operator: a.operator_id, actor: a.bindings.actor, target: targetOf(a.bindings) });
  }
  return out;
}

export class SeasonMemory {
  private readonly cooled = new Set<string>();
  private readonly families = new Map<string, number>();
  /** A candidate's penalty never changes (the memory is fixed once built); the Director asks for it per slot. */
  private readonly penalties = new WeakMap<Candidate, number>();

  constructor(episode: number, recent: readonly RecentMove[] = []) {
    for (const m of recent) {
      const age = episode - m.episode;
      if (age < 1 || age > COOLDOWN_EPISODES) continue;
      this.cooled.add(moveKey(m));
      const f = `${m.operator}|${m.actor}`;
      // Fresher repeats weigh more: last episode's family costs most.
      this.families.set(f, (this.families.get(f) ?? 0) + (COOLDOWN_EPISODES + 1 - age) / COOLDOWN_EPISODES);
    }
  }

  /** Is this exact move still cooling down? */
  isCooled(c: Pick<Candidate, 'op' | 'actor' | 'bindings'>): boolean {
    return this.cooled.has(moveKey({ operator: c.op.id, actor: c.actor.id, target: targetOf(c.bindings) }));
  }

  /** Score lost by a candidate for having been played recently (0 for a fresh move). */
  penalty(c: Candidate): number {
    let p = this.penalties.get(c);
    if (p !== undefined) return p;
    p = (this.families.get(`${c.op.id}|${c.actor.id}`) ?? 0) * FAMILY_PENALTY;
    if (this.isCooled(c)) p += COOLDOWN_PENALTY;
    this.penalties.set(c, p);
    return p;
  }
}
