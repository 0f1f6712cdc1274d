import path from 'node:path';
import type { VerifierReport } from '../domain/scene.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import type { ReviewChanges } from './review-state.js';

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
  /** What the final drafts and the episode checks still find; `repaired`: what earlier drafts had, fixed by repair. */
  findings: FindingCounts;
  tokens: { input: number; output: number; cache_read: number; cache_write: number };
  /** What the episode's calls cost, as its commit records it: cached answers at their recorded price. */
  cost_usd: number;
  /** What this run was charged: cost_usd without the cached answers. */
  charged_usd: number;
  /** The answers that came from the response cache (no request made) and what they cost when recorded. */
  cached: CachedAnswers;
  commit: string | null;
  tag: string | null;
  script: string;
  run_dir: string;
  resumed: { planning: boolean; scenes: number; calls_replayed: number };
  /** A committed episode that was staged for review: the scenes its Aureus-Edited, -Rewritten and -Pinned trailers name. */
  reviewed?: ReviewChanges;
}

/** The stage H checkpoint: the episode's files and commit message, ready for the transaction. */
export interface StageHCheckpoint {
  files: Record<string, string>;
  message: string;
  title: string;
  provider: string;
  totals: { input: number; output: number; cache_read: number; cache_write: number; cost_usd: number };
  report: { scenes: number; approved: number; attempts: number; repairs: number; manual_review: number; hard: number; soft: number; repaired?: { hard: number; soft: number } };
  /** The answers from the response cache (none in an older checkpoint). */
  cached?: CachedAnswers;
  /** The recap's warnings (AUR4211: its text cleaned of control characters); none in an older checkpoint. */
  warnings?: Diagnostic[];
}

export interface CachedAnswers {
  answers: number;
  cost_usd: number;
}

export interface FindingCounts {
  hard: number;
  soft: number;
  repaired: { hard: number; soft: number };
}

/**
 * The findings a summary reports: those of each scene's final draft and the episode's own checks,
 * apart from those of superseded drafts. Counted together, an episode whose every scene was
 * approved read "1 hard" for a draft that repair had already replaced.
 */
export function findingCounts(report: VerifierReport): FindingCounts {
  const count = (fs: { severity: string }[]) => ({ hard: fs.filter((f) => f.severity === 'hard').length, soft: fs.filter((f) => f.severity === 'soft').length });
  const final = [...report.scenes.flatMap((s) => s.attempts.at(-1)?.findings ?? []), ...report.episode_findings];
  return { ...count(final), repaired: count(report.scenes.flatMap((s) => s.attempts.slice(0, -1).flatMap((a) => a.findings))) };
}

/**
 * AUR5097 for the scenes the critic still failed once their budget was spent, committed for manual
 * review (issue 13), naming the report in `reportDir` (repository-relative); none without such
 * scenes. The folder is the one that still holds it when the warning is read: the run folder's
 * until the commit, which deletes that folder, the episode folder's once committed
 * (`reviewCommitted`). Said by the run and, from the E–G checkpoint its run folder keeps, by the
 * roll-forward of its interrupted commit.
 */
export function manualReviewWarnings(report: VerifierReport, reportDir: string): Diagnostic[] {
  const scenes = report.manual_review ?? report.scenes.filter((s) => s.manual_review).map((s) => s.scene);
  return scenes.length ? [diag('AUR5097', { count: scenes.length, scenes: `${scenes.join(', ')} (${path.posix.join(reportDir, 'verifier_report.json')})` })] : [];
}

/** A run's AUR5097 and the report it was built from: what `reviewCommitted` renames. */
export interface SaidReview {
  warning: Diagnostic;
  report: VerifierReport;
}

/** Adds the run's AUR5097, naming its run folder's report (`runRel`), to its warnings; null without one. */
export function sayReview(warnings: Diagnostic[], report: VerifierReport, runRel: string): SaidReview | null {
  const [warning] = manualReviewWarnings(report, runRel);
  if (!warning) return null;
  warnings.push(warning);
  return { warning, report };
}

/**
 * A run's AUR5097 once its episode is committed: the commit deleted the run folder the warning
 * named, so it names the committed copy in the episode folder instead, in its place among the
 * run's warnings (a season's list holds earlier episodes' too: the run's own is found by identity).
 */
export function reviewCommitted(warnings: Diagnostic[], said: SaidReview | null, episodeDir: string): void {
  const at = said ? warnings.indexOf(said.warning) : -1;
  if (said && at >= 0) warnings.splice(at, 1, ...manualReviewWarnings(said.report, episodeDir));
}
