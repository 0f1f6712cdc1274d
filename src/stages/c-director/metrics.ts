import type { AppliedDelta } from '../../domain/delta.js';
import type { DramaResponse } from '../../domain/plan.js';
import type { World } from '../../domain/world.js';
import { actMetrics, pacingResponses, sceneMetrics, tension, tensionPlateauResponses, threadsToDefer, type SceneMetrics } from '../../core/metrics.js';

/**
 * The drama metrics the Director steers by while planning (spec §10), computed with the core's
 * definitions (src/core/metrics.ts, docs/metrics.md) so the plan and episode_metrics.json agree.
 */
export const snapshotTension = (world: World): number => tension(world);

/** Incremental §10.2 bookkeeping over the scenes planned so far. */
export class DramaTracker {
  readonly scenes: SceneMetrics[] = [];

  addScene(scene: string, act: number, before: World, after: World, applied: readonly AppliedDelta[], tags: readonly string[]): void {
    this.scenes.push(sceneMetrics({ scene, act, before, after, applied, tags }));
  }

  /** A tension plateau whose third scene is `scene` (core: flat to one decimal for 3+ scenes). */
  plateauAt(scene: string): DramaResponse | undefined {
    return tensionPlateauResponses(this.scenes).find((r) => r.at === scene);
  }

  /** Pacing below 4 in the last two completed acts (core pacingResponses), if that pair ends at `act`. */
  pacingLowEndingAt(act: number): DramaResponse | undefined {
    return pacingResponses(actMetrics(this.scenes)).find((r) => r.at === `act ${act}`);
  }

  pacing(): number[] {
    return actMetrics(this.scenes).map((a) => a.pacing);
  }
}

/** Threads to defer on this state (core: more than 2 near resolution → defer all but 2). */
export const threadsToDeferNow = (world: World): string[] => threadsToDefer(world).map((t) => t.id);

/**
 * Kept for stage H (src/stages/h-commit/metrics.ts): a delta that changed something the audience
 * sees (not thread bookkeeping or a walk across town). The Director itself counts meaningful
 * deltas with the core's range-aware definition (core/metrics.ts isMeaningful).
 */
export function isMeaningful(d: AppliedDelta): boolean {
  if (/^threads\.[a-z0-9_]+\.(progress|last_progress_episode)$/.test(d.path)) return false;
  if (/^characters\.[a-z0-9_]+\.location$/.test(d.path)) return false;
  return JSON.stringify(d.before) !== JSON.stringify(d.after);
}

/** The core's expected meaningful deltas per act (core/metrics.ts MetricsOptions default). */
export const EXPECTED_DELTAS_PER_ACT = 8;

/** Pacing (0..10) of an act, as the core defines it; `applications` is accepted for older callers and unused. */
export function actPacing(meaningful: number, _applications?: number): number {
  return Math.round(Math.min(10, Math.max(0, (10 * meaningful) / EXPECTED_DELTAS_PER_ACT)) * 100) / 100;
}
