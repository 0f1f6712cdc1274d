import type { AppliedDelta, ResolvedDelta } from '../../domain/delta.js';
import type { OperatorApplication, PlannedScene } from '../../domain/plan.js';
import { indexWorld, travelDays } from '../../core/world-index.js';
import { applyDeltas } from '../../core/deltas/index.js';
import { canAct } from '../b-proposals/bdi.js';
import { breaksHardConstraint } from './hard-constraints.js';
import { candidateHolds, candidatePrereqs, type Candidate } from './candidates.js';
import { pickLocation, sceneTime } from './locations.js';
import { buildApplication } from './application.js';
import type { Attempt, Projection, SceneWork } from './attempt.js';

/** A candidate placed: its application, the projection after it, and where and when its scene plays. */
export interface Placement {
  c: Candidate;
  app: OperatorApplication;
  proj: Projection;
  loc: string;
  day: number;
  tod: number;
  moves: NonNullable<PlannedScene['movements']>;
  applied: AppliedDelta[];
}

/**
 * Try to place the candidate as move k of the scene: its prereqs, the scene's place and time (fixed
 * by the first move), the cast's journeys, its deltas on the projection, the hard constraints.
 */
export function tryPlace(a: Attempt, w: SceneWork, k: number, c: Candidate): Placement | null {
  const proj = a.proj;
  // Most moves tried fail here (every rejected one on the starter, DPRR and synthetic worlds): stop at
  // the first prerequisite that does not hold (the slot's reserves may have asked already); each
  // prerequisite's result, which the application records, is worked out for a move that holds.
  if (!candidateHolds(c, proj.index, a.episode)) return null;
  const prereq = candidatePrereqs(c, proj.index, a.episode);
  const loc = w.location ?? (w.forcedOpening && k === 0 ? w.forcedOpening.location : pickLocation(proj.index, c, a.where, a.locUses, a.rng.fork(w.sc.id)));
  if (!loc) return null;
  const forced = w.forcedOpening ? w.forcedOpening.characters.filter((id) => canAct(proj.index.characters.get(id))) : [];
  const sceneCast = [...new Set([...w.cast, ...c.chars, ...forced])];
  const timing = sceneTime(proj.index, sceneCast, loc, a.where, k === 0 ? { day: a.clock.day, tod: a.clock.tod + w.step } : { day: w.day, tod: w.tod });
  if (!timing) return null;
  if (k > 0 && (timing.day !== w.day || timing.tod !== w.tod)) return null;
  if (a.gate.blocking(c.op.id, timing.day)) return null; // a not_before anchor (world/anchors.json)
  // Move the cast, then apply the application's deltas on the projection.
  const moves: Placement['moves'] = [];
  const moveDeltas: ResolvedDelta[] = [];
  for (const id of sceneCast) {
    const from = proj.index.characters.get(id)!.location;
    if (from !== loc) {
      moves.push({ character: id, from, to: loc, days: travelDays(proj.index, from, loc) ?? 0 });
      moveDeltas.push({ path: `characters.${id}.location`, op: 'set', value: loc });
    }
  }
  const moved = moveDeltas.length ? applyDeltas(proj.world, moveDeltas, a.prov(w.sc.id, null)) : { ok: true as const, world: proj.world, applied: [] };
  if (!moved.ok) return null;
  const movedIndex = moveDeltas.length ? indexWorld(moved.world) : proj.index;
  // The move happens where the scene is: prereqs are judged after the cast has arrived.
  const prereqAtScene = moveDeltas.length ? candidatePrereqs(c, movedIndex, a.episode) : prereq;
  if (!prereqAtScene.holds) return null;
  const appId = `a${String(a.appSeq + 1).padStart(2, '0')}`;
  const built = buildApplication(c, appId, movedIndex, a.riskRng, a.pacing, a.deferred, a.resolvedMajors);
  if (!built) return null;
  const applied = applyDeltas(moved.world, built.app.required_deltas, a.prov(w.sc.id, c.op.id));
  if (!applied.ok) return null;
  // One index of the new state serves the hard constraints and, if the move is placed, the projection.
  const appliedIndex = indexWorld(applied.world);
  if (breaksHardConstraint(proj.index, appliedIndex, a.episode)) return null;
  // Spec §6.1: at most one major thread fully resolved (effects may write progress directly too).
  if (a.majorOpen.filter((id) => { const t = applied.world.threads.threads.find((x) => x.id === id); return !!t && (t.status === 'resolved' || t.progress >= 1); }).length > 1) return null;
  built.app.prereqs = prereqAtScene.results.map((r) => ({ expr: r.expr, holds: r.holds }));
  return { c, app: built.app, proj: { world: applied.world, index: appliedIndex }, loc, day: timing.day, tod: timing.tod, moves, applied: applied.applied };
}
