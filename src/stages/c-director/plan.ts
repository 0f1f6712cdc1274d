import type { AppliedDelta, ResolvedDelta } from '../../domain/delta.js';
import type { EpisodeContext } from '../../domain/episode-context.js';
import type { AgentProposals } from '../../domain/proposals.js';
import type { Beat, DramaResponse, EpisodePlan, MandatoryBeat, OperatorApplication, PlannedScene, RiskRoll } from '../../domain/plan.js';
import type { Character, Operator, World } from '../../domain/world.js';
import { Rng } from '../../core/rng.js';
import { round } from '../../core/json.js';
import { hashValue } from '../../core/hash.js';
import { indexWorld, travelDays, type WorldIndex } from '../../core/world-index.js';
import { checkPrereqs, operatorRoleKinds } from '../../core/expr/index.js';
import { applyDeltas, resolveEffects } from '../../core/deltas/index.js';
import { bindingKey, canAct } from '../b-proposals/bdi.js';
import { candidatePool, type PoolEntry } from '../b-proposals/pool.js';
import { NEAR_RESOLUTION } from '../a-snapshot/index.js';
import { threadPace, type SeasonPacingGoals, type ThreadPace } from '../../core/threads.js';
import { ACT_PHASE, LIMITS, episodeShape, type SceneSlotPlan } from './shape.js';
import { DramaTracker, threadsToDeferNow } from './metrics.js';
import { chooseObjectives } from './objectives.js';
import { infeasible } from './infeasible.js';
import { breaksHardConstraint } from './hard-constraints.js';
import { AureusError, ExitCode } from '../../errors.js';
import { acceptanceChecks, openingWorld } from './checks.js';

/** Thread progress per application (docs/planning.md §C.7), at most the thread's pace budget left. */
export const THREAD_STEP = { success: 0.1, fail: 0.05 } as const;
/** A step smaller than this does not advance a thread (its budget for the episode is spent). */
export const MIN_THREAD_STEP = 0.001;
export const FAIL_COST: { stat: 'dignitas'; amount: number } = { stat: 'dignitas', amount: 2 };
const TIMES: PlannedScene['time_of_day'][] = ['dawn', 'morning', 'day', 'afternoon', 'dusk', 'night'];

export interface DirectorInput {
  world: World;
  context: EpisodeContext;
  proposals: AgentProposals;
  seed: string;
  /** The season's goals (episodes_planned, finale_threads) that pace thread progress; defaults when absent. */
  seasonGoals?: SeasonPacingGoals | null;
}

/** A pool entry (the move itself) as the Director weighs it: base score and the proposal behind it. */
interface Candidate extends Pick<PoolEntry, 'op' | 'actor' | 'bindings' | 'key' | 'chars' | 'threads'> {
  base: number;
  proposal: { by: string; priority: number; exact: boolean } | null;
}

interface Projection {
  world: World;
  index: WorldIndex;
}

/** Where each character last was in the episode (location and scene day). */
interface Whereabouts {
  location: string;
  day: number;
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

  // ---- candidates: every operator x binding for every acting principal (prereqs checked lazily) ----
  const proposalIndex = new Map<string, { by: string; priority: number }>();
  const proposalOpActor = new Map<string, { by: string; priority: number }>();
  for (const p of proposals.proposals) for (const m of p.moves) {
    proposalIndex.set(bindingKey(m.operator_id, m.bindings), { by: p.character_id, priority: m.priority });
    const k = `${m.operator_id}|${p.character_id}`;
    if (!proposalOpActor.has(k)) proposalOpActor.set(k, { by: p.character_id, priority: m.priority });
  }
  const candidates: Candidate[] = candidatePool(world, episode).map((e) => {
    const exact = proposalIndex.get(e.key);
    const loose = proposalOpActor.get(`${e.op.id}|${e.actor.id}`);
    return {
      op: e.op, actor: e.actor, bindings: e.bindings, key: e.key, chars: e.chars, threads: e.threads, base: e.bdi.score,
      proposal: exact ? { ...exact, exact: true } : loose ? { ...loose, exact: false } : null,
    };
  });

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
  const typeCount = { thriller: 0, soap: 0 };
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

  /**
   * Type limits, keeping the final (cliffhanger) slot a wildcard: every earlier slot must leave
   * the counts where either type can still close the episode, because only a few operators can
   * end it and their type is not known in advance.
   */
  // Mandatory beats only some operators carry: when all of a tag's operators are of one type, an
  // untagged slot must not use up the last application of that type before the tag is placed.
  const tagTypes = new Map<MandatoryBeat, Set<'thriller' | 'soap'>>();
  for (const t of ['reveal', 'reversal', 'confrontation'] as MandatoryBeat[]) tagTypes.set(t, new Set(world.operators.operators.filter((o) => o.beats.includes(t)).map((o) => o.type)));
  // Late in a season a tag's carriers of one type may all have stopped applying: then the tag is
  // reserved an application of the type that still can carry it (recomputed before every slot).
  let liveTagTypes = new Map<MandatoryBeat, Set<'thriller' | 'soap'>>();
  const reserved = (t: 'thriller' | 'soap', forTag: MandatoryBeat | null): number =>
    [...tagTypes].filter(([tag, types]) => {
      if (tag === forTag || placedTags.has(tag)) return false;
      const live = liveTagTypes.get(tag);
      const eff = types.size === 1 ? types : live && live.size === 1 ? live : null;
      return !!eff && eff.has(t);
    }).length;
  const typeAllowed = (t: 'thriller' | 'soap', remainingAfter: number, forTag: MandatoryBeat | null = null): boolean => {
    const th = typeCount.thriller + (t === 'thriller' ? 1 : 0) + reserved('thriller', forTag);
    const so = typeCount.soap + (t === 'soap' ? 1 : 0) + reserved('soap', forTag);
    const wildcard = totalSlots < LIMITS.thriller.max + LIMITS.soap.max;
    if (!wildcard) {
      if (th > LIMITS.thriller.max || so > LIMITS.soap.max) return false;
      // A full 24-application episode fixes every type; a re-plan keeps the last one for the other
      // type than it first had, so a cliffhanger of that type can close the episode.
      if (lastType && remainingAfter > 0 && (lastType === 'thriller' ? th > LIMITS.thriller.max - 1 : so > LIMITS.soap.max - 1)) return false;
      return Math.max(0, LIMITS.thriller.min - th) + Math.max(0, LIMITS.soap.min - so) <= remainingAfter;
    }
    if (remainingAfter === 0) {
      return th >= LIMITS.thriller.min && th <= LIMITS.thriller.max && so >= LIMITS.soap.min && so <= LIMITS.soap.max;
    }
    if (th > LIMITS.thriller.max - 1 || so > LIMITS.soap.max - 1) return false;
    // The slots left before the last must bring both counts to their minimums.
    return Math.max(0, LIMITS.thriller.min - th) + Math.max(0, LIMITS.soap.min - so) <= remainingAfter - 1;
  };

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
      const allowed = { thriller: typeAllowed('thriller', remainingAfter, needTag), soap: typeAllowed('soap', remainingAfter, needTag) };
      liveTagTypes = isLast ? new Map() : liveTypesOfTags(tagCandidates, placedTags, proj.index, usedKeys, episode);
      const reserve = isLast ? new Set<string>() : cliffhangerReserve(cliffCandidates, proj.index, usedKeys, episode, attempt === 0 ? CLIFFHANGER_RESERVE : Infinity);
      // Location variety: the fullness of each operator's least-used place, once per slot (not per candidate).
      const fullness = new Map<Operator, number>();
      const placeFull = (op: Operator): number => {
        let f = fullness.get(op);
        if (f === undefined) { f = Math.max(0, minUses(proj.index, op, locUses) - LOCATION_SOFT_CAP + 1); fullness.set(op, f); }
        return f;
      };
      for (const c of candidates) {
        if (needTag && !c.op.beats.includes(needTag)) continue;
        if (!allowed[c.op.type]) continue;
        if (usedKeys.has(c.key)) continue;
        if (!c.chars.every((id) => canAct(proj.index.characters.get(id)))) continue;
        if (location && !settingOk(proj.index, c.op, location)) continue;
        let s = c.base;
        // Location variety: a first move whose every allowed place is already full costs a little.
        if (!location && !(forcedOpening && k === 0) && locUses.size) s -= LOCATION_FULL_PENALTY * placeFull(c.op);
        if (c.proposal) s += c.proposal.exact ? c.proposal.priority : 0.5 * c.proposal.priority;
        for (const t of c.threads) {
          if (deferred.has(t)) continue;
          const th = proj.index.threads.get(t);
          if (!th || th.status !== 'open') continue;
          if (budgetLeft(pacing, t, th.progress) < MIN_THREAD_STEP) continue;
          let need = th.priority / 5;
          const n = advancedCount.get(t) ?? 0;
          if (overdue.has(t) && n === 0) need += sc.act <= 2 ? 3 : 1.5;
          s += n === 0 ? need : need / (1 + n);
        }
        if (c.op.type === slotType) s += 0.6;
        if (c.op.beats.includes(ACT_PHASE[sc.act]!)) s += 0.5;
        if (needComplication && c.op.beats.includes('complication')) s += 5;
        s -= 0.6 * (opUses.get(c.op.id) ?? 0);
        s -= 0.3 * (actorActUses.get(`${sc.act}|${c.actor.id}`) ?? 0);
        // Spread the screen time: every earlier appearance of a bound character costs a little.
        for (const id of c.chars) s -= 0.15 * (appearances.get(id) ?? 0);
        if (forcedOpening && k === 0) {
          const inOpening = c.chars.filter((id) => forcedOpening.characters.includes(id)).length;
          s += 2 * inOpening;
          // The opening's place is forced: moves allowed there come first; another is used only if none applies.
          if (settingOk(proj.index, c.op, forcedOpening.location)) s += 3;
        }
        if (k > 0) s += 0.8 * c.chars.filter((id) => cast.has(id)).length;
        // One of the last few ways to end the episode: keep it for the cliffhanger unless nothing else fits.
        if (reserve.has(`${c.op.id}|${c.actor.id}`)) s -= RESERVE_PENALTY;
        scored.push({ c, s, tie: jitter.next() * jitterScale });
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
        throw infeasible('prereqs_hold', `no operator's prerequisites hold on the projected state for ${sc.id} (${typeCount.thriller} thriller and ${typeCount.soap} soap moves placed)`);
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
      typeCount[c.op.type]++;
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
  return plan;
}

/**
 * When this few (operator, actor) families can still end the episode, the earlier slots leave them
 * alone; a re-plan (attempt > 0) protects every one of them.
 */
export const CLIFFHANGER_RESERVE = 3;
const RESERVE_PENALTY = 100;

/** The cliffhanger families still applicable on the projection, if they are few enough to protect. */
function cliffhangerReserve(cliff: Candidate[], index: WorldIndex, usedKeys: Set<string>, episode: number, limit: number): Set<string> {
  const families = new Set<string>();
  for (const c of cliff) {
    const f = `${c.op.id}|${c.actor.id}`;
    if (families.has(f) || usedKeys.has(c.key)) continue;
    if (!c.chars.every((id) => canAct(index.characters.get(id)))) continue;
    if (!checkPrereqs(c.op, c.bindings, index, { episode }).holds) continue;
    families.add(f);
    if (families.size > limit) return new Set();
  }
  return families;
}

/** For each unplaced mandatory tag, the types of its carriers whose prereqs hold on the projection now. */
function liveTypesOfTags(
  tagCandidates: Map<MandatoryBeat, Candidate[]>, placed: Set<MandatoryBeat>, index: WorldIndex, usedKeys: Set<string>, episode: number,
): Map<MandatoryBeat, Set<'thriller' | 'soap'>> {
  const out = new Map<MandatoryBeat, Set<'thriller' | 'soap'>>();
  for (const [tag, cands] of tagCandidates) {
    if (placed.has(tag)) continue;
    const types = new Set<'thriller' | 'soap'>();
    for (const c of cands) {
      if (types.has(c.op.type) || usedKeys.has(c.key)) continue;
      if (!c.chars.every((id) => canAct(index.characters.get(id)))) continue;
      if (!checkPrereqs(c.op, c.bindings, index, { episode }).holds) continue;
      types.add(c.op.type);
      if (types.size === 2) break;
    }
    out.set(tag, types);
  }
  return out;
}

const prov = (context: EpisodeContext, scene: string, operator: string | null) => () => ({ episode: context.episode_id, scene, event: 'plan', operator });

function settingOk(index: WorldIndex, op: Operator, location: string): boolean {
  const l = index.locations.get(location);
  return !!l && op.settings.includes(l.setting);
}

/**
 * Location variety ("good drama"): an episode should not live in one house. A place that already
 * holds LOCATION_SOFT_CAP scenes is used again only when the move allows nowhere else (or
 * everywhere else is full too); below that, each earlier scene there costs LOCATION_REUSE_COST.
 */
const LOCATION_SOFT_CAP = 4;
const LOCATION_REUSE_COST = 0.75;
const LOCATION_FULL_COST = 100;
/** A character staying where they already are (no journey, the scene plays on their ground). */
const LOCATION_HOME_BONUS = 1;
/** Each day of travel of each bound character; a day's ride (Ostia, Tusculum) beats a full house. */
const LOCATION_TRAVEL_COST = 1.5;
/** Candidate score lost per scene over the cap of the least-used place its operator allows. */
const LOCATION_FULL_PENALTY = 0.5;

const allowedPlaces = (index: WorldIndex, op: Operator): string[] =>
  [...index.locations.values()].filter((l) => op.settings.includes(l.setting)).map((l) => l.id).sort();

function minUses(index: WorldIndex, op: Operator, uses: ReadonlyMap<string, number>): number {
  let m = Infinity;
  for (const l of allowedPlaces(index, op)) m = Math.min(m, uses.get(l) ?? 0);
  return m === Infinity ? 0 : m;
}

/**
 * The scene's place among those the operator's settings allow, cheapest first:
 *   cost = travel days of the bound characters x LOCATION_TRAVEL_COST
 *        + earlier scenes there x LOCATION_REUSE_COST (LOCATION_FULL_COST once at the soft cap)
 *        - LOCATION_HOME_BONUS if a bound character is already there.
 * Unreachable places are never chosen; ties go to the seed.
 */
function pickLocation(index: WorldIndex, c: Candidate, where: Map<string, Whereabouts>, uses: ReadonlyMap<string, number>, rng: Rng): string | null {
  const allowed = allowedPlaces(index, c.op);
  if (allowed.length === 0) return null;
  let best: string[] = [];
  let bestCost = Infinity;
  for (const l of allowed) {
    let travel = 0;
    let unreachable = false;
    let home = false;
    for (const id of c.chars) {
      if (index.characters.get(id)?.location === l) home = true;
      const from = where.get(id)?.location ?? index.characters.get(id)?.location ?? l;
      const d = travelDays(index, from, l);
      if (d === null) unreachable = true;
      else travel += d;
    }
    if (unreachable) continue;
    const n = uses.get(l) ?? 0;
    const cost = Math.round((travel * LOCATION_TRAVEL_COST + (n >= LOCATION_SOFT_CAP ? LOCATION_FULL_COST + n : n * LOCATION_REUSE_COST) - (home ? LOCATION_HOME_BONUS : 0)) * 100) / 100;
    if (cost < bestCost) { bestCost = cost; best = [l]; }
    else if (cost === bestCost) best.push(l);
  }
  if (best.length === 0) return null;
  // Equally near places: the seed chooses, so scenes do not all drift to the first id in the alphabet.
  return best.length === 1 ? best[0]! : rng.fork(`place/${c.key}`).pick(best);
}

/** The earliest (day, time) at `loc` no earlier than `from` that every cast member can reach. */
function sceneTime(index: WorldIndex, cast: string[], loc: string, where: Map<string, Whereabouts>, from: { day: number; tod: number }): { day: number; tod: number } | null {
  let day = from.day;
  let tod = from.tod;
  while (tod >= TIMES.length) { tod -= TIMES.length; day += 1; }
  if (tod < 0) tod = 0;
  for (const id of cast) {
    const w = where.get(id);
    const cur = index.characters.get(id)?.location ?? w?.location;
    if (!cur) continue;
    // An effect may have moved the character since their last scene (a flight, an arrest): the
    // journey counts from both places, as the time_and_place check replays it from the last scene.
    const d0 = travelDays(index, cur, loc);
    const d1 = w && w.location !== cur ? travelDays(index, w.location, loc) : d0;
    if (d0 === null || d1 === null) return null;
    const d = Math.max(d0, d1);
    const earliest = (w?.day ?? 0) + d;
    if (d > 0 && earliest > day) { day = earliest; tod = 1; }
    else if (d > 0 && earliest === day && w && w.day === day) { /* arrives the same day it left only if d == 0 */ }
  }
  return { day, tod };
}

interface Pacing {
  episode: number;
  pace: Map<string, ThreadPace>;
  /** Progress of each open thread when the episode began. */
  start: Map<string, number>;
}

/** Remove the progress deltas of one thread (replaced by the paced gain). */
function dropProgress(deltas: ResolvedDelta[], thread: string): void {
  for (let i = deltas.length - 1; i >= 0; i--) if (deltas[i]!.path === `threads.${thread}.progress`) deltas.splice(i, 1);
}

/** What a thread may still gain in this episode (its pace budget minus what it has gained so far). */
function budgetLeft(p: Pacing, thread: string, progress: number): number {
  const pace = p.pace.get(thread);
  if (!pace) return 0;
  return pace.budget - (progress - (p.start.get(thread) ?? progress));
}

function buildApplication(
  c: Candidate, id: string, index: WorldIndex, rng: Rng, pacing: Pacing, deferred: Set<string>, resolvedMajors: Set<string>,
): { app: OperatorApplication } | null {
  const episode = pacing.episode;
  const roleKinds = operatorRoleKinds(c.op);
  const risks: RiskRoll[] = c.op.side_effect_risks.map((r, k) => {
    const roll = round(rng.fork(`risk/${id}/${k}`).next());
    return { text: r.text, prob: r.prob, roll, triggered: roll < r.prob };
  });
  const outcome: 'success' | 'fail' = risks.some((r) => r.triggered) ? 'fail' : 'success';
  const deltas: ResolvedDelta[] = [];
  if (outcome === 'success') {
    const r = resolveEffects(c.op.effects, c.bindings, index, { episode, roleKinds });
    if (!r.ok) return null;
    deltas.push(...r.deltas);
  } else {
    c.op.side_effect_risks.forEach((risk, k) => {
      if (!risks[k]!.triggered || !risk.effects?.length) return;
      const r = resolveEffects(risk.effects, c.bindings, index, { episode, roleKinds });
      if (r.ok) deltas.push(...r.deltas);
    });
    deltas.push({ path: `characters.${c.actor.id}.stats.${FAIL_COST.stat}`, op: 'subtract', value: FAIL_COST.amount });
  }
  // Progress the operator's own effects write, per thread (they replace the planner's step, never stack with it).
  const explicit = new Map<string, number>();
  for (const d of deltas) {
    const m = /^threads\.([a-z0-9_]+)\.progress$/.exec(d.path);
    if (!m || typeof d.value !== 'number') continue;
    const cur = index.threads.get(m[1]!)?.progress ?? 0;
    const at = cur + (explicit.get(m[1]!) ?? 0);
    const gain = d.op === 'add' ? d.value : d.op === 'subtract' ? -d.value : d.op === 'set' ? d.value - at : 0;
    explicit.set(m[1]!, (explicit.get(m[1]!) ?? 0) + gain);
  }
  const threads: string[] = [];
  const majorWouldResolve = (t: string) => resolvedMajors.size >= 1 && !resolvedMajors.has(t);
  for (const t of [...new Set([...c.threads, ...explicit.keys()])].sort()) {
    const th = index.threads.get(t);
    if (!th || th.status !== 'open') {
      if (explicit.has(t)) return null;
      continue;
    }
    const pace = pacing.pace.get(t);
    const left = budgetLeft(pacing, t, th.progress);
    const own = explicit.get(t);
    if (own !== undefined) {
      if (own <= 0) continue; // a setback (a failed move's risk): not an advance, and no step on top
      if (deferred.has(t) || !pace) { dropProgress(deltas, t); continue; }
      // The operator's own progress is the move's whole gain (no step on top), cut to the thread's
      // pace budget left: a move can never rush a thread past its season schedule.
      const reaches = pace.may_resolve && th.progress + Math.min(own, left) >= 1 - 0.005;
      const gain = reaches ? round(1 - th.progress) : round(Math.min(own, left, 1 - th.progress));
      dropProgress(deltas, t);
      if ((gain < MIN_THREAD_STEP && !reaches) || gain <= 0 || (reaches && th.major && majorWouldResolve(t))) continue;
      threads.push(t);
      deltas.push({ path: `threads.${t}.progress`, op: 'add', value: gain });
      deltas.push({ path: `threads.${t}.last_progress_episode`, op: 'set', value: episode });
      if (reaches) deltas.push({ path: `threads.${t}.status`, op: 'set', value: 'resolved' });
      continue;
    }
    if (deferred.has(t) || !pace) continue;
    // From its target on, a step that covers the rest closes the thread, however small the rest is.
    // (A remainder under 0.005 after the step is taken with it: no thread is left a hair short of 1.)
    const closes = pace.may_resolve && 1 - th.progress <= Math.min(THREAD_STEP[outcome], left) + 0.005;
    const stepV = closes ? round(1 - th.progress) : round(Math.min(THREAD_STEP[outcome], left, 1 - th.progress));
    if (stepV < MIN_THREAD_STEP && !closes) continue;
    const wouldResolve = pace.may_resolve && th.progress + stepV >= 1 - 1e-9;
    // Spec §6.1: at most one major thread fully resolved per episode.
    if (wouldResolve && th.major && majorWouldResolve(t)) continue;
    threads.push(t);
    deltas.push({ path: `threads.${t}.progress`, op: 'add', value: stepV });
    deltas.push({ path: `threads.${t}.last_progress_episode`, op: 'set', value: episode });
    if (wouldResolve) deltas.push({ path: `threads.${t}.status`, op: 'set', value: 'resolved' });
  }
  // A move whose only effect was progress the pace cut away changes nothing: not a beat.
  if (deltas.length === 0) return null;
  return {
    app: {
      id,
      operator_id: c.op.id,
      type: c.op.type,
      bindings: { ...c.bindings },
      outcome,
      risks,
      prereqs: [],
      required_deltas: deltas,
      threads_advanced: threads,
      source: c.proposal?.exact ? 'proposal' : 'director',
      ...(c.proposal?.exact ? { proposed_by: c.proposal.by } : {}),
    },
  };
}

const nameOf = (world: World, id: string): string => world.characters.characters.find((c) => c.id === id)?.name ?? id;

function summarize(world: World, a: OperatorApplication): string {
  const op = world.operators.operators.find((o) => o.id === a.operator_id);
  const others = Object.entries(a.bindings).filter(([r]) => r !== 'actor').map(([r, id]) => `${r} ${nameOf(world, id)}`);
  return `${nameOf(world, a.bindings.actor!)}: ${op?.name ?? a.operator_id}${others.length ? ` (${others.join(', ')})` : ''} — ${a.outcome}.`;
}

function purposeOf(world: World, sc: SceneSlotPlan, tag: MandatoryBeat | null, apps: OperatorApplication[]): string {
  const what = apps.map((a) => world.operators.operators.find((o) => o.id === a.operator_id)?.name ?? a.operator_id).join(' + ');
  const threads = [...new Set(apps.flatMap((a) => a.threads_advanced))];
  return `${tag ? tag.toUpperCase() + ': ' : ''}${what}${threads.length ? `; advances ${threads.join(', ')}` : ''} (act ${sc.act}, ${ACT_PHASE[sc.act]})`;
}

function titleOf(world: World, beats: Beat[]): string {
  const rev = beats.find((b) => b.tag === 'reversal')?.applications[0];
  const cliff = beats.find((b) => b.tag === 'cliffhanger')?.applications[0];
  const opName = (a?: OperatorApplication) => world.operators.operators.find((o) => o.id === a?.operator_id)?.name ?? '';
  // The name the audience knows (the cue: "Clodius", not "Pulcher").
  const who = cliff?.bindings.target ? world.characters.characters.find((c) => c.id === cliff.bindings.target) : undefined;
  const target = who ? who.cue.charAt(0).toUpperCase() + who.cue.slice(1).toLowerCase() : cliff?.bindings.target ? nameOf(world, cliff.bindings.target).split(' ').slice(-1)[0] : '';
  const nameWords = new Set(world.characters.characters.flatMap((c) => [...c.name.split(/\s+/), c.cue].map((w) => w.toLowerCase())));
  const parts = [opName(rev), target ? `${opName(cliff)} for ${target}` : opName(cliff)].filter(Boolean);
  // Sentence case after the comma ("An omen at the altar, a letter under seal for Caesar"); a name keeps its capital.
  return parts.map((p, i) => (i > 0 && !nameWords.has(p.split(/[\s']/)[0]!.toLowerCase()) ? p.charAt(0).toLowerCase() + p.slice(1) : p)).join(', ');
}

export { hashValue };
