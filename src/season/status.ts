import path from 'node:path';
import { episodeRelDir } from '../paths.js';
import type { World } from '../domain/world.js';
import type { EpisodeMetrics } from '../stages/h-commit/metrics-model.js';
import { round } from '../core/json.js';
import { aucYear, formatDate } from '../core/roman-date.js';
import { formatValue, plural, roundForReader } from '../core/readable.js';
import { committedEpisodes, nextEpisode } from './episodes.js';
import { pendingCommitJournals } from '../pipeline/transaction.js';
import { playCanonization, playFinish } from '../pipeline/commit-journal.js';
import { parseEpisodeId } from './episode-id.js';
import { episodeRef, type EpisodeRef } from '../domain/context.js';
import { readWorldAt } from './world-at.js';
import { readJsonFileSafe } from '../store/read.js';
import { createGit } from '../git/adapter.js';
import { compareText } from '../core/text-order.js';
import { interruptedRollback } from './rollback-journal.js';
import { finishCommand, halfMadeBranch } from './branch-journal.js';
import { renderReviewStatus, statusOfReview, type StagedForReview } from './status-review.js';

/** `aureus status`: the showrunner's dashboard, computed from the working tree and the tags. */
export interface SeasonStatus {
  date: { year_bc: number; month: number; day: number; text: string };
  branch: string | null;
  committed: { id: string; tag: string; commit: string; title: string; tension: number | null }[];
  next_episode: string;
  /** An episode whose commit was interrupted: the next `episode run` or `episode commit` (which ran it) finishes it first. */
  pending_commit: string | null;
  /** The tags (`play/<session>/<n>`) of play canonizations whose commit was interrupted: finished by the next `play --resume <session>` or `episode run`. */
  pending_canonizations: string[];
  /** The episode a rollback a kill cut was rolling back (its journal left): `aureus rollback <it>` finishes it. */
  interrupted_rollback: string | null;
  /** A what-if branch a kill left half made (`branch --set` cut off before its commit), and the command that finishes it. */
  half_made_branch: { branch: string; from: string; finish: string } | null;
  /** The episode staged for review (`episode run --review`), or null: status-review.ts. */
  staged_for_review: StagedForReview | null;
  metrics: { id: string; label: string; value: number; min: number; max: number }[];
  threads: { id: string; question: string; status: string; progress: number; last_progress_episode: number; episodes_since_progress: number; cadence: number; cadence_status: 'ok' | 'due' | 'overdue' | 'resolved' | 'dormant' }[];
  principals: { id: string; name: string; faction: string; status: string; location: string; denarii: number; dignitas: number; auctoritas: number; fama: number; standing: number }[];
  tension_sparkline: string;
}

const BARS = '▁▂▃▄▅▆▇█';

export function sparkline(values: number[], min = 0, max = 10): string {
  return values.map((v) => BARS[Math.max(0, Math.min(BARS.length - 1, Math.round(((v - min) / (max - min || 1)) * (BARS.length - 1))))]).join('');
}

/** Standing: the mean of dignitas, auctoritas and fama (0..100) — the Roman measure of a man. */
function standing(stats: Record<string, number>): number {
  return round(((stats.dignitas ?? 0) + (stats.auctoritas ?? 0) + (stats.fama ?? 0)) / 3, 1);
}

export async function seasonStatus(root: string): Promise<SeasonStatus> {
  const journals = pendingCommitJournals(root);
  // A rollback a kill cut may have half moved the work tree: the world is read as HEAD has it.
  const rollback = interruptedRollback(root);
  // An interrupted commit may have written its world files (or made its commit, untagged): they are
  // not committed yet, so the world is read as it was before that commit began, as the episodes
  // listed (the tags) say. Otherwise the working tree's.
  const world: World = await readWorldAt(root, journals[0]?.head_before ?? (rollback ? await createGit(root).head() : null));
  const refs = journals.map((j) => parseEpisodeId(j.episode)).filter((r): r is EpisodeRef => r !== null);
  // An interrupted commit is finished by the next run before anything else: the episode after it is next.
  const pending = refs.at(-1) ?? null;
  // Episodes since progress are counted to the episode the world is of: before the first pending one.
  const asOf = journals[0]?.head_before && refs[0] ? refs[0] : null;
  const inTree = nextEpisode(root);
  const next = pending && (pending.season > inTree.season || (pending.season === inTree.season && pending.episode >= inTree.episode)) ? episodeRef(pending.season, pending.episode + 1) : inTree;
  const committed = await committedEpisodes(root);
  const half = await halfMadeBranch(root);
  const rows = committed.map((c) => {
    // Through the store's reader: a FIFO here hung status as one among the world files did. An
    // episode without readable metrics shows a gap, one without a plan is untitled.
    const metrics = readJsonFileSafe(path.join(root, episodeRelDir(c.ref), 'episode_metrics.json'), 'episode_metrics.json');
    const plan = readJsonFileSafe(path.join(root, episodeRelDir(c.ref), 'episode_plan.json'), 'episode_plan.json');
    const tension = (metrics.value as Partial<EpisodeMetrics> | undefined)?.episode?.tension;
    const title = (plan.value as { title?: unknown } | undefined)?.title;
    return { id: c.ref.id, tag: c.tag, commit: c.commit, title: typeof title === 'string' ? title : '', tension: typeof tension === 'number' ? tension : null };
  });
  const d = world.world.date;
  const ledger = new Map(world.assets.cash_ledger.map((a) => [a.id, a.denarii]));
  return {
    date: { ...d, text: `${formatDate(d)}, ${aucYear(d.year_bc)} a.u.c.` },
    branch: await createGit(root).currentBranch(),
    committed: rows,
    next_episode: next.id,
    pending_commit: pending?.id ?? null,
    interrupted_rollback: rollback?.episode ?? null,
    half_made_branch: half ? { branch: half.branch, from: half.label, finish: finishCommand(half) } : null,
    pending_canonizations: journals.filter((j) => playCanonization(j.episode)).map((j) => j.episode),
    staged_for_review: await statusOfReview(root, journals.map((j) => j.episode)),
    metrics: Object.entries(world.world.global)
      .sort((a, b) => compareText(a[0], b[0]))
      .map(([id, m]) => ({ id, label: m.label, value: round(m.value), min: m.min, max: m.max })),
    threads: world.threads.threads.map((t) => {
      const since = Math.max(0, (asOf ?? next).episode - 1 - t.last_progress_episode);
      return {
        id: t.id,
        question: t.question,
        status: t.status,
        progress: round(t.progress),
        last_progress_episode: t.last_progress_episode,
        episodes_since_progress: since,
        cadence: t.cadence,
        cadence_status: t.status === 'resolved' ? 'resolved' : t.status === 'dormant' ? 'dormant' : since > t.cadence ? 'overdue' : since === t.cadence ? 'due' : 'ok',
      };
    }),
    principals: world.characters.characters
      .filter((c) => c.principal)
      .map((c) => ({
        id: c.id,
        name: c.name,
        faction: c.faction,
        status: c.status,
        location: c.location,
        denarii: ledger.get(c.id) ?? 0,
        dignitas: c.stats.dignitas,
        auctoritas: c.stats.auctoritas,
        fama: c.stats.fama,
        standing: standing(c.stats as unknown as Record<string, number>),
      }))
      .sort((a, b) => b.standing - a.standing || compareText(a.id, b.id)),
    tension_sparkline: sparkline(rows.map((r) => r.tension ?? 0)),
  };
}

export function renderStatus(s: SeasonStatus, c: { bold: (t: string) => string; dim: (t: string) => string; red: (t: string) => string; yellow: (t: string) => string; green: (t: string) => string }): string {
  const out: string[] = [];
  out.push(`${c.bold('Date')}      ${s.date.text}`);
  out.push(`${c.bold('Branch')}    ${s.branch ?? '(detached)'}`);
  out.push(`${c.bold('Episodes')}  ${s.committed.length ? s.committed.map((e) => e.tag).join(' ') : 'none committed yet'}   next: ${s.next_episode}`);
  if (s.pending_commit) out.push(`          ${c.yellow(`the commit of ${s.pending_commit} was interrupted: the next \`aureus episode run\` or \`aureus episode commit\` finishes it first; the world below is as last committed`)}`);
  if (s.half_made_branch) out.push(`          ${c.yellow(`branch ${s.half_made_branch.branch} is half made: its \`branch --set\` was cut off before its what-if change was committed, so it is ${s.half_made_branch.from} without it; \`${s.half_made_branch.finish}\` finishes it`)}`);
  if (s.interrupted_rollback) out.push(`          ${c.yellow(`the rollback of ${s.interrupted_rollback} was interrupted: \`aureus rollback ${s.interrupted_rollback}\` finishes it; the world below is as HEAD has it, the episodes and tags may be half rolled back`)}`);
  for (const tag of s.pending_canonizations) {
    const play = playCanonization(tag)!;
    out.push(`          ${c.yellow(`canonization ${play.n} of play session ${play.session} was interrupted: ${playFinish(play.session)} finishes it first; the world below is as last committed`)}`);
  }
  if (s.staged_for_review) out.push(...renderReviewStatus(s.staged_for_review, c));
  if (s.committed.length) out.push(`${c.bold('Tension')}   ${s.tension_sparkline}  ${c.dim(s.committed.map((e) => formatValue(e.tension ?? 0, 'metric')).join(' '))}`);
  out.push('', c.bold('Rome'));
  // The metric id is the short name (labels are sentences and would push the values out of line);
  // the label follows, dimmed, after the range.
  const idWidth = Math.max(0, ...s.metrics.map((m) => m.id.length));
  for (const m of s.metrics) out.push(`  ${m.id.padEnd(idWidth)} ${formatValue(m.value, 'metric').padStart(8)}  ${c.dim(`(${m.min}..${m.max})  ${m.label}`)}`);
  out.push('', c.bold('Threads'));
  for (const t of s.threads) {
    const tag = t.cadence_status === 'overdue' ? c.red('overdue') : t.cadence_status === 'due' ? c.yellow('due') : t.cadence_status === 'ok' ? c.green('ok') : c.dim(t.cadence_status);
    out.push(`  ${tag.padEnd(8)} ${String(roundForReader(t.progress * 100, 0)).padStart(3)}%  ${t.question} ${c.dim(`(${sinceProgress(t)})`)}`);
  }
  out.push('', c.bold('Principals'));
  for (const p of s.principals) {
    out.push(`  ${p.name.padEnd(28)} ${p.status.padEnd(10)} standing ${formatValue(p.standing, 'stat').padStart(5)}  ${p.denarii.toLocaleString('en-US').padStart(12)} den.  ${c.dim(p.location)}`);
  }
  return out.join('\n') + '\n';
}

/**
 * How long a thread has gone without progress, against its cadence: "3 episodes since progress, due
 * every 2" (was "3/2", a fraction no count can reach). A resolved or dormant thread has no cadence
 * to keep: when it last moved.
 */
function sinceProgress(t: SeasonStatus['threads'][number]): string {
  if (t.cadence_status === 'resolved' || t.cadence_status === 'dormant') return t.last_progress_episode ? `last progress in episode ${t.last_progress_episode}` : 'no progress yet';
  const n = t.episodes_since_progress;
  return `${n} ${plural(n, 'episode')} since progress, due every ${t.cadence}`;
}
