import path from 'node:path';
import { episodeRelDir } from '../paths.js';
import { ENTITY_DIFF_CONFIG } from '../git/attributes.js';
import { tagNameFor } from '../season/episodes.js';
import { commitEpisode, stageFiles } from './transaction.js';
import { round } from '../core/json.js';
import { reviewCommitted, type EpisodeRunSummary, type StageHCheckpoint } from './run-summary.js';
import type { Run } from './run-state.js';

/** Stage the files (--no-commit) or commit and tag them through the journaled transaction. */
export async function commitStep(run: Run, h: StageHCheckpoint, resumed: { planning: boolean; scenes: number }): Promise<EpisodeRunSummary> {
  const { ref, runRel } = run;
  const base = {
    episode: ref.id,
    title: h.title,
    seed: run.seed,
    provider: h.provider,
    scenes: h.report.scenes,
    approved: h.report.approved,
    attempts: h.report.attempts,
    repairs: h.report.repairs,
    manual_review: h.report.manual_review,
    // A checkpoint written before `repaired` was counted has none: 0.
    findings: { hard: h.report.hard, soft: h.report.soft, repaired: h.report.repaired ?? { hard: 0, soft: 0 } },
    tokens: { input: h.totals.input, output: h.totals.output, cache_read: h.totals.cache_read, cache_write: h.totals.cache_write },
    cost_usd: h.totals.cost_usd,
    charged_usd: round(h.totals.cost_usd - (h.cached?.cost_usd ?? 0), 6),
    cached: h.cached ?? { answers: 0, cost_usd: 0 },
    run_dir: runRel,
    resumed: { ...resumed, calls_replayed: run.llm.replayed },
  };
  const scriptRel = path.posix.join(episodeRelDir(ref), 'episode_script.md');
  if (run.o.noCommit) {
    stageFiles(run.runDir, h.files);
    const staged = await import('./staged.js');
    staged.recordStaged(run.root, { ref, seed: run.seed, runRel, steering: run.o.steering ?? null, warnings: run.warnings });
    run.progress.stage('commit', 'skipped', '--no-commit');
    return { ...base, status: 'staged', commit: null, tag: null, script: path.posix.join(runRel, 'stage', scriptRel) };
  }
  run.where = 'commit';
  run.check();
  run.progress.stage('commit', 'running');
  // The entity diff driver lives in .git/config, which clones lose: set it again (idempotent). The
  // git queries are independent: they run together. The run's batch port answers the ref
  // questions (the tag, HEAD before and after) from its one process, and the config query also
  // answers the identity question the commit and the tag need (issue 18).
  // The config is set while the commit stages its files; it is in place before the journal is written.
  const { git } = run;
  const configured = git.setConfig(ENTITY_DIFF_CONFIG);
  configured.catch(() => undefined); // awaited by commitEpisode
  const tag = await tagNameFor(run.root, ref, git);
  // A staged episode's review trailers, whichever command commits it (staged.ts reviewTrailers).
  const reviewed = (await import('./staged.js')).reviewTrailers(run.root, { ref, runRel, seed: run.seed }, run.warnings);
  const trailers = reviewed?.trailers ?? [];
  // The review record is cleared by the transaction itself, before its journal goes (transaction.ts).
  const committed = await commitEpisode(run.root, run.runDir, { episode: ref.id, tag, message: h.message + trailers.map((t) => `${t}\n`).join(''), files: h.files }, { git, ready: configured });
  reviewCommitted(run.warnings, run.review, episodeRelDir(ref));
  run.progress.stage('commit', 'done', `${committed.commit.slice(0, 10)} ${committed.tag}`);
  return { ...base, status: 'committed', commit: committed.commit, tag: committed.tag, script: scriptRel, ...(reviewed ? { reviewed: reviewed.reviewed } : {}) };
}
