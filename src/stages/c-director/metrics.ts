import type { AppliedDelta } from '../../domain/delta.js';
import type { DramaResponse } from '../../domain/plan.js';
import type { World } from '../../domain/world.js';
import { actMetrics, expectedDeltasPerScene, pacingResponses, sceneMetrics, tensionPlateauResponses, threadsToDefer, type MetricsOptions, type SceneMetrics } from '../../core/metrics.js';

/**
 * The drama metrics the Director steers by while planning (spec §10), computed with the core's
 * definitions (src/core/metrics.ts, docs/metrics.md) so the plan and episode_metrics.json agree.
 * Tension itself is core/tension.ts's, read from there by stages A and D too.
 */

/** Incremental §10.2 bookkeeping over the scenes planned so far. */
export class DramaTracker {
  readonly scenes: SceneMetrics[] = [];
  /** Fixed on the first scene: pacing's expectation comes from the episode's world (its operator catalog). */
  private options: MetricsOptions | undefined;

  addScene(scene: string, act: number, before: World, after: World, applied: readonly AppliedDelta[], tags: readonly string[]): void {
    this.options ??= { expectedDeltasPerScene: expectedDeltasPerScene(before) };
    this.scenes.push(sceneMetrics({ scene, act, before, after, applied, tags }, this.options));
  }

  /** A tension plateau whose third scene is `scene` (core: flat to one decimal for 3+ scenes). */
  plateauAt(scene: string): DramaResponse | undefined {
    return tensionPlateauResponses(this.scenes, this.options).find((r) => r.at === scene);
  }

  /** Pacing below 4 in the last two completed acts (core pacingResponses), if that pair ends at `act`. */
  pacingLowEndingAt(act: number): DramaResponse | undefined {
    return pacingResponses(actMetrics(this.scenes, this.options)).find((r) => r.at === `act ${act}`);
  }

  pacing(): number[] {
    return actMetrics(this.scenes, this.options).map((a) => a.pacing);
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

/**
 * Pacing (0..10) of an act, as the core defines it: 10 x meaningful / (scenes x expected deltas
 * per scene). Pass the world's expectedDeltasPerScene (core/metrics.ts) as `perScene`.
 */
export function actPacing(meaningful: number, scenes: number, perScene: number): number {
  return Math.round(Math.min(10, Math.max(0, (10 * meaningful) / Math.max(1e-9, scenes * perScene))) * 100) / 100;
}
