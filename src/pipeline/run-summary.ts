import type { VerifierReport } from '../domain/scene.js';

/** What `episode run` reports (and `--json` prints), also rebuilt from a commit a crash interrupted. */
export interface EpisodeRunSummary {
  status: 'committed' | 'staged' | 'recovered';
  episode: string;
  title: string;
  seed: string;
  provider: string;
  scenes: number;
  approved: number;
  attempts: number;
  repairs: number;
  manual_review: number;
  findings: { hard: number; soft: number };
  tokens: { input: number; output: number; cache_read: number; cache_write: number };
  cost_usd: number;
  commit: string | null;
  tag: string | null;
  script: string;
  run_dir: string;
  resumed: { planning: boolean; scenes: number; calls_replayed: number };
}

/** The stage H checkpoint: the episode's files and commit message, ready for the transaction. */
export interface StageHCheckpoint {
  files: Record<string, string>;
  message: string;
  title: string;
  provider: string;
  totals: { input: number; output: number; cache_read: number; cache_write: number; cost_usd: number };
  report: { scenes: number; approved: number; attempts: number; repairs: number; manual_review: number; hard: number; soft: number };
}
