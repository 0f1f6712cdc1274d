import type { AppliedDelta, ResolvedDelta } from '../domain/delta.js';
import type { DramaResponse } from '../domain/plan.js';
import type { Thread, World } from '../domain/world.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { round } from './json.js';
import { parsePath } from './deltas/paths.js';
import { projectScenes } from './projection.js';
import { globalOn10, tension, threatToGoals } from './tension.js';

export { globalOn10, tension, threatToGoals };

/**
 * Drama metrics (spec §10) and the Director's responses (§10.2), as pure functions.
 * Every input is defined here and in docs/metrics.md; the two must agree.
 *
 *   tension    (0-10) = (threat_to_goals + scandal_temp + unrest) / 3
 *   pacing     (0-10) = clamp(10 * meaningful_deltas_this_act / expected_deltas_per_act, 0, 10)
 *                        expected_deltas_per_act = scenes_in_act * expected_deltas_per_scene(world)
 *   volatility (0-10) = clamp((narrative_swings + betrayals + reversals) / act_count, 0, 10)
 */

export interface MetricsOptions {
  /**
   * A fixed number of meaningful deltas every act "should" have (pacing is 10 when an act reaches
   * it). When absent, the expectation is scene-count-aware: scenes_in_act x expectedDeltasPerScene.
   */
  expectedDeltasPerAct?: number;
  /**
   * Meaningful deltas a scene "should" make; default: the world's catalog average
   * (expectedDeltasPerScene(world)), else FALLBACK_DELTAS_PER_SCENE.
   */
  expectedDeltasPerScene?: number;
  /** A plateau is a run of 3+ scenes whose tensions lie within this of each other (max - min). Default 0.05. */
  plateauTolerance?: number;
  /** A numeric change is meaningful when |after - before| >= this fraction of its range. Default 0.05. */
  meaningfulFraction?: number;
  /** A scene is a narrative swing when its tension moves by at least this much. Default 2. */
  swingThreshold?: number;
  /** Loyalty or trust of one edge falling by at least this much in a scene is a betrayal. Default 0.2. */
  betrayalDrop?: number;
  /** An open thread with progress >= this is near resolution. Default 0.8. */
  nearResolution?: number;
}

/** Meaningful deltas per scene expected when the world declares no operators. */
export const FALLBACK_DELTAS_PER_SCENE = 2;

type Resolved = Omit<Required<MetricsOptions>, 'expectedDeltasPerAct'> & { expectedDeltasPerAct: number | undefined };
const DEFAULTS: Resolved = {
  expectedDeltasPerAct: undefined,
  expectedDeltasPerScene: FALLBACK_DELTAS_PER_SCENE,
  plateauTolerance: 0.05,
  meaningfulFraction: 0.05,
  swingThreshold: 2,
  betrayalDrop: 0.2,
  nearResolution: 0.8,
};
const opt = (o: MetricsOptions | undefined): Resolved => {
  const r: Resolved = { ...DEFAULTS };
  for (const [k, v] of Object.entries(o ?? {})) if (v !== undefined) (r as unknown as Record<string, unknown>)[k] = v;
  return r;
};

/**
 * What one scene's move "should" change: the mean number of declared effects of the world's
 * operators (rounded to 2 decimals), i.e. what an average move changes when it succeeds in full.
 * A scene falls short of it when its move fails (the effects do not happen), when an effect is
 * clamped at a bound or repeats a value, or when its change is too small to be meaningful; a
 * scene exceeds it with travel and thread progress. Without operators: FALLBACK_DELTAS_PER_SCENE.
 */
export function expectedDeltasPerScene(world: World): number {
  const ops = world.operators?.operators ?? [];
  if (ops.length === 0) return FALLBACK_DELTAS_PER_SCENE;
  return round(ops.reduce((n, o) => n + (o.effects?.length ?? 0), 0) / ops.length, 2) || FALLBACK_DELTAS_PER_SCENE;
}

/** The meaningful deltas an act of `scenes` scenes is expected to make under these options. */
export function expectedDeltasForAct(scenes: number, options?: MetricsOptions): number {
  const o = opt(options);
  return round(o.expectedDeltasPerAct ?? scenes * o.expectedDeltasPerScene, 2);
}
const clamp10 = (x: number) => Math.min(10, Math.max(0, x));

// ---- tension: core/tension.ts ----

// ---- meaningful deltas ----

function rangeOf(world: World, d: ResolvedDelta): number | null {
  const p = parsePath(d.path);
  if (!p.ok) return null;
  switch (p.target.kind) {
    case 'global': {
      const m = world.world?.global?.[p.target.metric];
      return m && m.max > m.min ? m.max - m.min : null;
    }
    case 'stat': return 100;
    case 'weight': case 'secret_value': case 'thread_progress': return 1;
    default: return null;
  }
}

/**
 * A delta is meaningful when it changed the state visibly:
 * - numeric paths (globals, stats, weights, secret values, thread progress): |after - before| >=
 *   meaningfulFraction x the path's range;
 * - status, location, list items, flags, holders: the value actually changed;
 * - ledger: a transfer, mint or burn of at least 1 denarius;
 * - never: threads.<id>.last_progress_episode, secrets.<id>.told_in (bookkeeping).
 * `world` is any state with the same declared metric ranges (ranges do not change).
 */
export function isMeaningful(a: AppliedDelta, world: World, options?: MetricsOptions): boolean {
  const o = opt(options);
  const p = parsePath(a.path);
  if (!p.ok || p.target.kind === 'thread_last_progress' || p.target.kind === 'secret_told_in') return false;
  if (p.target.kind === 'ledger') return (a.amount ?? 0) >= 1;
  if (p.target.kind === 'account') return typeof a.value === 'number' && a.value >= 1;
  if (typeof a.before === 'number' && typeof a.after === 'number') {
    const range = rangeOf(world, a);
    return range !== null && Math.abs(a.after - a.before) >= o.meaningfulFraction * range - 1e-9;
  }
  return JSON.stringify(a.before) !== JSON.stringify(a.after);
}

// ---- per scene ----

export interface SceneMetricsInput {
  scene: string;
  act: number;
  before: World;
  after: World;
  applied: readonly AppliedDelta[];
  /** Beat tags of the scene's beats (e.g. "reversal"). */
  tags?: readonly string[];
}

export interface SceneMetrics {
  scene: string;
  act: number;
  tension_before: number;
  tension: number;
  meaningful_deltas: number;
  /** |tension - tension_before| >= swingThreshold. */
  swing: boolean;
  /** Edges whose loyalty or trust fell by >= betrayalDrop over the scene. */
  betrayals: number;
  /** "reversal" beat tags + secrets newly revealed + threads whose progress fell. */
  reversals: number;
}

export function sceneMetrics(input: SceneMetricsInput, options?: MetricsOptions): SceneMetrics {
  const o = opt(options);
  const tb = tension(input.before);
  const ta = tension(input.after);
  const meaningful = input.applied.filter((a) => isMeaningful(a, input.before, o)).length;

  // Betrayal: net drop of loyalty or trust on one edge across the scene.
  const firstBefore = new Map<string, number>();
  const lastAfter = new Map<string, number>();
  const secretsRevealed = new Set<string>();
  const threadsBack = new Set<string>();
  for (const a of input.applied) {
    const p = parsePath(a.path);
    if (!p.ok) continue;
    const t = p.target;
    if (t.kind === 'weight' && (t.weight === 'loyalty' || t.weight === 'trust') && typeof a.before === 'number' && typeof a.after === 'number') {
      const k = `${t.from}>${t.to}>${t.weight}`;
      if (!firstBefore.has(k)) firstBefore.set(k, a.before);
      lastAfter.set(k, a.after);
    }
    if (t.kind === 'secret_status' && a.after === 'revealed' && a.before !== 'revealed') secretsRevealed.add(t.secret);
    if (t.kind === 'thread_progress' && typeof a.before === 'number' && typeof a.after === 'number' && a.after < a.before) threadsBack.add(t.thread);
  }
  const betrayedEdges = new Set<string>();
  for (const [k, b] of firstBefore) {
    if (b - lastAfter.get(k)! >= o.betrayalDrop - 1e-9) betrayedEdges.add(k.split('>').slice(0, 2).join('>'));
  }
  const tagged = (input.tags ?? []).filter((t) => t === 'reversal').length;
  return {
    scene: input.scene,
    act: input.act,
    tension_before: tb,
    tension: ta,
    meaningful_deltas: meaningful,
    swing: Math.abs(ta - tb) >= o.swingThreshold - 1e-9,
    betrayals: betrayedEdges.size,
    reversals: tagged + secretsRevealed.size + threadsBack.size,
  };
}

// ---- per act and episode ----

export interface ActMetrics {
  act: number;
  scenes: number;
  /** Mean of the scenes' tension (after each scene). */
  tension: number;
  tension_peak: number;
  meaningful_deltas: number;
  /** The act's expectation: scenes x expected deltas per scene (or the fixed expectedDeltasPerAct). */
  expected_deltas: number;
  pacing: number;
  narrative_swings: number;
  betrayals: number;
  reversals: number;
  /** (swings + betrayals + reversals) / 1, clamped 0..10. */
  volatility: number;
}

export function actMetrics(scenes: readonly SceneMetrics[], options?: MetricsOptions): ActMetrics[] {
  const o = opt(options);
  const acts = [...new Set(scenes.map((s) => s.act))].sort((a, b) => a - b);
  return acts.map((act) => {
    const ss = scenes.filter((s) => s.act === act);
    const meaningful = ss.reduce((n, s) => n + s.meaningful_deltas, 0);
    const swings = ss.filter((s) => s.swing).length;
    const betrayals = ss.reduce((n, s) => n + s.betrayals, 0);
    const reversals = ss.reduce((n, s) => n + s.reversals, 0);
    const expected = expectedDeltasForAct(ss.length, o);
    return {
      act,
      scenes: ss.length,
      tension: round(ss.reduce((n, s) => n + s.tension, 0) / ss.length, 2),
      tension_peak: Math.max(...ss.map((s) => s.tension)),
      meaningful_deltas: meaningful,
      expected_deltas: expected,
      pacing: round(clamp10((10 * meaningful) / Math.max(1e-9, expected)), 2),
      narrative_swings: swings,
      betrayals,
      reversals,
      volatility: round(clamp10(swings + betrayals + reversals), 2),
    };
  });
}

export interface EpisodeMetricsSummary {
  act_count: number;
  /** Mean of the acts' tension. */
  tension: number;
  /** Mean of the acts' pacing. */
  pacing: number;
  /** (all swings + betrayals + reversals) / act_count, clamped 0..10. */
  volatility: number;
}

export function episodeSummary(acts: readonly ActMetrics[]): EpisodeMetricsSummary {
  const n = acts.length;
  if (n === 0) return { act_count: 0, tension: 0, pacing: 0, volatility: 0 };
  const events = acts.reduce((s, a) => s + a.narrative_swings + a.betrayals + a.reversals, 0);
  return {
    act_count: n,
    tension: round(acts.reduce((s, a) => s + a.tension, 0) / n, 2),
    pacing: round(acts.reduce((s, a) => s + a.pacing, 0) / n, 2),
    volatility: round(clamp10(events / n), 2),
  };
}

// ---- Director responses (§10.2) ----

/** Pacing below 4 in two consecutive acts: inject a complication into the second of them. */
export function pacingResponses(acts: readonly ActMetrics[]): DramaResponse[] {
  const out: DramaResponse[] = [];
  for (let i = 1; i < acts.length; i++) {
    const a = acts[i - 1]!;
    const b = acts[i]!;
    if (a.pacing < 4 && b.pacing < 4) {
      out.push({
        condition: 'pacing_low',
        action: 'inject_complication',
        at: `act ${b.act}`,
        detail: `pacing ${a.pacing} in act ${a.act} and ${b.pacing} in act ${b.act} (below 4 for 2 acts)`,
      });
      i++; // one response per pair; the next window starts after it
    }
  }
  return out;
}

/**
 * Tension the same for 3 or more consecutive scenes (spec: "same value 3+ scenes"): schedule a
 * confrontation at the third scene of the run. One response per run. "The same" means the run's
 * tensions lie within plateauTolerance (default 0.05) of each other, max - min: a real change of
 * tension (one secret's status or a global moving) is >= 0.03 on the starter world, and, unlike
 * rounding to one decimal, 4.04 and 4.06 are the same while 4.06 and 4.14 are not.
 */
export function tensionPlateauResponses(scenes: readonly Pick<SceneMetrics, 'scene' | 'tension'>[], options?: MetricsOptions): DramaResponse[] {
  const tol = opt(options).plateauTolerance + 1e-9;
  const out: DramaResponse[] = [];
  let runStart = 0;
  let lo = scenes[0]?.tension ?? 0;
  let hi = lo;
  for (let i = 1; i <= scenes.length; i++) {
    if (i < scenes.length) {
      const t = scenes[i]!.tension;
      const nlo = Math.min(lo, t);
      const nhi = Math.max(hi, t);
      if (nhi - nlo <= tol) { lo = nlo; hi = nhi; continue; }
    }
    if (i - runStart >= 3) {
      out.push({
        condition: 'tension_plateau',
        action: 'schedule_confrontation',
        at: scenes[runStart + 2]!.scene,
        detail: `tension flat at ${round(scenes[runStart]!.tension, 1)} for ${i - runStart} scenes (${scenes[runStart]!.scene}-${scenes[i - 1]!.scene})`,
      });
    }
    runStart = i;
    lo = hi = scenes[i]?.tension ?? 0;
  }
  return out;
}

/** Open threads with progress >= nearResolution. */
export function threadsNearResolution(world: World, options?: MetricsOptions): Thread[] {
  const o = opt(options);
  return (world.threads?.threads ?? []).filter((t) => t.status === 'open' && t.progress >= o.nearResolution);
}

/**
 * More than 2 threads near resolution: defer enough of them to the next episode that 2 remain.
 * The ones deferred are the least pressing: lower priority first, then non-major, then lower
 * progress, then id.
 */
export function threadsToDefer(world: World, options?: MetricsOptions): Thread[] {
  const near = threadsNearResolution(world, options);
  if (near.length <= 2) return [];
  const order = [...near].sort(
    (a, b) => a.priority - b.priority || Number(a.major) - Number(b.major) || a.progress - b.progress || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return order.slice(0, near.length - 2);
}

export function deferResponses(world: World, options?: MetricsOptions): DramaResponse[] {
  const near = threadsNearResolution(world, options);
  return threadsToDefer(world, options).map((t) => ({
    condition: 'threads_near_resolution' as const,
    action: 'defer_resolution' as const,
    at: t.id,
    detail: `${near.length} threads near resolution (progress >= ${opt(options).nearResolution}); defer ${t.id} to the next episode`,
  }));
}

// ---- whole episode ----

export interface EpisodeSceneInput {
  scene: string;
  act: number;
  deltas: readonly ResolvedDelta[];
  tags?: readonly string[];
}

export interface EpisodeMetrics {
  scenes: SceneMetrics[];
  acts: ActMetrics[];
  episode: EpisodeMetricsSummary;
  /** The tension curve: tension after each scene, in order. */
  tension_curve: { scene: string; tension: number }[];
  responses: DramaResponse[];
}

/**
 * Metrics of an episode from the start state and each scene's resolved deltas (projected with
 * the delta engine). Responses: pacing and plateau over the episode, deferral on the end state.
 */
export function computeEpisodeMetrics(
  world: World,
  scenes: readonly EpisodeSceneInput[],
  options?: MetricsOptions,
): { ok: true; metrics: EpisodeMetrics; end: World } | { ok: false; scene: string; diagnostics: Diagnostic[] } {
  const proj = projectScenes(world, scenes.map((s) => ({ scene: s.scene, deltas: s.deltas })), { hashes: false });
  if (!proj.ok) return { ok: false, scene: proj.scene, diagnostics: proj.diagnostics };
  const o: MetricsOptions = { expectedDeltasPerScene: expectedDeltasPerScene(world), ...(options ?? {}) };
  const sm = scenes.map((s, i) =>
    sceneMetrics({ scene: s.scene, act: s.act, before: proj.before[i]!, after: proj.after[i]!, applied: proj.applied[i]!, tags: s.tags }, o),
  );
  const acts = actMetrics(sm, o);
  const end = proj.after.length ? proj.after[proj.after.length - 1]! : world;
  return {
    ok: true,
    end,
    metrics: {
      scenes: sm,
      acts,
      episode: episodeSummary(acts),
      tension_curve: sm.map((s) => ({ scene: s.scene, tension: s.tension })),
      responses: [...pacingResponses(acts), ...tensionPlateauResponses(sm, o), ...deferResponses(end, o)],
    },
  };
}
