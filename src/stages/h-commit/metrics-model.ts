/** episode_metrics.json (spec §10): per-act drama metrics and the per-scene tension curve. */
export interface ActMetrics {
  act: number;
  scenes: string[];
  tension: number; // 0..10, mean of the act's scene tensions
  pacing: number; // 0..10
  volatility: number; // 0..10
  meaningful_deltas: number;
}

export interface EpisodeMetrics {
  format: 1;
  episode_id: string;
  acts: ActMetrics[];
  tension_curve: { scene: string; act: number; tension: number }[];
  episode: { tension: number; pacing: number; volatility: number; tension_end: number };
}
