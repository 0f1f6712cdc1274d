import fs from 'node:fs';
import path from 'node:path';
import { episodeRef } from '../domain/context.js';
import { episodeRelDir } from '../paths.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { createGit } from '../git/adapter.js';
import { committedEpisodes, findCommittedEpisode, type CommittedEpisode } from '../season/episodes.js';
import { journalPath } from './commit-journal.js';
import { clearReview, type ReviewState } from './review-state.js';

/**
 * A review record whose episode is committed already: what a kill left when it came after the
 * commit's journal was removed and before the record was (an older aureus removed them in that
 * order; transaction.ts now clears the record first). Read as "staged", such a record sent the
 * user to `episode commit` (AUR6009 and a hint to roll the episode back) and refused every run
 * (AUR6102). It is the record's own episode, tagged in the current history at a commit of the
 * record's seed, and its run folder holds no journal (one that does is an interrupted commit, which
 * the next run finishes). Null for a record of an episode still to be committed.
 */
export async function committedReview(root: string, r: ReviewState): Promise<CommittedEpisode | null> {
  const ref = episodeRef(r.season, r.episode_number);
  // Asked of the files first: a staged episode's folder is only under its run's stage/ until it is committed.
  if (!fs.existsSync(path.join(root, episodeRelDir(ref), 'cliffhanger_constraints.json'))) return null;
  if (fs.existsSync(journalPath(path.join(root, r.run_dir)))) return null;
  const found = await findCommittedEpisode(root, ref);
  if (!found) return null;
  const seed = /^Aureus-Seed: (.*)$/m.exec(await createGit(root).message(found.commit))?.[1];
  return seed === r.seed ? found : null;
}

/**
 * The review of a committed episode is over: the record, the copy its run folder keeps and what is
 * left of that folder (the commit removes it; a kill left part of it) go. Holding the lock.
 */
export function dropCommittedReview(root: string, r: ReviewState): void {
  clearReview(root, r.run_dir);
  fs.rmSync(path.join(root, r.run_dir), { recursive: true, force: true });
}

/** AUR6116 (info): what was left of the committed episode's review, removed. */
export function committedReviewNote(r: ReviewState, found: CommittedEpisode): Diagnostic {
  return diag('AUR6116', { episode: r.episode, commit: found.commit.slice(0, 10), tag: found.tag, run_dir: r.run_dir });
}

/**
 * With nothing staged for review, the last committed episode and whether `episode commit` made it
 * (its commit carries `Aureus-Reviewed: yes`, pipeline/staged.ts reviewTrailers). `episode commit`
 * run again after one that a kill stopped once its commit was made (journal and record gone) finds
 * its episode so: answered as done (AUR6117, exit 0), as a re-run of an interrupted command should
 * be. An episode committed by a plain run was never staged: `episode commit` then is a mistake (AUR6009).
 */
export async function lastCommittedEpisode(root: string): Promise<{ last: CommittedEpisode; reviewed: boolean } | null> {
  const last = (await committedEpisodes(root)).at(-1);
  if (!last) return null;
  const reviewed = /^Aureus-Reviewed: yes$/m.test(await createGit(root).message(last.commit));
  return { last, reviewed };
}

/** AUR6117 (info): `episode commit` found its episode committed already, nothing staged. */
export function alreadyCommittedNote(last: CommittedEpisode): Diagnostic {
  return diag('AUR6117', { episode: last.ref.id, commit: last.commit.slice(0, 10), tag: last.tag });
}
