import type { MandatoryBeat } from '../../domain/plan.js';
import type { Operator } from '../../domain/world.js';
import { perState, type WorldIndex } from '../../core/world-index.js';
import { canAct } from '../b-proposals/bdi.js';
import { ACT_PHASE, type SceneSlotPlan } from './shape.js';
import { RESERVE_PENALTY, familyOf, type Candidate } from './candidates.js';
import { LOCATION_FULL_PENALTY, LOCATION_SOFT_CAP, minUses, settingOk } from './locations.js';
import { MIN_THREAD_STEP, budgetLeft, type Pacing } from './application.js';
import type { SeasonMemory } from './memory.js';
import { FALLEN_STATUSES } from '../../core/cascade.js';

/** Everything the score of one slot's candidates depends on (the planner's running state). */
export interface SlotScoring {
  index: WorldIndex;
  scene: SceneSlotPlan;
  /** The first move of the scene (k = 0) or a later one. */
  k: number;
  slotType: 'thriller' | 'soap';
  needTag: MandatoryBeat | null;
  needComplication: boolean;
  allowed: Record<'thriller' | 'soap', boolean>;
  usedKeys: ReadonlySet<string>;
  /** The scene's place once its first move fixed it. */
  location: string | null;
  forcedOpening: { location: string; characters: string[] } | null;
  locUses: ReadonlyMap<string, number>;
  deferred: ReadonlySet<string>;
  overdue: ReadonlySet<string>;
  pacing: Pacing;
  advancedCount: ReadonlyMap<string, number>;
  opUses: ReadonlyMap<string, number>;
  /** Moves per actor in the scene's act (`act|actor` counts of the attempt, read once per slot: no key string per candidate). */
  actUses: ReadonlyMap<string, number>;
  appearances: ReadonlyMap<string, number>;
  cast: ReadonlySet<string>;
  reserve: ReadonlySet<string>;
  memory: SeasonMemory;
  /** How far into the season this episode is (0 at the start, 1 at episodes_planned). */
  seasonProgress: number;
  /** The last re-plan: the season's memory and closed stories no longer bar a move. */
  relaxed: boolean;
  /** Each thread's part of threadNeed, filled as the slot's candidates ask (it depends on the slot only). */
  threadNeeds: Map<string, number | null>;
  /** canAct by character id on `index`, filled as asked (actableIn): looked up once per slot, not per candidate. */
  actable: Map<string, boolean>;
  /**
   * Every character any of the attempt's candidates binds can act on `index` (allCanAct of them all,
   * once per slot): then no candidate is excluded for its cast, and none is looked up per candidate.
   */
  everyoneActs: boolean;
  /** The ids of the threads resolved on `index` (resolvedIn), likewise. */
  resolved: ReadonlySet<string>;
  /** What the score reads of an operator alone, filled as asked (factsOf): once per operator of the slot, not per candidate. */
  opFacts: Map<Operator, OpFacts>;
  /** The Director's own parts of an operator's facts (attempt.ts rankSlot), worked out with them. */
  opBonus: (c: Candidate) => OpBonus;
}

/** What the Director adds to a slot's score for an operator, whichever candidate of it (attempt.ts rankSlot). */
export interface OpBonus {
  /** A due anchor names it (world/anchors.json): the season's memory does not hold it back. */
  due: boolean;
  /** The due anchor's bonus, what it does for the metrics the anchors need, the tension arc's pull. */
  bonus: number;
  prep: number;
  arc: number;
}

/** The parts of a slot's score that depend on the candidate's operator alone (one per operator of the slot). */
export interface OpFacts extends OpBonus {
  /** settingOk at the scene's place (true while the slot has none). */
  settingHere: boolean;
  /** settingOk at the forced opening's place (false without one). */
  settingOpening: boolean;
  /** It carries the act's phase beat; the complication beat. */
  phase: boolean;
  complication: boolean;
  /** 0.6 per earlier use of the operator this episode. */
  usesCost: number;
  fatal: boolean;
}

/** The facts of the candidate's operator for this slot, made with its first candidate (OpBonus reads it). */
export function factsOf(c: Candidate, st: SlotScoring): OpFacts {
  const op = c.op;
  let f = st.opFacts.get(op);
  if (!f) {
    const b = st.opBonus(c);
    // One object literal (no spread): every operator's facts share one shape, read per candidate.
    st.opFacts.set(op, (f = {
      due: b.due, bonus: b.bonus, prep: b.prep, arc: b.arc,
      settingHere: !st.location || settingOk(st.index, op, st.location),
      settingOpening: !!st.forcedOpening && settingOk(st.index, op, st.forcedOpening.location),
      phase: op.beats.includes(ACT_PHASE[st.scene.act]!),
      complication: op.beats.includes('complication'),
      usesCost: 0.6 * (st.opUses.get(op.id) ?? 0),
      fatal: isFatal(op),
    }));
  }
  return f;
}

/** A move whose success kills, exiles or imprisons (core/cascade.ts): the season saves it for its last third. */
const FATAL_BONUS = 4;
const fatal = new WeakMap<object, boolean>();
export function isFatal(op: Operator): boolean {
  let f = fatal.get(op);
  if (f === undefined) {
    f = op.effects.some((e) => /\.status$/.test(String(e.path)) && (FALLEN_STATUSES as readonly unknown[]).includes(e.value));
    fatal.set(op, f);
  }
  return f;
}

/** canAct of the characters of one state, filled as asked and kept per state: every slot asks it for each bound character of every candidate. */
export function actableIn(index: WorldIndex): Map<string, boolean> {
  return perState(index, actableIn, () => new Map<string, boolean>());
}

/** The attempt's `act|actor` move counts of one act, by actor. */
export function actUsesIn(actorActUses: ReadonlyMap<string, number>, act: number): Map<string, number> {
  const out = new Map<string, number>();
  const prefix = `${act}|`;
  for (const [k, n] of actorActUses) if (k.startsWith(prefix)) out.set(k.slice(prefix.length), n);
  return out;
}

function countIn(ids: readonly string[], has: (id: string) => boolean): number {
  let n = 0;
  for (const id of ids) if (has(id)) n++;
  return n;
}

export function allCanAct(index: WorldIndex, m: Map<string, boolean>, ids: readonly string[]): boolean {
  for (const id of ids) {
    let ok = m.get(id);
    if (ok === undefined) m.set(id, (ok = canAct(index.characters.get(id))));
    if (!ok) return false;
  }
  return true;
}

/** The candidate cannot take the slot at all (it draws no jitter and is not ranked); `f`: its operator's facts. */
export function excluded(c: Candidate, st: SlotScoring, f: OpFacts): boolean {
  if (st.needTag && !c.op.beats.includes(st.needTag)) return true;
  if (!st.allowed[c.op.type]) return true;
  if (st.usedKeys.has(c.key)) return true;
  if (!st.everyoneActs && !allCanAct(st.index, st.actable, c.chars)) return true;
  if (!f.settingHere) return true;
  // A resolved thread stays resolved: a move whose every story is closed is not replayed.
  return !st.relaxed && closedIn(c, st.resolved);
}

/**
 * The score of a candidate that can take the slot. scoreBound below follows it term by term: a
 * change here must be made there too (test/stages/planning/slot-bound.test.ts compares the two).
 */
export function scoreOf(c: Candidate, st: SlotScoring, placeFull: (op: Operator) => number, f: OpFacts): number {
  const { k } = st;
  let s = c.base;
  // Location variety: a first move whose every allowed place is already full costs a little.
  if (!st.location && !(st.forcedOpening && k === 0) && st.locUses.size) s -= LOCATION_FULL_PENALTY * placeFull(c.op);
  if (c.proposal) s += c.proposal.exact ? c.proposal.priority : 0.5 * c.proposal.priority;
  s += threadNeed(c, st);
  if (c.op.type === st.slotType) s += 0.6;
  if (f.phase) s += 0.5;
  if (st.needComplication && f.complication) s += 5;
  s -= f.usesCost;
  s -= 0.3 * (st.actUses.get(c.actor.id) ?? 0);
  // Spread the screen time: every earlier appearance of a bound character costs a little.
  for (const id of c.chars) s -= 0.15 * (st.appearances.get(id) ?? 0);
  if (st.forcedOpening && k === 0) {
    const opening = st.forcedOpening;
    s += 2 * countIn(c.chars, (id) => opening.characters.includes(id));
    // The opening's place is forced: moves allowed there come first; another is used only if none applies.
    if (f.settingOpening) s += 3;
  }
  if (k > 0) s += 0.8 * countIn(c.chars, (id) => st.cast.has(id));
  // One of the last few ways to end the episode: keep it for the cliffhanger unless nothing else fits.
  if (st.reserve.size && st.reserve.has(familyOf(c))) s -= RESERVE_PENALTY;
  // An overdue thread that has not moved yet outranks the cooldown (overdue_first is a hard rule).
  const rescues = st.overdue.size > 0 && c.threads.some((t) => st.overdue.has(t) && !st.advancedCount.has(t));
  // The season's shape: the irreversible moves come late, and then they press.
  if (f.fatal) s += st.seasonProgress >= 2 / 3 ? FATAL_BONUS * st.seasonProgress : -FATAL_BONUS;
  s -= rescues ? Math.min(st.memory.penalty(c), 1) : st.memory.penalty(c);
  return s;
}

/** What scoreBound reads of a candidate that stays the same for the whole attempt (c-director/bounds.ts). */
export interface FixedParts {
  /** c.base plus the proposal's part, added in scoreOf's order. */
  lead: number;
  /** The least the season's memory can take off it this attempt while its operator is not due (scoreOf's last term). */
  memory: number;
  family: string;
  /** The showrunner requires the move (--require): it is scored without the season's memory. */
  required: boolean;
}

/**
 * An upper bound of scoreOf(c, st, …) that reads no per-candidate lookup but its threads': the same
 * additions in the same order, with each penalty that needs a lookup (a full place, the actor's and the
 * cast's earlier moves, the memory's part above `fixed.memory`) left out and each count of bound
 * characters in the cast or the forced opening taken at its most (every bound character). Rounded
 * addition and subtraction are monotone in each operand, so the float is never below scoreOf's.
 */
export function scoreBound(c: Candidate, st: SlotScoring, f: OpFacts, fixed: FixedParts): number {
  const { k } = st;
  let s = fixed.lead;
  s += threadNeed(c, st);
  if (c.op.type === st.slotType) s += 0.6;
  if (f.phase) s += 0.5;
  if (st.needComplication && f.complication) s += 5;
  s -= f.usesCost;
  if (st.forcedOpening && k === 0) {
    s += 2 * c.chars.length;
    if (f.settingOpening) s += 3;
  }
  if (k > 0) s += 0.8 * c.chars.length;
  if (st.reserve.size && st.reserve.has(fixed.family)) s -= RESERVE_PENALTY;
  if (f.fatal) s += st.seasonProgress >= 2 / 3 ? FATAL_BONUS * st.seasonProgress : -FATAL_BONUS;
  s -= f.due ? 0 : fixed.memory;
  return s;
}

/** What bounds every move of one (actor, operator) run of a slot's candidates (slot-blocks.ts). */
export interface BlockParts {
  /** The largest FixedParts.lead and the least FixedParts.memory of the run's moves. */
  lead: number;
  memory: number;
  /** The most characters one move of the run binds. */
  chars: number;
  family: string;
  type: Operator['type'];
  /** Every thread a move of the run names, as often as the move naming it most. */
  threads: string[];
}

/**
 * An upper bound of every run member's total (scoreBound + the operator's parts + its jitter, below
 * `jitterTop`), read once per run instead of once per move: scoreBound's terms with the run's largest
 * lead, cast count and thread needs (each thread's part at least 0) and its least memory. The same
 * sums in another order may round differently, so the bound carries a slack far above any rounding
 * (1e-9 of the operands' magnitude). NaN when an operand is not finite, or so large that its sums
 * could overflow: the caller then ranks move by move.
 */
export function blockBound(b: BlockParts, st: SlotScoring, f: OpFacts, jitterTop: number): number {
  const { k } = st;
  let need = 0;
  for (const t of b.threads) {
    let v = st.threadNeeds.get(t);
    if (v === undefined) st.threadNeeds.set(t, (v = needOf(t, st)));
    if (v !== null && !(v <= 0)) need += v; // a NaN part is kept: it makes the bound NaN
  }
  const opening = st.forcedOpening && k === 0 ? 2 * b.chars + (f.settingOpening ? 3 : 0) : 0;
  const cast = k > 0 ? 0.8 * b.chars : 0;
  const reserve = st.reserve.size && st.reserve.has(b.family) ? RESERVE_PENALTY : 0;
  const fatal = f.fatal ? (st.seasonProgress >= 2 / 3 ? FATAL_BONUS * st.seasonProgress : -FATAL_BONUS) : 0;
  const memory = f.due ? 0 : b.memory;
  const fixed = (b.type === st.slotType ? 0.6 : 0) + (f.phase ? 0.5 : 0) + (st.needComplication && f.complication ? 5 : 0);
  // Scalars, not an array of parts: this runs for every run of every slot.
  const s = b.lead + need + fixed - f.usesCost + opening + cast - reserve + fatal - memory + f.bonus + f.prep + f.arc + jitterTop;
  const size = Math.abs(b.lead) + need + fixed + Math.abs(f.usesCost) + Math.abs(opening) + cast + reserve + Math.abs(fatal) + Math.abs(memory)
    + Math.abs(f.bonus) + Math.abs(f.prep) + Math.abs(f.arc) + Math.abs(jitterTop);
  if (!(size < 1e300)) return Number.NaN;
  return s + 1e-9 * (1 + size);
}

/**
 * Each candidate's FixedParts for one attempt. A required move is scored without the memory; another
 * may lose only min(penalty, 1) while one of its threads is overdue (the rescue scoreOf grants while the
 * thread has not moved), else its whole penalty.
 */
export function fixedParts(cands: readonly Candidate[], memory: SeasonMemory, overdue: ReadonlySet<string>, required: (c: Candidate) => boolean): FixedParts[] {
  return cands.map((c) => {
    const lead = c.proposal ? c.base + (c.proposal.exact ? c.proposal.priority : 0.5 * c.proposal.priority) : c.base;
    const req = required(c);
    const p = req ? 0 : memory.penalty(c);
    const rescuable = overdue.size > 0 && c.threads.some((t) => overdue.has(t));
    return { lead, memory: rescuable ? Math.min(p, 1) : p, family: familyOf(c), required: req };
  });
}

/** What the candidate's threads need: open, not deferred, with pace budget left; overdue first. */
function threadNeed(c: Candidate, st: SlotScoring): number {
  let s = 0;
  for (const t of c.threads) {
    let v = st.threadNeeds.get(t);
    if (v === undefined) st.threadNeeds.set(t, (v = needOf(t, st)));
    if (v !== null) s += v;
  }
  return s;
}

/** One thread's part of threadNeed on this slot (null: it adds nothing), the same for every candidate. */
function needOf(t: string, st: SlotScoring): number | null {
  if (st.deferred.has(t)) return null;
  const th = st.index.threads.get(t);
  if (!th || th.status !== 'open') return null;
  if (budgetLeft(st.pacing, t, th.progress) < MIN_THREAD_STEP) return null;
  let need = th.priority / 5;
  const n = st.advancedCount.get(t) ?? 0;
  if (st.overdue.has(t) && n === 0) need += st.scene.act <= 2 ? 3 : 1.5;
  return n === 0 ? need : need / (1 + n);
}

/** The least-used allowed place's fullness per operator, computed once per slot. */
export function placeFullness(index: WorldIndex, locUses: ReadonlyMap<string, number>): (op: Operator) => number {
  const fullness = new Map<Operator, number>();
  return (op) => {
    let f = fullness.get(op);
    if (f === undefined) { f = Math.max(0, minUses(index, op, locUses) - LOCATION_SOFT_CAP + 1); fullness.set(op, f); }
    return f;
  };
}

/** Every thread the move belongs to (by tags or effects) is resolved. */
function closedIn(c: Pick<Candidate, 'threads'>, resolved: ReadonlySet<string>): boolean {
  return c.threads.length > 0 && resolved.size > 0 && c.threads.every((t) => resolved.has(t));
}

/**
 * The resolved threads' ids of one state, kept per index (one immutable projected state, as
 * candidatePrereqs keeps its checks): every slot asks closedIn of each candidate, and most states
 * have no resolved thread at all, which settles it without a lookup per candidate thread.
 */
export function resolvedIn(index: WorldIndex): ReadonlySet<string> {
  return perState(index, resolvedIn, () => {
    const ids = new Set<string>();
    for (const [id, t] of index.threads) if (t.status === 'resolved') ids.add(id);
    return ids;
  });
}
