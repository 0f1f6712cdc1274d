import type { AppliedDelta } from '../../domain/delta.js';
import type { EpisodeContext } from '../../domain/episode-context.js';
import type { Beat, DramaResponse, EpisodePlan, MandatoryBeat, OperatorApplication, PlannedScene } from '../../domain/plan.js';
import type { Operator, World } from '../../domain/world.js';
import { Rng } from '../../core/rng.js';
import { indexWorld, type WorldIndex } from '../../core/world-index.js';
import { canAct } from '../b-proposals/bdi.js';
import { threadPace } from '../../core/threads.js';
import { episodeShape, type EpisodeShape, type SceneSlotPlan } from './shape.js';
import { DramaTracker } from './metrics.js';
import { chooseObjectives } from './objectives.js';
import { infeasible } from './infeasible.js';
import { openingWorld } from './checks.js';
import { SteeringHook, type Steering } from './steering.js';
import { CLIFFHANGER_RESERVE, buildCandidates, cliffhangerReserve, liveTypesOfTags, WhereaboutsBook, type Candidate } from './candidates.js';
import type { Pacing } from './application.js';
import { actUsesIn, actableIn, allCanAct, excluded, factsOf, fixedParts, placeFullness, resolvedIn, scoreBound, scoreOf, type FixedParts, type SlotScoring } from './score.js';
import { TypeBudget } from './type-budget.js';
import { SeasonMemory } from './memory.js';
import { AnchorGate, dueAnchors, liveAnchors } from './anchors.js';
import { metricNeeds, prepScore, type MetricNeeds } from './anchor-prep.js';
import { bestFirst } from './ranking.js';
import { rankByBlocks, runsOf, slotRuns, type Block, type BlockSlot, type Runs } from './slot-blocks.js';
import { arcWeight, expectedTension, tensionPull, tensionTargets } from './tension-arc.js';
import { tension } from '../../core/tension.js';
import type { Anchor } from '../../domain/anchors.js';
import { actBreakDays } from './calendar.js';
import type { DirectorInput } from './plan.js';

/** How many seeded attempts the Director makes before reporting the plan infeasible. */
export const PLAN_ATTEMPTS = 4;

/** A move the showrunner requires (--require) is scored without the season's memory or closed stories. */
const FORGETFUL = new SeasonMemory(0);
const isRequired = (s: Steering | null | undefined, c: Candidate): boolean =>
  !!s && s.require.some((r) => r.op === c.op.id && (!r.actor || r.actor === c.actor.id));

export interface Projection {
  world: World;
  index: WorldIndex;
}

/** One scene being filled: its mandatory tag (which may slip) and what its moves fixed so far. */
export interface SceneWork {
  sc: SceneSlotPlan;
  isLast: boolean;
  tag: MandatoryBeat | null;
  slipped: Set<MandatoryBeat>;
  due: MandatoryBeat[];
  apps: OperatorApplication[];
  start: World;
  location: string | null;
  day: number;
  tod: number;
  movements: NonNullable<PlannedScene['movements']>;
  cast: Set<string>;
  step: number;
  forcedOpening: { location: string; characters: string[] } | null;
}

/** The order in which the mandatory beats other than the cliffhanger are placed when several are due. */
const TAG_ORDER: MandatoryBeat[] = ['confrontation', 'reveal', 'reversal'];

/**
 * The running state of one planning attempt (HTN-lite, spec §2.2): the projection, the episode's
 * shape and every count the scores depend on. plan.ts runs it scene by scene; scene.ts fills a
 * scene; responses.ts applies the §10.2 drama responses after it.
 */
export class Attempt {
  readonly world: World;
  /** The input world's index (the plan's words look names up in it: text.ts). */
  readonly inputIndex: WorldIndex;
  readonly context: EpisodeContext;
  readonly episode: number;
  readonly rng: Rng;
  readonly jitterScale: number;
  /** Risk rolls are always the seed's own (the risks_rolled check replays them); only choices vary. */
  readonly riskRng: Rng;
  readonly shape: EpisodeShape;
  readonly objectives: Record<string, string>;
  readonly steer: SteeringHook;
  readonly gate: AnchorGate;
  readonly candidates: Candidate[];
  readonly cliffCandidates: Candidate[];
  readonly tagCandidates = new Map<MandatoryBeat, Candidate[]>();
  /** What each candidate's score bound reads that stays the same for the attempt, by position in `candidates`. */
  readonly fixed: FixedParts[];
  /** The moves that kept a cliffhanger family live on the last slot (cliffhangerReserve looks at them first). */
  readonly cliffWitnesses: Candidate[] = [];
  /** Every character some candidate binds, once each (slotScoring's everyoneActs). */
  readonly boundChars: string[];
  proj: Projection;
  readonly where: WhereaboutsBook;
  readonly overdue: Set<string>;
  readonly advancedCount = new Map<string, number>();
  readonly deferred = new Set<string>();
  readonly resolvedMajors = new Set<string>();
  readonly opUses = new Map<string, number>();
  readonly usedKeys = new Set<string>();
  readonly actorActUses = new Map<string, number>();
  readonly appearances = new Map<string, number>();
  /** Scenes set at each location so far this episode (location variety, see pickLocation). */
  readonly locUses = new Map<string, number>();
  readonly dramaResponses: DramaResponse[] = [];
  readonly drama = new DramaTracker();
  readonly sceneApplied: AppliedDelta[] = [];
  pendingComplication = false;
  pendingTags: MandatoryBeat[] = [];
  readonly placedTags = new Set<MandatoryBeat>();
  clock = { day: 0, tod: -1 };
  readonly beats: Beat[] = [];
  readonly scenes: PlannedScene[] = [];
  appSeq = 0;
  slotSeq = 0;
  readonly totalSlots: number;
  readonly opening: EpisodeContext['opening'] | null;
  readonly majorOpen: string[];
  /** Season pacing (core/threads.ts threadPace): how much each thread may gain in this episode. */
  readonly pacing: Pacing;
  readonly types: TypeBudget;
  readonly seasonProgress: number;
  readonly memory: SeasonMemory;
  /** Days that pass at each act break so the season reaches its anchors by the finale (calendar.ts). */
  readonly actBreak: number;
  /** The tension the episode aims at after each scene (tension-arc.ts). */
  readonly arc: number[];
  readonly arcWeight: number;
  /** The anchors still to be played this season (due or ahead): what their operators need is prepared. */
  readonly toPlay: Anchor[];

  constructor(readonly input: DirectorInput, readonly attempt: number) {
    const { world, context, proposals, seed } = input;
    this.world = world;
    this.inputIndex = indexWorld(world);
    this.context = context;
    this.episode = context.episode;
    this.rng = attempt === 0 ? new Rng(seed) : new Rng(seed).fork(`retry/${attempt}`);
    this.jitterScale = 0.25 + attempt;
    this.riskRng = new Rng(seed);
    const lastType: 'thriller' | 'soap' | null = attempt === 0 ? null : attempt % 2 === 1 ? 'soap' : 'thriller';

    let acting = 0;
    for (const c of world.characters.characters) if (c.principal && canAct(c)) acting++;
    if (acting === 0) throw infeasible('acting_principals', 'no principal is alive and free', 'AUR3002');
    const openThreads = world.threads.threads.filter((t) => t.status === 'open');
    this.shape = episodeShape(acting, openThreads.length, this.rng);
    if (attempt > 0) this.reversalFromAct4();
    this.objectives = chooseObjectives(this.inputIndex, context, this.rng);
    this.steer = new SteeringHook(input.steering ?? null);
    this.gate = new AnchorGate(input.anchors, context.date, dueAnchors(input.anchors, context.date, input.playedOperators ?? new Set()));

    this.candidates = buildCandidates(world, this.episode, proposals);
    this.boundChars = [...new Set(this.candidates.flatMap((c) => c.chars))];
    this.cliffCandidates = this.candidates.filter((c) => c.op.beats.includes('cliffhanger'));
    for (const t of ['reveal', 'reversal', 'confrontation'] as MandatoryBeat[]) this.tagCandidates.set(t, this.candidates.filter((c) => c.op.beats.includes(t)));

    const start = openingWorld(world, context);
    this.proj = { world: start, index: indexWorld(start) };
    this.where = new WhereaboutsBook(this.proj.index);
    this.overdue = new Set(context.active_threads.filter((t) => t.overdue).map((t) => t.id));
    this.totalSlots = this.shape.total;
    this.opening = context.must_start_immediately ? context.opening : null;
    this.majorOpen = world.threads.threads.filter((t) => t.major && t.status === 'open').map((t) => t.id);
    this.pacing = { episode: this.episode, pace: new Map(), start: new Map() };
    for (const t of start.threads.threads) {
      if (t.status !== 'open') continue;
      this.pacing.pace.set(t.id, threadPace(t, this.episode, input.seasonGoals));
      this.pacing.start.set(t.id, t.progress);
    }
    this.types = new TypeBudget(world, this.totalSlots, lastType, this.placedTags);
    this.seasonProgress = Math.min(1, this.episode / Math.max(1, input.seasonGoals?.episodes_planned ?? 12));
    // The last re-plan forgets the season: a repeat is better than no episode at all.
    this.memory = new SeasonMemory(this.episode, attempt === PLAN_ATTEMPTS - 1 ? [] : input.recentMoves ?? []);
    this.fixed = fixedParts(this.candidates, this.memory, this.overdue, (c) => isRequired(input.steering, c));
    this.arc = tensionTargets(tension(start), this.shape, this.seasonProgress);
    this.arcWeight = arcWeight(this.seasonProgress);
    const played = input.playedOperators ?? new Set<string>();
    this.toPlay = liveAnchors(input.anchors).filter((x) => !x.operators.some((op) => played.has(op)));
    this.actBreak = actBreakDays({
      opening: context.date, episode: this.episode, anchors: input.anchors, played: input.playedOperators ?? new Set(), goals: input.seasonGoals, daysPerEpisode: world.world.days_per_episode,
    });
  }

  /** A re-plan gives the reversal the whole of act 4 to find a move: it is due from the act's first scene. */
  private reversalFromAct4(): void {
    const shape = this.shape;
    const rev = shape.scenes.find((x) => x.tag === 'reversal');
    const first4 = shape.scenes.find((x) => x.act === 4 && x.tag === null && x.number < shape.scenes.length);
    if (rev && first4 && first4.number < rev.number) { rev.tag = null; first4.tag = 'reversal'; }
  }

  /** A new scene: the tags due in it (the default one, any that slipped or were scheduled), its clock step. */
  openScene(sc: SceneSlotPlan): SceneWork {
    const isLast = sc.number === this.shape.scenes.length;
    // An act break lets the calendar's days pass (the next act opens at dawn that many days later).
    if (this.actBreak > 0 && sc.act > 1 && this.shape.scenes[sc.number - 2]?.act !== sc.act) this.clock = { day: this.clock.day + this.actBreak, tod: -1 };
    const due: MandatoryBeat[] = [...this.pendingTags];
    if (sc.tag && !this.placedTags.has(sc.tag) && !due.includes(sc.tag)) due.push(sc.tag);
    const w: SceneWork = {
      sc, isLast, tag: null, slipped: new Set(), due, apps: [], start: this.proj.world, location: null, day: 0, tod: 0, movements: [], cast: new Set(),
      step: 1 + this.rng.fork(`time/${sc.id}`).int(2),
      forcedOpening: sc.number === 1 && this.opening ? this.opening : null,
    };
    // Never put the cliffhanger anywhere but the last scene; others in their scheduled order.
    w.tag = isLast ? 'cliffhanger' : this.nextDue(w);
    // A due tag that does not get this scene waits for the next one.
    for (const t of due) if (t !== w.tag && t !== 'cliffhanger' && !this.placedTags.has(t) && !this.pendingTags.includes(t)) this.pendingTags.push(t);
    this.sceneApplied.length = 0;
    return w;
  }

  nextDue(w: SceneWork): MandatoryBeat | null {
    return TAG_ORDER.find((t) => w.due.includes(t) && !this.placedTags.has(t) && !w.slipped.has(t)) ?? null;
  }

  /**
   * The candidates that may take slot k of the scene, best first (score + seeded jitter, then key),
   * yielded lazily. `full`: every candidate scored in full before the first is yielded, the ranking the
   * bounds must reproduce (test/stages/planning/slot-bound.test.ts compares the two on whole seasons).
   */
  rankSlot(w: SceneWork, k: number, needTag: MandatoryBeat | null, needComplication: boolean, full = false): Iterable<Candidate> {
    const { st, stRequired, placeFull } = this.slotScoring(w, k, needTag, needComplication);
    const jitter = this.rng.fork(`slot/${this.slotSeq + 1}`);
    const list = this.slotCandidates(needTag, st.allowed);
    // Unsteered, everyone able to act, no thread resolved: only a run's setting or a used key keeps a move out (slot-blocks.ts).
    if (!full && !this.input.steering && st.everyoneActs && st.resolved.size === 0) {
      const slot = this.blockSlot(list);
      const ranked = slot && rankByBlocks(slot, st, stRequired, placeFull, jitter);
      if (ranked) return ranked;
    }
    const cands: Candidate[] = [];
    const bounds: number[] = [];
    const added: number[] = [];
    const sts: SlotScoring[] = [];
    for (const p of list) {
      const c = this.candidates[p]!;
      const fixed = this.fixed[p]!;
      const o = factsOf(c, st);
      const stc = fixed.required || o.due ? stRequired : st;
      if (excluded(c, stc, o)) continue;
      const steered = this.steer.score(c);
      if (steered === null) continue;
      // Every candidate that can take the slot draws its jitter, in candidate order, as when each was scored in full.
      const j = jitter.next() * this.jitterScale;
      cands.push(c);
      sts.push(stc);
      added.push(steered, j);
      bounds.push(scoreBound(c, st, o, fixed) + steered + o.bonus + o.prep + o.arc + j);
    }
    // Only the candidates whose bound reaches the top are scored in full (ranking.ts): the same total,
    // by the same additions, as when every candidate was.
    const exact = (i: number): number => {
      const c = cands[i]!;
      const o = factsOf(c, st);
      const s = scoreOf(c, sts[i]!, placeFull, o);
      const score = s + added[2 * i]! + o.bonus + o.prep + o.arc;
      return score + added[2 * i + 1]!;
    };
    // A NaN total has no place in an order: with one, the heap's pops are those of scoring every candidate.
    if (full || bounds.some(Number.isNaN)) return bestFirst(cands, cands.map((_, i) => exact(i)));
    return bestFirst(cands, bounds, exact);
  }

  /** What the scores of slot k read: the planner's running state, the scoring of a required (or due) move, the places' fullness. */
  slotScoring(w: SceneWork, k: number, needTag: MandatoryBeat | null, needComplication: boolean): { st: SlotScoring; stRequired: SlotScoring; placeFull: (op: Operator) => number } {
    const slotType = this.shape.slotTypes[this.slotSeq] ?? 'thriller';
    const remainingAfter = this.totalSlots - this.slotSeq - 1;
    const allowed = { thriller: this.types.allowed('thriller', remainingAfter, needTag), soap: this.types.allowed('soap', remainingAfter, needTag) };
    const index = this.proj.index;
    // Read by the next slot's budget (as when it was a map worked out here for every unplaced tag).
    this.types.live = w.isLast ? () => new Set() : liveTypesOfTags(this.tagCandidates, index, this.usedKeys, this.episode);
    const reserve = w.isLast ? new Set<string>() : cliffhangerReserve(this.cliffCandidates, index, this.usedKeys, this.episode, this.attempt === 0 ? CLIFFHANGER_RESERVE : Infinity, this.cliffWitnesses);
    const { needs, pull } = this.projected(w.sc.number);
    const actable = actableIn(index);
    const st: SlotScoring = {
      index, scene: w.sc, k, slotType, needTag, needComplication, allowed, usedKeys: this.usedKeys, location: w.location, forcedOpening: w.forcedOpening,
      locUses: this.locUses, deferred: this.deferred, overdue: this.overdue, pacing: this.pacing, advancedCount: this.advancedCount, opUses: this.opUses,
      actUses: actUsesIn(this.actorActUses, w.sc.act), appearances: this.appearances, cast: w.cast, reserve, memory: this.memory, seasonProgress: this.seasonProgress,
      relaxed: this.attempt === PLAN_ATTEMPTS - 1, threadNeeds: new Map(), actable, everyoneActs: allCanAct(index, actable, this.boundChars), resolved: resolvedIn(index), opFacts: new Map(),
      // The parts of a score that depend on the operator alone (a due anchor, the metrics the anchors
      // need, the arc's pull): worked out with the operator's other facts, once per operator of the slot.
      opBonus: (c) => ({ due: this.gate.isDue(c.op.id), bonus: this.gate.bonus(c.op.id), prep: prepScore(c, needs), arc: this.arcWeight * pull * expectedTension(c.op, this.world) }),
    };
    // A move the showrunner requires (--require) is not held back by the season's memory.
    return { st, stRequired: { ...st, memory: FORGETFUL, relaxed: true }, placeFull: placeFullness(index, this.locUses) };
  }

  private readonly slotLists = new Map<string, number[]>();

  /**
   * The positions (in `candidates`) of the candidates a slot scores, in candidate order: those carrying
   * the slot's tag, of a type it allows. Every other one is excluded before it draws any jitter, so
   * leaving them out changes nothing but the work (a tagged or single-type slot looked at every
   * candidate).
   */
  private slotCandidates(needTag: MandatoryBeat | null, allowed: Record<'thriller' | 'soap', boolean>): number[] {
    const key = `${needTag ?? ''}|${allowed.thriller}|${allowed.soap}`;
    let l = this.slotLists.get(key);
    if (!l) {
      l = [];
      for (let p = 0; p < this.candidates.length; p++) {
        const c = this.candidates[p]!;
        if (allowed[c.op.type] && (!needTag || c.op.beats.includes(needTag))) l.push(p);
      }
      this.slotLists.set(key, l);
    }
    return l;
  }

  private runs: Runs | null = null;
  private readonly slotRuns = new Map<readonly number[], Block[] | null>();

  /** The (actor, operator) runs of a slot's list (slot-blocks.ts), worked out once per attempt and list; null: none. */
  private blockSlot(list: readonly number[]): BlockSlot | null {
    const runs = (this.runs ??= runsOf(this.candidates, this.fixed));
    let blocks = this.slotRuns.get(list);
    if (blocks === undefined) this.slotRuns.set(list, (blocks = slotRuns(runs, list)));
    return blocks && { cands: this.candidates, fixed: this.fixed, runs, blocks, jitterScale: this.jitterScale };
  }

  private projMetrics: { world: World; needs: MetricNeeds; tension: number } | null = null;

  /** What the anchors need of the projection's metrics and the arc's pull at scene n: per projected state, not per slot. */
  private projected(n: number): { needs: MetricNeeds; pull: number } {
    const world = this.proj.world;
    if (this.projMetrics?.world !== world) this.projMetrics = { world, needs: metricNeeds(world, this.toPlay), tension: tension(world) };
    return { needs: this.projMetrics.needs, pull: tensionPull(this.arc[n - 1]!, this.projMetrics.tension) };
  }

  prov(scene: string, operator: string | null) {
    const episode = this.context.episode_id;
    return () => ({ episode, scene, event: 'plan', operator });
  }

  /** The plan object, its acceptance checks not yet run. */
  planObject(title: string): EpisodePlan {
    const { context } = this;
    return {
      format: 1,
      episode_id: context.episode_id,
      season: context.season,
      episode: context.episode,
      seed: this.input.seed,
      title,
      state_hash: context.state_hash,
      objectives: this.objectives,
      beats: this.beats,
      scenes: this.scenes,
      threads_advanced: [...this.advancedCount.keys()].sort(),
      drama_responses: this.dramaResponses,
      acceptance_checks: [],
      director: { source: 'symbolic', attempts: 0, fallback_reason: null },
    };
  }
}
