import type { AgentProposals } from '../../domain/proposals.js';
import type { MandatoryBeat, PlannedScene } from '../../domain/plan.js';
import type { World } from '../../domain/world.js';
import { perState, type WorldIndex } from '../../core/world-index.js';
import { checkPrereqs, prereqsHold } from '../../core/expr/index.js';
import { bindingKey, canAct } from '../b-proposals/bdi.js';
import { candidatePool, type PoolEntry } from '../b-proposals/pool.js';
import type { LiveTypes, OpType } from './type-budget.js';

/**
 * The Director's candidate moves: every operator x binding for every acting principal (prereqs
 * checked lazily), each with the proposal behind it, and the reserves that keep the few moves able
 * to end an episode or carry a mandatory beat from being used up early.
 */

export const TIMES: PlannedScene['time_of_day'][] = ['dawn', 'morning', 'day', 'afternoon', 'dusk', 'night'];

/** A pool entry (the move itself) as the Director weighs it: base score and the proposal behind it. */
export interface Candidate extends Pick<PoolEntry, 'op' | 'actor' | 'bindings' | 'key' | 'chars' | 'threads'> {
  base: number;
  proposal: { by: string; priority: number; exact: boolean } | null;
}

/** Where each character last was in the episode (location and scene day). */
export interface Whereabouts {
  location: string;
  day: number;
}

/**
 * Whereabouts of every character: as a scene places its cast (`set`), else where the episode's
 * opening state has them on day 0, looked up when asked. A note for each character of the world
 * was made up front (issue 18: 10,000 of them, for the few dozen a plan asks about).
 */
export class WhereaboutsBook {
  private readonly placed = new Map<string, Whereabouts>();
  private readonly opening = new Map<string, Whereabouts | undefined>();
  constructor(private readonly start: WorldIndex) {}
  get(id: string): Whereabouts | undefined {
    const w = this.placed.get(id);
    if (w) return w;
    if (!this.opening.has(id)) {
      const c = this.start.characters.get(id);
      this.opening.set(id, c ? { location: c.location, day: 0 } : undefined);
    }
    return this.opening.get(id);
  }
  set(id: string, w: Whereabouts): void {
    this.placed.set(id, w);
  }
}

export function buildCandidates(world: World, episode: number, proposals: AgentProposals): Candidate[] {
  const proposalIndex = new Map<string, { by: string; priority: number }>();
  const proposalOpActor = new Map<string, { by: string; priority: number }>();
  for (const p of proposals.proposals) for (const m of p.moves) {
    proposalIndex.set(bindingKey(m.operator_id, m.bindings), { by: p.character_id, priority: m.priority });
    const k = `${m.operator_id}|${p.character_id}`;
    if (!proposalOpActor.has(k)) proposalOpActor.set(k, { by: p.character_id, priority: m.priority });
  }
  return candidatePool(world, episode).map((e) => {
    const exact = proposalIndex.get(e.key);
    const loose = proposalOpActor.get(`${e.op.id}|${e.actor.id}`);
    return {
      op: e.op, actor: e.actor, bindings: e.bindings, key: e.key, chars: e.chars, threads: e.threads, base: e.score,
      proposal: exact ? { ...exact, exact: true } : loose ? { ...loose, exact: false } : null,
    };
  });
}

/**
 * When this few (operator, actor) families can still end the episode, the earlier slots leave them
 * alone; a re-plan (attempt > 0) protects every one of them.
 */
export const CLIFFHANGER_RESERVE = 3;

const families = new WeakMap<Candidate, string>();

/** The candidate's family (operator|actor), made once: the Director looks it up per slot. */
export function familyOf(c: Candidate): string {
  let f = families.get(c);
  if (f === undefined) families.set(c, (f = `${c.op.id}|${c.actor.id}`));
  return f;
}

type PrereqCheck = ReturnType<typeof checkPrereqs>;
type Kept<T> = WeakMap<Candidate, { episode: number; r: T }>;
const prereqsOn = (index: WorldIndex): Kept<PrereqCheck> => perState(index, candidatePrereqs, () => new WeakMap());
const holdsOn = (index: WorldIndex): Kept<boolean> => perState(index, candidateHolds, () => new WeakMap());

/**
 * checkPrereqs of a candidate on one projected state. It is pure in (state, candidate, episode) and an
 * index is one immutable state, so it is kept: the Director asks it for the same state once per slot
 * (the reserves below) and again when placing the move.
 */
export function candidatePrereqs(c: Candidate, index: WorldIndex, episode: number): PrereqCheck {
  const m = prereqsOn(index);
  const hit = m.get(c);
  if (hit && hit.episode === episode) return hit.r;
  const r = checkPrereqs(c.op, c.bindings, index, { episode });
  m.set(c, { episode, r });
  return r;
}
/**
 * candidatePrereqs(c, index, episode).holds, stopping at the first prerequisite that does not hold
 * unless the full check is already kept: the reserves below only ask whether a move is live, for
 * every carrier of a tag on every projected state (issue 18); only a move the Director tries needs
 * each prerequisite's result (tryPlace). Evaluation is pure, so the answer is the full check's.
 */
export function candidateHolds(c: Candidate, index: WorldIndex, episode: number): boolean {
  const full = prereqsOn(index).get(c);
  if (full && full.episode === episode) return full.r.holds;
  const m = holdsOn(index);
  const hit = m.get(c);
  if (hit && hit.episode === episode) return hit.r;
  const holds = prereqsHold(c.op, c.bindings, index, { episode });
  m.set(c, { episode, r: holds });
  return holds;
}

export const RESERVE_PENALTY = 100;

/**
 * The cliffhanger families still applicable on the projection, if they are few enough to protect. The
 * answer does not depend on the order the moves are looked at (the live families, or none when more
 * than `limit` are live), so the moves that kept a family live on an earlier slot (`witnesses`, updated
 * here) are looked at first: while more than `limit` of them still hold, no other move is checked.
 */
export function cliffhangerReserve(cliff: Candidate[], index: WorldIndex, usedKeys: Set<string>, episode: number, limit: number, witnesses: Candidate[] = []): Set<string> {
  const families = new Set<string>();
  const found: Candidate[] = [];
  const live = (c: Candidate): boolean => {
    const f = familyOf(c);
    if (families.has(f) || usedKeys.has(c.key)) return false;
    if (!c.chars.every((id) => canAct(index.characters.get(id)))) return false;
    if (!candidateHolds(c, index, episode)) return false;
    families.add(f);
    found.push(c);
    return true;
  };
  let none = false;
  for (const c of witnesses) if (live(c) && families.size > limit) { none = true; break; }
  if (!none) for (const c of cliff) if (live(c) && families.size > limit) { none = true; break; }
  witnesses.splice(0, witnesses.length, ...found);
  return none ? new Set() : families;
}

/**
 * For each mandatory tag, the types of its carriers whose prereqs hold on the projection now (not
 * used, able to act), worked out when first asked: the type budget asks only when its answer depends
 * on them (type-budget.ts). The keys used so far are copied, as the budget asks at the next slot.
 */
export function liveTypesOfTags(tagCandidates: Map<MandatoryBeat, Candidate[]>, index: WorldIndex, usedKeys: ReadonlySet<string>, episode: number): LiveTypes {
  const used = new Set(usedKeys);
  const out = new Map<MandatoryBeat, Set<OpType>>();
  return (tag) => {
    let types = out.get(tag);
    if (types) return types;
    out.set(tag, (types = new Set<OpType>()));
    for (const c of tagCandidates.get(tag) ?? []) {
      if (types.has(c.op.type) || used.has(c.key)) continue;
      if (!c.chars.every((id) => canAct(index.characters.get(id)))) continue;
      if (!candidateHolds(c, index, episode)) continue;
      types.add(c.op.type);
      if (types.size === 2) break;
    }
    return types;
  };
}
