import type { ActMetrics, EpisodeMetricsSummary, SceneMetrics } from '../../core/metrics.js';
import type { DramaResponse } from '../../domain/plan.js';

/**
 * episode_metrics.json (spec §10): the core's metrics (src/core/metrics.ts, docs/metrics.md) of
 * what was actually committed — per scene, per act, for the episode — and the tension curve.
 */
export interface EpisodeMetrics {
  format: 1;
  episode_id: string;
  scenes: SceneMetrics[];
  acts: ActMetrics[];
  episode: EpisodeMetricsSummary;
  tension_curve: { scene: string; act: number; tension: number }[];
  /** The §10.2 conditions the committed episode shows (for the next plan and the showrunner). */
  responses: DramaResponse[];
}
