import fs from 'node:fs';
import path from 'node:path';
import { episodeRef, type EpisodeRef } from '../domain/context.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { episodeRelDir, seasonDirName } from '../paths.js';
import { createGit } from '../git/adapter.js';
import type { GitPort } from '../git/port.js';
import { parseEpisodeId } from './episode-id.js';

/**
 * Where the committed episodes are. An episode's tag is its id ("s01e03"); when that name is
 * taken by another line of history (a what-if branch made with `aureus branch`, or a rolled-back
 * episode), the tag is "<branch>/s01e03". Looking an episode up always prefers the tag that is in
 * the current branch's history.
 */
export interface CommittedEpisode {
  ref: EpisodeRef;
  tag: string;
  commit: string;
}

/** Episode folders present in the working tree (committed or not), in order. */
export function episodesInTree(root: string): EpisodeRef[] {
  const out: EpisodeRef[] = [];
  const seasonsDir = path.join(root, 'seasons');
  let seasons: string[] = [];
  try {
    seasons = fs.readdirSync(seasonsDir).filter((d) => /^season_\d{2}$/.test(d)).sort();
  } catch {
    return out;
  }
  for (const s of seasons) {
    const season = Number(s.slice(7));
    let eps: string[] = [];
    try {
      eps = fs.readdirSync(path.join(seasonsDir, s)).filter((d) => /^episode_\d{2}$/.test(d)).sort();
    } catch {
      continue;
    }
    for (const e of eps) {
      const ref = episodeRef(season, Number(e.slice(8)));
      // An episode is there when its closing artifact is: stage H writes it.
      if (fs.existsSync(path.join(root, episodeRelDir(ref), 'cliffhanger_constraints.json'))) out.push(ref);
    }
  }
  return out;
}

/** The episode `episode run` compiles by default: the one after the last in the given season. */
export function nextEpisode(root: string, season?: number): EpisodeRef {
  const all = episodesInTree(root);
  const s = season ?? (all.length ? all[all.length - 1].season : 1);
  const inSeason = all.filter((r) => r.season === s);
  const last = inSeason.length ? inSeason[inSeason.length - 1].episode : 0;
  return episodeRef(s, last + 1);
}

/** The previous episode of a season (null for episode 1). */
export function previousEpisode(ref: EpisodeRef): EpisodeRef | null {
  return ref.episode > 1 ? episodeRef(ref.season, ref.episode - 1) : null;
}

export function seasonExists(root: string, season: number): boolean {
  return fs.existsSync(path.join(root, 'seasons', seasonDirName(season)));
}

/** Every tag naming this episode: "s01e03" and "<branch>/s01e03". */
async function tagsFor(root: string, ref: EpisodeRef): Promise<string[]> {
  const git = createGit(root);
  const all = await git.tags(`*${ref.id}`);
  return all.filter((t) => t === ref.id || (t.endsWith(`/${ref.id}`) && !t.startsWith('rolledback/')));
}

/** Is the episode's folder there (a rolled-back episode's commit stays in history, its folder does not). */
function folderPresent(root: string, ref: EpisodeRef): boolean {
  return fs.existsSync(path.join(root, episodeRelDir(ref), 'cliffhanger_constraints.json'));
}

/** The committed episode in the current history, or null. */
export async function findCommittedEpisode(root: string, ref: EpisodeRef): Promise<CommittedEpisode | null> {
  const git = createGit(root);
  const head = await git.head();
  if (!folderPresent(root, ref)) return null;
  for (const tag of await tagsFor(root, ref)) {
    const commit = await git.resolve(`refs/tags/${tag}`);
    if (commit && head && (await git.isAncestor(commit, head))) return { ref, tag, commit };
  }
  return null;
}

/** The tag name a new commit of this episode gets on the current branch (asked through `git`, e.g. a batch port). */
export async function tagNameFor(root: string, ref: EpisodeRef, git: GitPort = createGit(root)): Promise<string> {
  if ((await git.resolve(`refs/tags/${ref.id}`)) === null) return ref.id;
  const branch = (await git.currentBranch()) ?? 'detached';
  return `${branch}/${ref.id}`;
}

/** Committed episodes reachable from HEAD, in episode order. */
export async function committedEpisodes(root: string): Promise<CommittedEpisode[]> {
  const git = createGit(root);
  const head = await git.head();
  if (!head) return [];
  const tags = await git.tags('*');
  const out = new Map<string, CommittedEpisode>();
  for (const tag of tags) {
    if (tag.startsWith('rolledback/')) continue;
    const ref = parseEpisodeId(tag.split('/').pop() ?? '');
    if (!ref || out.has(ref.id) || !folderPresent(root, ref)) continue;
    const commit = await git.resolve(`refs/tags/${tag}`);
    if (commit && (await git.isAncestor(commit, head))) out.set(ref.id, { ref, tag, commit });
  }
  return [...out.values()].sort((a, b) => a.ref.season - b.ref.season || a.ref.episode - b.ref.episode);
}

/**
 * Resolve what a user typed for `diff`/`export`/`recap`: an episode id (through its tag) or, for
 * `diff`, any git ref. Refs starting with "-" are refused so they can never become options.
 */
export async function resolveEpisodeOrRef(root: string, value: string, allowRef: boolean): Promise<{ commit: string; label: string; ref: EpisodeRef | null }> {
  const git = createGit(root);
  const ep = parseEpisodeId(value);
  if (ep) {
    const c = await findCommittedEpisode(root, ep);
    if (c) return { commit: c.commit, label: c.tag, ref: ep };
    if (!allowRef) {
      throw new AureusError(`episode ${ep.id} has not been committed`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6006', { episode: ep.id, tag: ep.id })] });
    }
  }
  if (allowRef && !value.startsWith('-') && /^[A-Za-z0-9._/@{}~^-]+$/.test(value) && !value.includes('..')) {
    const commit = await git.resolve(value);
    if (commit) return { commit, label: value, ref: null };
  }
  throw new AureusError(`unknown episode or ref: ${JSON.stringify(value)}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6012', { ref: value.slice(0, 80) })] });
}
