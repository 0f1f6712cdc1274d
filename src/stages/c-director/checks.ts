import type { AppliedDelta, ResolvedDelta } from '../../domain/delta.js';
import type { EpisodeContext } from '../../domain/episode-context.js';
import type { AcceptanceCheck, EpisodePlan, MandatoryBeat, OperatorApplication, PlannedScene } from '../../domain/plan.js';
import { MANDATORY_BEATS } from '../../domain/plan.js';
import type { World } from '../../domain/world.js';
import { Rng } from '../../core/rng.js';
import { round } from '../../core/json.js';
import { indexWorld, travelDays } from '../../core/world-index.js';
import { checkPrereqs } from '../../core/expr/index.js';
import { applyDeltas } from '../../core/deltas/index.js';
import { canAct, roleKind, roleOrder } from '../b-proposals/bdi.js';
import { LIMITS, PHASE_RANK } from './shape.js';
import { DramaTracker } from './metrics.js';

const TIMES = ['dawn', 'morning', 'day', 'afternoon', 'dusk', 'night'];

/** The state before and after each scene, re-derived from the plan alone (stage D uses `before`). */
export interface PlanProjection {
  before: World[];
  after: World[];
  /** Applied deltas of each scene (movements first). */
  applied: AppliedDelta[][];
  /** Problems met while re-projecting (prereqs not holding, deltas that cannot apply). */
  problems: string[];
}

/** Initial state of a plan: the snapshot with the opening cast placed at the cliffhanger's location. */
export function openingWorld(world: World, context: EpisodeContext): World {
  if (!context.must_start_immediately || !context.opening) return world;
  const deltas: ResolvedDelta[] = context.opening.characters.map((id) => ({ path: `characters.${id}.location`, op: 'set' as const, value: context.opening!.location }));
  const r = applyDeltas(world, deltas, () => ({ episode: context.episode_id, scene: 'SC00', event: 'opening', operator: null }));
  return r.ok ? r.world : world;
}

// Checks and packets replay the same plan; a copy made with {...plan} shares its beats array.
const projectionMemo = new WeakMap<object, { world: World; context: EpisodeContext; projection: PlanProjection }>();

/** Replay a plan over the snapshot: movements, then each application's prereqs and deltas, scene by scene. */
export function projectPlan(plan: EpisodePlan, world: World, context: EpisodeContext): PlanProjection {
  const m = projectionMemo.get(plan.beats);
  if (m && m.world === world && m.context === context) return m.projection;
  const projection = replay(plan, world, context);
  projectionMemo.set(plan.beats, { world, context, projection });
  return projection;
}

function replay(plan: EpisodePlan, world: World, context: EpisodeContext): PlanProjection {
  const before: World[] = [];
  const after: World[] = [];
  const applied: AppliedDelta[][] = [];
  const problems: string[] = [];
  let w = openingWorld(world, context);
  const beatsById = new Map(plan.beats.map((b) => [b.id, b]));
  const prov = (scene: string, operator: string | null) => () => ({ episode: plan.episode_id, scene, event: 'plan', operator });
  for (const sc of plan.scenes) {
    const moves: ResolvedDelta[] = (sc.movements ?? []).map((m) => ({ path: `characters.${m.character}.location`, op: 'set', value: m.to }));
    if (moves.length) {
      const r = applyDeltas(w, moves, prov(sc.id, null));
      if (r.ok) w = r.world; else problems.push(`${sc.id}: movements cannot apply: ${r.diagnostics[0]?.message}`);
    }
    before.push(w);
    const sceneApplied: AppliedDelta[] = [];
    for (const bid of sc.beats) {
      const b = beatsById.get(bid);
      if (!b) continue;
      for (const a of b.applications) {
        const op = w.operators.operators.find((o) => o.id === a.operator_id);
        if (!op) { problems.push(`${a.id}: unknown operator ${a.operator_id}`); continue; }
        const idx = indexWorld(w);
        const pre = checkPrereqs(op, a.bindings, idx, { episode: plan.episode });
        if (!pre.holds) problems.push(`${a.id} (${a.operator_id}) in ${sc.id}: prerequisite ${pre.results.find((r) => !r.holds)?.expr} does not hold on the projected state`);
        for (const r of roleOrder(op)) {
          if (roleKind(op, r) !== 'character' || !a.bindings[r]) continue;
          if (!canAct(idx.characters.get(a.bindings[r]!))) problems.push(`${a.id}: ${a.bindings[r]} (${r}) cannot act in ${sc.id}`);
        }
        const res = applyDeltas(w, a.required_deltas, prov(sc.id, a.operator_id));
        if (res.ok) { w = res.world; sceneApplied.push(...res.applied); } else problems.push(`${a.id}: required deltas cannot apply: ${res.diagnostics[0]?.message}`);
      }
    }
    after.push(w);
    applied.push(sceneApplied);
  }
  return { before, after, applied, problems };
}

const check = (id: string, rule: string, passed: boolean, detail: string): AcceptanceCheck => ({ id, rule, passed, detail });

type OperatorsById = Map<string, World['operators']['operators'][number]>;

/**
 * Every acceptance rule of docs/planning.md, evaluated independently on a finished plan. Used on
 * the symbolic plan (to prove it) and on a model's plan (to reject it): nothing here trusts the
 * plan's own claims. Each rule family is its own function below; the order of `checks` is part of
 * the plan file, so the families are called in the order the rules are listed there.
 */
export function acceptanceChecks(plan: EpisodePlan, world: World, context: EpisodeContext): { checks: AcceptanceCheck[]; projection: PlanProjection } {
  const apps: OperatorApplication[] = plan.beats.flatMap((b) => b.applications);
  const ops: OperatorsById = new Map(world.operators.operators.map((o) => [o.id, o]));
  const checks: AcceptanceCheck[] = [...shapeChecks(plan, apps, ops), beatsCompleteCheck(plan, world, apps, ops)];

  // Prereqs on the projected state, and the dead never act.
  const projection = projectPlan(plan, world, context);
  const preProblems = projection.problems;
  checks.push(check('prereqs_hold', 'every application\'s prereqs hold on the projected state; its deltas apply; only characters who can act are bound', preProblems.length === 0, preProblems.slice(0, 5).join('; ') || 'all hold'));

  checks.push(majorResolvedCheck(world, projection), overdueFirstCheck(plan, context), risksRolledCheck(plan, apps, ops));
  checks.push(dramaResponsesCheck(plan, projection), timeAndPlaceCheck(plan, world, context, projection, ops));
  if (context.must_start_immediately && context.opening) {
    const s1 = plan.scenes[0];
    const ok = !!s1 && s1.location === context.opening.location && context.opening.characters.every((c) => s1.cast.includes(c));
    checks.push(check('cliffhanger_opening', 'a physical-danger cliffhanger: scene 1 continues at its location with its characters', ok, `SC01 at ${s1?.location} with ${s1?.cast.join(', ')}; required ${context.opening.location} with ${context.opening.characters.join(', ')}`));
  }
  return { checks, projection };
}

/** The episode's shape, read off the plan alone: scene count, acts, phases, type budget, mandatory beats, threads. */
function shapeChecks(plan: EpisodePlan, apps: OperatorApplication[], ops: OperatorsById): AcceptanceCheck[] {
  const checks: AcceptanceCheck[] = [];
  const n = plan.scenes.length;
  checks.push(check('scene_count', `${LIMITS.scenes.min}-${LIMITS.scenes.max} scenes`, n >= LIMITS.scenes.min && n <= LIMITS.scenes.max, `${n} scenes`));
  const actsSeq = plan.scenes.map((s) => s.act);
  const actsOk = [1, 2, 3, 4].every((a) => actsSeq.includes(a)) && actsSeq.every((a, i) => i === 0 || a >= actsSeq[i - 1]!) && plan.scenes.every((s, i) => s.number === i + 1 && s.id === `SC${String(i + 1).padStart(2, '0')}`);
  checks.push(check('four_acts', 'scenes numbered in order across 4 acts', actsOk, `acts ${[1, 2, 3, 4].map((a) => actsSeq.filter((x) => x === a).length).join('/')}`));
  const ranks = plan.beats.map((b) => PHASE_RANK[b.phase]);
  const phasesOk = ranks.every((r, i) => i === 0 || r >= ranks[i - 1]!) && (['establishment', 'complication', 'escalation', 'pivot'] as const).every((p) => plan.beats.some((b) => b.phase === p)) && plan.beats[0]?.phase === 'establishment';
  checks.push(check('phases', 'beats progress establishment → complication → escalation → pivot (resolution optional)', phasesOk, plan.beats.map((b) => b.phase[0]).join('')));

  const thr = apps.filter((a) => ops.get(a.operator_id)?.type === 'thriller').length;
  const soap = apps.filter((a) => ops.get(a.operator_id)?.type === 'soap').length;
  checks.push(check('thriller_count', `${LIMITS.thriller.min}-${LIMITS.thriller.max} thriller applications`, thr >= LIMITS.thriller.min && thr <= LIMITS.thriller.max, `${thr} thriller`));
  checks.push(check('soap_count', `${LIMITS.soap.min}-${LIMITS.soap.max} soap applications`, soap >= LIMITS.soap.min && soap <= LIMITS.soap.max, `${soap} soap`));

  const tagDetail: string[] = [];
  let tagsOk = true;
  for (const t of MANDATORY_BEATS) {
    const bs = plan.beats.filter((b) => b.tag === t);
    const carrier = bs.length === 1 && bs[0]!.applications.some((a) => ops.get(a.operator_id)?.beats.includes(t));
    if (bs.length !== 1 || !carrier) tagsOk = false;
    tagDetail.push(`${t}: ${bs.map((b) => b.scene).join(',') || 'none'}`);
  }
  checks.push(check('mandatory_beats', 'exactly one REVEAL, REVERSAL, CONFRONTATION and CLIFFHANGER, each carried by an operator with that tag', tagsOk, tagDetail.join('; ')));
  const cliffBeat = plan.beats.find((b) => b.tag === 'cliffhanger');
  const lastScene = plan.scenes[n - 1];
  checks.push(check('cliffhanger_last', 'the CLIFFHANGER is in the last scene', !!cliffBeat && !!lastScene && cliffBeat.scene === lastScene.id, `cliffhanger in ${cliffBeat?.scene ?? 'none'}, last scene ${lastScene?.id ?? 'none'}`));

  const advanced = [...new Set(apps.flatMap((a) => a.threads_advanced))].sort();
  checks.push(check('threads_advanced', 'at least 2 threads advanced', advanced.length >= 2, advanced.join(', ') || 'none'));
  return checks;
}

/** Beat completeness: operators exist, every role bound to an existing entity, deltas named. */
function beatsCompleteCheck(plan: EpisodePlan, world: World, apps: OperatorApplication[], ops: OperatorsById): AcceptanceCheck {
  const problems: string[] = [];
  const idx0 = indexWorld(world);
  const exists = (kind: string, id: string) => kind === 'character' ? idx0.characters.has(id) : kind === 'secret' ? idx0.secrets.has(id) : kind === 'thread' ? idx0.threads.has(id) : kind === 'location' ? idx0.locations.has(id) : idx0.factions.has(id);
  const sceneIds = new Set(plan.scenes.map((s) => s.id));
  for (const b of plan.beats) {
    if (b.applications.length === 0) problems.push(`${b.id} has no operator application`);
    if (!sceneIds.has(b.scene)) problems.push(`${b.id} names unknown scene ${b.scene}`);
    for (const a of b.applications) {
      const op = ops.get(a.operator_id);
      if (!op) { problems.push(`${a.id}: unknown operator ${a.operator_id}`); continue; }
      for (const r of roleOrder(op)) if (!a.bindings[r] || !exists(roleKind(op, r), a.bindings[r]!)) problems.push(`${a.id}: role ${r} is not bound to an existing ${roleKind(op, r)}`);
      if (a.required_deltas.length === 0) problems.push(`${a.id}: no required_deltas`);
      if (a.type !== op.type) problems.push(`${a.id}: type ${a.type} but ${op.id} is ${op.type}`);
    }
  }
  for (const s of plan.scenes) for (const bid of s.beats) if (!plan.beats.some((b) => b.id === bid && b.scene === s.id)) problems.push(`${s.id} lists beat ${bid} that is not in it`);
  return check('beats_complete', 'every beat names its operators, bound roles and required_deltas', problems.length === 0, problems.slice(0, 5).join('; ') || `${plan.beats.length} beats, ${apps.length} applications`);
}

/** At most one major thread may end the episode resolved (read on the projected end state). */
function majorResolvedCheck(world: World, projection: PlanProjection): AcceptanceCheck {
  const end = projection.after[projection.after.length - 1] ?? world;
  const majorsResolved = world.threads.threads.filter((t) => t.major && t.status === 'open').filter((t) => {
    const e = end.threads.threads.find((x) => x.id === t.id);
    return e && (e.status === 'resolved' || e.progress >= 1);
  }).map((t) => t.id);
  return check('major_resolved', 'at most 1 major thread fully resolved', majorsResolved.length <= 1, majorsResolved.join(', ') || 'none');
}

/** Overdue threads first: every overdue thread advanced, first in act 1 or 2. */
function overdueFirstCheck(plan: EpisodePlan, context: EpisodeContext): AcceptanceCheck {
  const overdue = context.active_threads.filter((t) => t.overdue).map((t) => t.id);
  const late: string[] = [];
  for (const t of overdue) {
    const first = plan.beats.find((b) => b.applications.some((a) => a.threads_advanced.includes(t)));
    if (!first || first.act > 2) late.push(`${t} ${first ? `first advanced in act ${first.act}` : 'not advanced'}`);
  }
  return check('overdue_first', 'threads past their cadence are advanced first (in act 1 or 2)', late.length === 0, late.join('; ') || (overdue.length ? `overdue: ${overdue.join(', ')}` : 'no overdue threads'));
}

/** Risks rolled with the run's seed: each roll is re-drawn from its own fork and must match. */
function risksRolledCheck(plan: EpisodePlan, apps: OperatorApplication[], ops: OperatorsById): AcceptanceCheck {
  const rng = new Rng(plan.seed);
  const riskProblems: string[] = [];
  for (const a of apps) {
    const op = ops.get(a.operator_id);
    if (!op) continue;
    if (a.risks.length !== op.side_effect_risks.length) { riskProblems.push(`${a.id}: ${a.risks.length} risk rolls for ${op.side_effect_risks.length} risks`); continue; }
    a.risks.forEach((r, k) => {
      const roll = round(rng.fork(`risk/${a.id}/${k}`).next());
      if (r.roll !== roll || r.prob !== op.side_effect_risks[k]!.prob || r.triggered !== roll < r.prob) riskProblems.push(`${a.id}: risk ${k} is not the seeded roll`);
    });
    if ((a.outcome === 'fail') !== a.risks.some((r) => r.triggered)) riskProblems.push(`${a.id}: outcome ${a.outcome} does not follow its rolls`);
  }
  return check('risks_rolled', 'side-effect risks rolled with the run seed decide success or fail', riskProblems.length === 0, riskProblems.slice(0, 5).join('; ') || `${apps.filter((a) => a.outcome === 'fail').length} of ${apps.length} applications fail`);
}

/** Drama responses: every §10.2 condition that arose is answered in drama_responses. */
function dramaResponsesCheck(plan: EpisodePlan, projection: PlanProjection): AcceptanceCheck {
  const n = plan.scenes.length;
  const drama = new DramaTracker();
  const dramaProblems: string[] = [];
  const confrontationAt = plan.scenes.findIndex((s) => plan.beats.some((b) => b.scene === s.id && b.tag === 'confrontation'));
  let plateauAnswered = false;
  plan.scenes.forEach((s, i) => {
    drama.addScene(s.id, s.act, projection.before[i]!, projection.after[i]!, projection.applied[i] ?? [], plan.beats.filter((b) => b.scene === s.id && b.tag).map((b) => b.tag!));
    const p = drama.plateauAt(s.id);
    if (p && i < n - 1 && (confrontationAt < 0 || confrontationAt > i) && !plateauAnswered) {
      plateauAnswered = true;
      if (!plan.drama_responses.some((r) => r.action === 'schedule_confrontation')) dramaProblems.push(`tension plateau at ${s.id} with the confrontation still to come, but no confrontation was scheduled`);
    }
    const next = plan.scenes[i + 1];
    if (next && next.act !== s.act && drama.pacingLowEndingAt(s.act) && !plan.drama_responses.some((r) => r.action === 'inject_complication')) {
      dramaProblems.push(`pacing below 4 in acts ${s.act - 1} and ${s.act}, but no complication was injected`);
    }
  });
  for (const r of plan.drama_responses) {
    const pair = { pacing_low: 'inject_complication', tension_plateau: 'schedule_confrontation', threads_near_resolution: 'defer_resolution' }[r.condition];
    if (pair !== r.action) dramaProblems.push(`response ${r.condition} → ${r.action} is not the spec's`);
    if (r.action === 'defer_resolution') {
      const m = /; ([a-z0-9_]+) is deferred/.exec(r.detail);
      const at = plan.scenes.findIndex((s) => s.id === r.at);
      if (m && at >= 0 && plan.beats.some((b) => plan.scenes.findIndex((s) => s.id === b.scene) > at && b.applications.some((a) => a.threads_advanced.includes(m[1]!)))) dramaProblems.push(`${m[1]} was deferred at ${r.at} but advanced later`);
    }
  }
  return check('drama_responses', 'spec §10.2 responses applied while planning (complication injection, scheduled confrontation, deferred resolution)', dramaProblems.length === 0, dramaProblems.join('; ') || `${plan.drama_responses.length} responses: ${plan.drama_responses.map((r) => r.action).join(', ') || 'none needed'}`);
}

/** Time and place: no one in two places at once; travel respects travel days. */
function timeAndPlaceCheck(plan: EpisodePlan, world: World, context: EpisodeContext, projection: PlanProjection, ops: OperatorsById): AcceptanceCheck {
  const n = plan.scenes.length;
  const timeProblems: string[] = [];
  const slot = (s: PlannedScene) => s.day * TIMES.length + TIMES.indexOf(s.time_of_day);
  const last = new Map<string, { loc: string; day: number; slot: number; scene: string }>();
  const startWorld = openingWorld(world, context);
  const idx = indexWorld(startWorld);
  for (let i = 0; i < plan.scenes.length; i++) {
    const s = plan.scenes[i]!;
    if (i > 0 && slot(s) < slot(plan.scenes[i - 1]!)) timeProblems.push(`${s.id} is earlier than ${plan.scenes[i - 1]!.id}`);
    for (const c of s.cast) {
      const prev = last.get(c);
      const from = prev?.loc ?? idx.characters.get(c)?.location;
      const fromDay = prev?.day ?? 0;
      if (prev && prev.slot === slot(s) && prev.loc !== s.location) timeProblems.push(`${c} is in ${prev.scene} and ${s.id} at the same time`);
      if (from) {
        const d = travelDays(idx, from, s.location);
        if (d === null) timeProblems.push(`${c} cannot reach ${s.location} from ${from}`);
        else if (s.day - fromDay < d) timeProblems.push(`${c} needs ${d} day(s) from ${from} to ${s.location} but has ${s.day - fromDay} (${s.id})`);
      }
      last.set(c, { loc: s.location, day: s.day, slot: slot(s), scene: s.id });
    }
    const ch = projection.before[i];
    for (const c of s.cast) if (ch && !canAct(ch.characters.characters.find((x) => x.id === c))) timeProblems.push(`${c} is in the cast of ${s.id} but cannot appear`);
    const bound = plan.beats.filter((b) => b.scene === s.id).flatMap((b) => b.applications).flatMap((a) => {
      const op = ops.get(a.operator_id);
      return op ? roleOrder(op).filter((r) => roleKind(op, r) === 'character').map((r) => a.bindings[r]!).filter(Boolean) : [];
    });
    for (const c of bound) if (!s.cast.includes(c)) timeProblems.push(`${c} acts in ${s.id} but is not in its cast`);
  }
  return check('time_and_place', 'no character in two places at once; travel between scenes respects travel days', timeProblems.length === 0, timeProblems.slice(0, 5).join('; ') || `${plan.scenes[n - 1]?.day ?? 0} day(s) elapsed`);
}

export type { MandatoryBeat };
