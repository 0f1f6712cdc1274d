import type { AppliedDelta, ResolvedDelta } from '../../domain/delta.js';
import type { EpisodeContext } from '../../domain/episode-context.js';
import type { AgentProposals } from '../../domain/proposals.js';
import type { Beat, DramaResponse, EpisodePlan, MandatoryBeat, OperatorApplication, PlannedScene } from '../../domain/plan.js';
import type { World } from '../../domain/world.js';
import { Rng } from '../../core/rng.js';
import { indexWorld, travelDays, type WorldIndex } from '../../core/world-index.js';
import { checkPrereqs } from '../../core/expr/index.js';
import { applyDeltas } from '../../core/deltas/index.js';
import { canAct } from '../b-proposals/bdi.js';
import { NEAR_RESOLUTION } from '../a-snapshot/index.js';
import { threadPace, type SeasonPacingGoals } from '../../core/threads.js';
import { ACT_PHASE, episodeShape } from './shape.js';
import { DramaTracker, threadsToDeferNow } from './metrics.js';
import { chooseObjectives } from './objectives.js';
import { infeasible } from './infeasible.js';
import { AureusError, ExitCode } from '../../errors.js';
import { acceptanceChecks, openingWorld } from './checks.js';
import { breaksHardConstraint } from './hard-constraints.js';
// Showrunner steering (issue 16): a separate hook, logic in ./steering.ts.
import { SteeringHook, checkPlanSteering, type Steering } from './steering.js';
import { CLIFFHANGER_RESERVE, TIMES, buildCandidates, cliffhangerReserve, liveTypesOfTags, type Candidate, type Whereabouts } from './candidates.js';
import { pickLocation, sceneTime } from './locations.js';
import { buildApplication, type Pacing } from './application.js';
import { placeFullness, scoreCandidate } from './score.js';
import { TypeBudget } from './type-budget.js';
import { SeasonMemory, type RecentMove } from './memory.js';
import { AnchorGate, checkPlanAnchors, dueAnchors } from './anchors.js';
import type { Anchor } from '../../domain/anchors.js';
import { purposeOf, summarize, titleOf } from './text.js';

/** A move the showrunner requires (--require) is scored without the season's memory or closed stories. */
const FORGETFUL = new SeasonMemory(0);
const isRequired = (s: Steering | null | undefined, c: Candidate): boolean =>
  !!s && s.require.some((r) => r.op === c.op.id && (!r.actor || r.actor === c.actor.id));

export interface DirectorInput {
  world: World;
  context: EpisodeContext;
  proposals: AgentProposals;
  seed: string;
  /** The season's goals (episodes_planned, finale_threads) that pace thread progress; defaults when absent. */
  seasonGoals?: SeasonPacingGoals | null;
  /** The moves of the season's earlier episodes (memory.ts): recent (operator, actor, target) cool down. */
  recentMoves?: readonly RecentMove[];
  /** The showrunner's steering (--focus, --require, --avoid, --cast, season notes); none when absent. */
  steering?: Steering | null;
  /** world/anchors.json (anchors.ts): dated fixed points; `playedOperators` are the season's earlier episodes' operators. */
  anchors?: readonly Anchor[] | null;
  playedOperators?: ReadonlySet<string>;
}

interface Projection {
  world: World;
  index: WorldIndex;
}

/**
 * The symbolic Director (HTN-lite, spec §2.2): a greedy, forward, seeded planner over the
 * projected state. Throws AureusError(PLAN_INFEASIBLE) naming the rule it could not meet.
 */
export function planSymbolic(input: DirectorInput): EpisodePlan {
  // Greedy planning can paint itself into a corner late in a season (the last cliffhanger move
  // used up earlier, a cast stranded out of town). Before giving up, re-plan with wider seeded
  // jitter: every attempt is a function of the seed, so the result stays deterministic.
  let first: unknown = null;
  for (let attempt = 0; attempt < PLAN_ATTEMPTS; attempt++) {
    try {
      return planAttempt(input, attempt);
    } catch (e) {
      if (!(e instanceof AureusError) || e.exitCode !== ExitCode.PLAN_INFEASIBLE || e.diagnostics.some((d) => d.code === 'AUR3002')) throw e;
      first ??= e;
    }
  }
  throw first;
}

/** How many seeded attempts the Director makes before reporting the plan infeasible. */
export const PLAN_ATTEMPTS = 4;

function planAttempt(input: DirectorInput, attempt: number): EpisodePlan {
  const { world, context, proposals, seed } = input;
  const rng = attempt === 0 ? new Rng(seed) : new Rng(seed).fork(`retry/${attempt}`);
  const jitterScale = 0.25 + attempt;
  // Risk rolls are always the seed's own (the risks_rolled check replays them); only choices vary.
  const riskRng = new Rng(seed);
  const lastType: 'thriller' | 'soap' | null = attempt === 0 ? null : attempt % 2 === 1 ? 'soap' : 'thriller';
  const episode = context.episode;

  const acting = world.characters.characters.filter((c) => c.principal && canAct(c));
  if (acting.length === 0) throw infeasible('acting_principals', 'no principal is alive and free', 'AUR3002');
  const openThreads = world.threads.threads.filter((t) => t.status === 'open');
  const shape = episodeShape(acting.length, openThreads.length, rng);
  if (attempt > 0) {
    // A re-plan gives the reversal the whole of act 4 to find a move: it is due from the act's first scene.
    const rev = shape.scenes.find((x) => x.tag === 'reversal');
    const first4 = shape.scenes.find((x) => x.act === 4 && x.tag === null && x.number < shape.scenes.length);
    if (rev && first4 && first4.number < rev.number) { rev.tag = null; first4.tag = 'reversal'; }
  }
  const objectives = chooseObjectives(world, context, rng);
  const steer = new SteeringHook(input.steering ?? null);
  const gate = new AnchorGate(input.anchors, context.date, dueAnchors(input.anchors, context.date, input.playedOperators ?? new Set()));

  const candidates = buildCandidates(world, episode, proposals);
  const cliffCandidates = candidates.filter((c) => c.op.beats.includes('cliffhanger'));
  const tagCandidates = new Map<MandatoryBeat, Candidate[]>();
  for (const t of ['reveal', 'reversal', 'confrontation'] as MandatoryBeat[]) tagCandidates.set(t, candidates.filter((c) => c.op.beats.includes(t)));

  // ---- planning state ----
  const start = openingWorld(world, context);
  let proj: Projection = { world: start, index: indexWorld(start) };
  const where = new Map<string, Whereabouts>();
  for (const c of start.characters.characters) where.set(c.id, { location: c.location, day: 0 });
  const overdue = new Set(context.active_threads.filter((t) => t.overdue).map((t) => t.id));
  const advancedCount = new Map<string, number>();
  const deferred = new Set<string>();
  const resolvedMajors = new Set<string>();
  const opUses = new Map<string, number>();
  const usedKeys = new Set<string>();
  const actorActUses = new Map<string, number>();
  const appearances = new Map<string, number>();
  /** Scenes set at each location so far this episode (location variety, see pickLocation). */
  const locUses = new Map<string, number>();
  const dramaResponses: DramaResponse[] = [];
  const drama = new DramaTracker();
  const sceneApplied: AppliedDelta[] = [];
  let pendingComplication = false;
  let pendingTags: MandatoryBeat[] = [];
  const placedTags = new Set<MandatoryBeat>();
  let clock = { day: 0, tod: -1 };

  const beats: Beat[] = [];
  const scenes: PlannedScene[] = [];
  let appSeq = 0;
  let slotSeq = 0;
  const totalSlots = shape.total;
  const opening = context.must_start_immediately ? context.opening : null;
  const majorOpen = world.threads.threads.filter((t) => t.major && t.status === 'open').map((t) => t.id);
  // Season pacing (core/threads.ts threadPace): how much each thread may gain in this episode.
  const pacing: Pacing = { episode, pace: new Map(), start: new Map() };
  for (const t of start.threads.threads) {
    if (t.status !== 'open') continue;
    pacing.pace.set(t.id, threadPace(t, episode, input.seasonGoals));
    pacing.start.set(t.id, t.progress);
  }

  const types = new TypeBudget(world, totalSlots, lastType, placedTags);
  // The last re-plan forgets the season: a repeat is better than no episode at all.
  const seasonProgress = Math.min(1, episode / Math.max(1, input.seasonGoals?.episodes_planned ?? 12));
  const memory = new SeasonMemory(episode, attempt === PLAN_ATTEMPTS - 1 ? [] : input.recentMoves ?? []);

  for (const sc of shape.scenes) {
    const isLast = sc.number === shape.scenes.length;
    // Tags due here: the default one, plus any that slipped from earlier scenes or were scheduled.
    let tag: MandatoryBeat | null = null;
    const slipped = new Set<MandatoryBeat>();
    const due: MandatoryBeat[] = [...pendingTags];
    if (sc.tag && !placedTags.has(sc.tag) && !due.includes(sc.tag)) due.push(sc.tag);
    // Never put the cliffhanger anywhere but the last scene; others in their scheduled order.
    const order: MandatoryBeat[] = ['confrontation', 'reveal', 'reversal'];
    const nextDue = (): MandatoryBeat | null => order.find((t) => due.includes(t) && !placedTags.has(t) && !slipped.has(t)) ?? null;
    if (isLast) { tag = 'cliffhanger'; }
    else tag = nextDue();
    // A due tag that does not get this scene waits for the next one.
    for (const t of due) if (t !== tag && t !== 'cliffhanger' && !placedTags.has(t) && !pendingTags.includes(t)) pendingTags.push(t);

    const sceneApps: OperatorApplication[] = [];
    const sceneStart = proj.world;
    sceneApplied.length = 0;
    let location: string | null = null;
    let sceneDay = 0;
    let sceneTod = 0;
    const movements: NonNullable<PlannedScene['movements']> = [];
    const cast = new Set<string>();
    const sceneRng = rng.fork(`time/${sc.id}`);
    const step = 1 + sceneRng.int(2);
    const forcedOpening = sc.number === 1 && opening ? opening : null;

    for (let k = 0; k < sc.applications; k++) {
      const slotType = shape.slotTypes[slotSeq] ?? 'thriller';
      const remainingAfter = totalSlots - slotSeq - 1;
      const needTag = k === 0 ? tag : null;
      const needComplication = pendingComplication && !needTag;
      const jitter = rng.fork(`slot/${slotSeq + 1}`);
      const scored: { c: Candidate; s: number; tie: number }[] = [];
      const allowed = { thriller: types.allowed('thriller', remainingAfter, needTag), soap: types.allowed('soap', remainingAfter, needTag) };
      types.live = isLast ? new Map() : liveTypesOfTags(tagCandidates, placedTags, proj.index, usedKeys, episode);
      const reserve = isLast ? new Set<string>() : cliffhangerReserve(cliffCandidates, proj.index, usedKeys, episode, attempt === 0 ? CLIFFHANGER_RESERVE : Infinity);
      const st = {
        index: proj.index, scene: sc, k, slotType, needTag, needComplication, allowed, usedKeys, location, forcedOpening, locUses,
        deferred, overdue, pacing, advancedCount, opUses, actorActUses, appearances, cast, reserve, memory, seasonProgress, relaxed: attempt === PLAN_ATTEMPTS - 1,
      };
      const stRequired = { ...st, memory: FORGETFUL, relaxed: true };
      const placeFull = placeFullness(proj.index, locUses);
      for (const c of candidates) {
        // A move the showrunner requires (--require) is not held back by the season's memory.
        const s = scoreCandidate(c, isRequired(input.steering, c) || gate.isDue(c.op.id) ? stRequired : st, placeFull);
        if (s === null) continue;
        const steered = steer.score(c);
        if (steered !== null) scored.push({ c, s: s + steered + gate.bonus(c.op.id), tie: jitter.next() * jitterScale });
      }
      scored.sort((a, b) => b.s + b.tie - (a.s + a.tie) || (a.c.key < b.c.key ? -1 : a.c.key > b.c.key ? 1 : 0));

      let chosen: {
        c: Candidate; app: OperatorApplication; proj: Projection; loc: string; day: number; tod: number; moves: typeof movements; applied: AppliedDelta[];
      } | null = null;
      for (const { c } of scored) {
        const prereq = checkPrereqs(c.op, c.bindings, proj.index, { episode });
        if (!prereq.holds) continue;
        // Location and time of the scene (fixed by its first application).
        let loc: string | null = location;
        if (!loc) loc = forcedOpening && k === 0 ? forcedOpening.location : pickLocation(proj.index, c, where, locUses, rng.fork(sc.id));
        if (!loc) continue;
        const sceneCast = [...new Set([...cast, ...c.chars, ...(forcedOpening ? forcedOpening.characters.filter((id) => canAct(proj.index.characters.get(id))) : [])])];
        const timing = sceneTime(proj.index, sceneCast, loc, where, k === 0 ? { day: clock.day, tod: clock.tod + step } : { day: sceneDay, tod: sceneTod });
        if (!timing) continue;
        if (k > 0 && (timing.day !== sceneDay || timing.tod !== sceneTod)) continue;
        if (gate.blocking(c.op.id, timing.day)) continue; // a not_before anchor (world/anchors.json)
        // Move the cast, then apply the application's deltas on the projection.
        const moves: typeof movements = [];
        const moveDeltas: ResolvedDelta[] = [];
        for (const id of sceneCast) {
          const from = proj.index.characters.get(id)!.location;
          if (from !== loc) {
            moves.push({ character: id, from, to: loc, days: travelDays(proj.index, from, loc) ?? 0 });
            moveDeltas.push({ path: `characters.${id}.location`, op: 'set', value: loc });
          }
        }
        const moved = moveDeltas.length ? applyDeltas(proj.world, moveDeltas, prov(context, sc.id, null)) : { ok: true as const, world: proj.world, applied: [] };
        if (!moved.ok) continue;
        const movedIndex = moveDeltas.length ? indexWorld(moved.world) : proj.index;
        // The move happens where the scene is: prereqs are judged after the cast has arrived.
        const prereqAtScene = moveDeltas.length ? checkPrereqs(c.op, c.bindings, movedIndex, { episode }) : prereq;
        if (!prereqAtScene.holds) continue;
        const appId = `a${String(appSeq + 1).padStart(2, '0')}`;
        const built = buildApplication(c, appId, movedIndex, riskRng, pacing, deferred, resolvedMajors);
        if (!built) continue;
        const applied = applyDeltas(moved.world, built.app.required_deltas, prov(context, sc.id, c.op.id));
        if (!applied.ok || breaksHardConstraint(proj.index, applied.world, episode)) continue;
        // Spec §6.1: at most one major thread fully resolved (effects may write progress directly too).
        if (majorOpen.filter((id) => { const t = applied.world.threads.threads.find((x) => x.id === id); return !!t && (t.status === 'resolved' || t.progress >= 1); }).length > 1) continue;
        built.app.prereqs = prereqAtScene.results.map((r) => ({ expr: r.expr, holds: r.holds }));
        chosen = { c, app: built.app, proj: { world: applied.world, index: indexWorld(applied.world) }, loc, day: timing.day, tod: timing.tod, moves, applied: applied.applied };
        break;
      }

      if (!chosen) {
        if (k > 0) {
          // No second move fits this scene: give the slot back to a later act-3/4 scene if possible.
          const later = shape.scenes.find((s2) => s2.number > sc.number && s2.applications === 1 && s2.tag === null && !(s2.number === shape.scenes.length));
          if (later) { later.applications = 2; slotSeq++; continue; }
          throw infeasible('prereqs_hold', `no applicable operator for the second move of ${sc.id}`);
        }
        if (needTag && needTag !== 'cliffhanger' && !isLast) {
          // Slip the mandatory beat to the next scene. Another tag due here (e.g. the scene's own
          // reveal, displaced by a scheduled confrontation) gets the scene instead; it stays queued
          // in pendingTags until it is placed.
          if (!pendingTags.includes(needTag)) pendingTags.push(needTag);
          slipped.add(needTag);
          tag = nextDue();
          k--;
          continue;
        }
        if (needTag === 'cliffhanger') throw infeasible('cliffhanger_last', `no operator tagged cliffhanger applies in the last scene (${sc.id})`);
        if (needComplication) {
          pendingComplication = false;
          dramaResponses.push({ condition: 'pacing_low', action: 'inject_complication', at: sc.id, detail: 'no complication operator applies here; the injection was dropped' });
          k--;
          continue;
        }
        throw infeasible('prereqs_hold', `no operator's prerequisites hold on the projected state for ${sc.id} (${types.count.thriller} thriller and ${types.count.soap} soap moves placed)`);
      }

      const { c, app } = chosen;
      if (k === 0) {
        location = chosen.loc; sceneDay = chosen.day; sceneTod = chosen.tod;
        clock = { day: sceneDay, tod: sceneTod };
        locUses.set(chosen.loc, (locUses.get(chosen.loc) ?? 0) + 1);
      }
      if (needComplication && c.op.beats.includes('complication')) {
        pendingComplication = false;
        app.source = 'injected';
        const last = dramaResponses[dramaResponses.length - 1];
        if (last && last.action === 'inject_complication' && last.at === 'pending') { last.at = sc.id; last.detail += `; injected ${c.op.id} (${app.id})`; }
      }
      if (needTag) { placedTags.add(needTag); pendingTags = pendingTags.filter((t) => t !== needTag); }
      for (const m of chosen.moves) { movements.push(m); }
      for (const id of [...c.chars, ...(forcedOpening && k === 0 ? forcedOpening.characters : [])]) if (canAct(proj.index.characters.get(id))) cast.add(id);
      proj = chosen.proj;
      for (const id of cast) where.set(id, { location: location!, day: sceneDay });
      appSeq++;
      slotSeq++;
      types.count[c.op.type]++;
      usedKeys.add(c.key);
      opUses.set(c.op.id, (opUses.get(c.op.id) ?? 0) + 1);
      actorActUses.set(`${sc.act}|${c.actor.id}`, (actorActUses.get(`${sc.act}|${c.actor.id}`) ?? 0) + 1);
      for (const id of c.chars) appearances.set(id, (appearances.get(id) ?? 0) + 1);
      for (const t of app.threads_advanced) advancedCount.set(t, (advancedCount.get(t) ?? 0) + 1);
      for (const t of app.threads_advanced) {
        const th = proj.index.threads.get(t);
        if (th && th.major && (th.status === 'resolved' || th.progress >= 1)) resolvedMajors.add(t);
      }
      sceneApplied.push(...chosen.applied);
      sceneApps.push(app);
      steer.placed(app);
      gate.placed(app.operator_id);
    }

    // ---- the scene and its beat ----
    const resolvedHere = sceneApps.some((a) => a.required_deltas.some((d) => /^threads\.[a-z0-9_]+\.status$/.test(d.path) && d.value === 'resolved'));
    const beatId = `b${String(beats.length + 1).padStart(2, '0')}`;
    const beatTag = sceneApps.length && tag && sceneApps[0]!.operator_id && world.operators.operators.find((o) => o.id === sceneApps[0]!.operator_id)?.beats.includes(tag) ? tag : null;
    beats.push({
      id: beatId,
      act: sc.act,
      phase: resolvedHere && sc.act === 4 ? 'resolution' : ACT_PHASE[sc.act]!,
      tag: beatTag,
      scene: sc.id,
      applications: sceneApps,
      summary: sceneApps.map((a) => summarize(world, a)).join(' Then ') ,
    });
    scenes.push({
      id: sc.id,
      number: sc.number,
      act: sc.act,
      location: location!,
      time_of_day: TIMES[sceneTod]!,
      day: sceneDay,
      cast: [...cast].sort(),
      beats: [beatId],
      purpose: purposeOf(world, sc, beatTag, sceneApps),
      marquee: sc.number === 1 || beatTag === 'reversal' || isLast,
      ...(movements.length ? { movements: movements.sort((a, b) => a.character.localeCompare(b.character)) } : {}),
    });

    // ---- drama responses (spec §10.2) on the projection after the scene ----
    drama.addScene(sc.id, sc.act, sceneStart, proj.world, sceneApplied, beatTag ? [beatTag] : []);
    const plateau = drama.plateauAt(sc.id);
    if (plateau && !placedTags.has('confrontation') && !pendingTags.includes('confrontation') && !isLast) {
      pendingTags.push('confrontation');
      dramaResponses.push({ ...plateau, at: shape.scenes[sc.number]?.id ?? sc.id, detail: `${plateau.detail}; the confrontation is moved up to the next scene` });
    }
    for (const t of threadsToDeferNow(proj.world)) {
      if (deferred.has(t)) continue;
      // An overdue thread must be advanced this episode (overdue_first): it is not deferred before that.
      if (overdue.has(t) && !advancedCount.has(t)) continue;
      // Nor while the episode has not yet advanced two threads: late in a season most threads sit
      // near resolution, and deferring them all would leave nothing to advance (threads_advanced).
      if (advancedCount.size < 2 && !advancedCount.has(t)) continue;
      deferred.add(t);
      const near = [...proj.index.threads.values()].filter((x) => x.status === 'open' && x.progress >= NEAR_RESOLUTION).map((x) => x.id);
      dramaResponses.push({ condition: 'threads_near_resolution', action: 'defer_resolution', at: sc.id, detail: `${near.length} threads near resolution (${near.join(', ')}); ${t} is deferred to the next episode` });
    }
    const nextScene = shape.scenes[sc.number];
    if (nextScene && nextScene.act !== sc.act) {
      const low = drama.pacingLowEndingAt(sc.act);
      if (low && !pendingComplication) {
        pendingComplication = true;
        dramaResponses.push({ ...low, at: 'pending', detail: low.detail });
      }
    }
  }
  for (const r of dramaResponses) if (r.at === 'pending') { r.at = 'end'; r.detail += '; the episode ended before it could be injected'; }

  const threadsAdvanced = [...advancedCount.keys()].sort();
  const plan: EpisodePlan = {
    format: 1,
    episode_id: context.episode_id,
    season: context.season,
    episode: context.episode,
    seed,
    title: titleOf(world, beats),
    state_hash: context.state_hash,
    objectives,
    beats,
    scenes,
    threads_advanced: threadsAdvanced,
    drama_responses: dramaResponses,
    acceptance_checks: [],
    director: { source: 'symbolic', attempts: 0, fallback_reason: null },
  };
  plan.acceptance_checks = acceptanceChecks(plan, world, context).checks;
  const failed = plan.acceptance_checks.find((ch) => !ch.passed);
  if (failed) throw infeasible(failed.id, failed.detail);
  checkPlanSteering(plan, input.steering);
  checkPlanAnchors(plan, input.anchors, context.date, gate.due);
  return plan;
}

const prov = (context: EpisodeContext, scene: string, operator: string | null) => () => ({ episode: context.episode_id, scene, event: 'plan', operator });
