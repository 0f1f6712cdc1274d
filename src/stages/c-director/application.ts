import type { ResolvedDelta } from '../../domain/delta.js';
import type { OperatorApplication, RiskRoll } from '../../domain/plan.js';
import type { Rng } from '../../core/rng.js';
import { round } from '../../core/json.js';
import type { WorldIndex } from '../../core/world-index.js';
import { operatorRoleKinds } from '../../core/expr/index.js';
import { resolveEffects } from '../../core/deltas/index.js';
import type { ThreadPace } from '../../core/threads.js';
import type { Candidate } from './candidates.js';
import { cascadeDeltas } from '../../core/cascade.js';

/**
 * One operator application as the Director commits to it: the risk rolls, the outcome, the deltas,
 * and the thread progress paced to the season (docs/planning.md §C.7).
 */

/** Thread progress per application (docs/planning.md §C.7), at most the thread's pace budget left. */
export const THREAD_STEP = { success: 0.1, fail: 0.05 } as const;
/** A step smaller than this does not advance a thread (its budget for the episode is spent). */
export const MIN_THREAD_STEP = 0.001;
export const FAIL_COST: { stat: 'dignitas'; amount: number } = { stat: 'dignitas', amount: 2 };

export interface Pacing {
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
export function budgetLeft(p: Pacing, thread: string, progress: number): number {
  const pace = p.pace.get(thread);
  if (!pace) return 0;
  return pace.budget - (progress - (p.start.get(thread) ?? progress));
}

/**
 * The Director's commitment to one candidate move: its seeded risk rolls decide the outcome, the
 * outcome decides the deltas, the thread steps are paced to the season, and the cascade follows.
 * Null when the move cannot resolve or ends up changing nothing.
 */
export function buildApplication(
  c: Candidate, id: string, index: WorldIndex, rng: Rng, pacing: Pacing, deferred: Set<string>, resolvedMajors: Set<string>,
): { app: OperatorApplication } | null {
  const { risks, outcome } = rollRisks(c, id, rng);
  const deltas = outcomeDeltas(c, index, pacing.episode, risks, outcome);
  if (!deltas) return null;
  const threads = paceThreads(c, index, pacing, deferred, resolvedMajors, outcome, deltas);
  if (!threads) return null;
  // Consequences land: a death, exile or arrest carries its cascade (core/cascade.ts).
  deltas.push(...cascadeDeltas(index.world, deltas));
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

/** Each side-effect risk rolled on its own fork of the run seed (so the checks can re-draw it); any hit fails the move. */
function rollRisks(c: Candidate, id: string, rng: Rng): { risks: RiskRoll[]; outcome: 'success' | 'fail' } {
  const risks: RiskRoll[] = c.op.side_effect_risks.map((r, k) => {
    const roll = round(rng.fork(`risk/${id}/${k}`).next());
    return { text: r.text, prob: r.prob, roll, triggered: roll < r.prob };
  });
  return { risks, outcome: risks.some((r) => r.triggered) ? 'fail' : 'success' };
}

/** A success writes the operator's effects (null if they cannot resolve); a fail writes the triggered risks' effects and its cost. */
function outcomeDeltas(c: Candidate, index: WorldIndex, episode: number, risks: RiskRoll[], outcome: 'success' | 'fail'): ResolvedDelta[] | null {
  const roleKinds = operatorRoleKinds(c.op);
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
  return deltas;
}

/** Progress the operator's own effects write, per thread (they replace the planner's step, never stack with it). */
function explicitProgress(deltas: ResolvedDelta[], index: WorldIndex): Map<string, number> {
  const explicit = new Map<string, number>();
  for (const d of deltas) {
    const m = /^threads\.([a-z0-9_]+)\.progress$/.exec(d.path);
    if (!m || typeof d.value !== 'number') continue;
    const cur = index.threads.get(m[1]!)?.progress ?? 0;
    const at = cur + (explicit.get(m[1]!) ?? 0);
    const gain = d.op === 'add' ? d.value : d.op === 'subtract' ? -d.value : d.op === 'set' ? d.value - at : 0;
    explicit.set(m[1]!, (explicit.get(m[1]!) ?? 0) + gain);
  }
  return explicit;
}

/**
 * Pace every thread the move touches (docs/planning.md §C.7), rewriting `deltas` in place: the
 * progress deltas become the paced gain, with last_progress_episode and a resolution where due.
 * Returns the threads advanced, or null when the move writes progress to a thread that is not open.
 */
function paceThreads(
  c: Candidate, index: WorldIndex, pacing: Pacing, deferred: Set<string>, resolvedMajors: Set<string>, outcome: 'success' | 'fail', deltas: ResolvedDelta[],
): string[] | null {
  const episode = pacing.episode;
  const explicit = explicitProgress(deltas, index);
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
  return threads;
}
