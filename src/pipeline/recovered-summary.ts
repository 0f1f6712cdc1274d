import fs from 'node:fs';
import path from 'node:path';
import { episodeRef } from '../domain/context.js';
import type { VerifierReport } from '../domain/scene.js';
import { episodeRelDir } from '../paths.js';
import { createGit } from '../git/adapter.js';
import type { EpisodeRunSummary } from './run-episode.js';
import { findingCounts } from './run-summary.js';
import type { CommitResult } from './transaction.js';
import { clearReview, readReview } from './review-state.js';

/**
 * The summary of an episode whose interrupted commit was just rolled forward: read back from the
 * commit (subject and Aureus-* trailers) and its verifier report, since the run that made it is gone.
 */
export async function recoveredSummary(root: string, commit: string, tag: string): Promise<EpisodeRunSummary> {
  const message = await createGit(root).message(commit);
  const subject = message.split('\n')[0];
  const id = episodeOfTag(tag);
  const trailer = (k: string) => new RegExp(`^Aureus-${k}: (.*)$`, 'm').exec(message)?.[1] ?? '';
  const cost = Number(trailer('Cost').replace('$', '')) || 0;
  const ref = episodeRef(Number(id.slice(1, 3)), Number(id.slice(4, 6)));
  let report: VerifierReport | null = null;
  try {
    report = JSON.parse(fs.readFileSync(path.join(root, episodeRelDir(ref), 'verifier_report.json'), 'utf8')) as VerifierReport;
  } catch {
    /* summary without verifier figures */
  }
  const tokens = /input (\d+), output (\d+), cache read (\d+), cache write (\d+)/.exec(trailer('Tokens'));
  return {
    status: 'recovered',
    episode: ref.id,
    title: subject.replace(/^S\d+E\d+: /, ''),
    seed: trailer('Seed'),
    provider: trailer('Provider'),
    scenes: report?.scenes.length ?? 0,
    approved: report?.scenes.filter((s) => s.final_verdict === 'PASS').length ?? 0,
    attempts: report?.scenes.reduce((n, s) => n + s.attempts.length, 0) ?? 0,
    repairs: report?.budget.used ?? 0,
    manual_review: report?.scenes.filter((s) => s.manual_review).length ?? 0,
    findings: report ? findingCounts(report) : { hard: 0, soft: 0, repaired: { hard: 0, soft: 0 } },
    tokens: { input: Number(tokens?.[1] ?? 0), output: Number(tokens?.[2] ?? 0), cache_read: Number(tokens?.[3] ?? 0), cache_write: Number(tokens?.[4] ?? 0) },
    cost_usd: cost,
    // The commit keeps no `cached` flag: a commit finished by a later run is counted as charged.
    charged_usd: cost,
    cached: { answers: 0, cost_usd: 0 },
    commit,
    tag,
    script: path.posix.join(episodeRelDir(ref), 'episode_script.md'),
    run_dir: '',
    resumed: { planning: true, scenes: report?.scenes.length ?? 0, calls_replayed: 0 },
  };
}

/** The tag's episode id (`s01e01`, also of a branch's `<branch>/s01e01`). */
export const episodeOfTag = (tag: string): string => tag.split('/').pop() ?? tag;

/**
 * The rolled-forward commit that answers this run: the last one when no episode was asked for,
 * else the asked episode's (of the asked season, or of any when none was given). A play
 * canonization's never does: it is no episode, and the run goes on to compile the one it was for.
 */
export function recoveredFor(all: CommitResult[], o: { season?: number; episode?: number }): CommitResult | undefined {
  const results = all.filter((r) => r.play === undefined);
  if (o.episode === undefined) return results[results.length - 1];
  return results.find((r) => {
    const m = /^s(\d+)e(\d+)$/.exec(episodeOfTag(r.tag));
    return m !== null && Number(m[2]) === o.episode && (o.season === undefined || Number(m[1]) === o.season);
  });
}

/** The staged review of an episode its recovered commit committed is over (its run folder is gone). */
export function clearReviewOf(root: string, episode: string): void {
  if (readReview(root)?.episode === episode) clearReview(root);
}
