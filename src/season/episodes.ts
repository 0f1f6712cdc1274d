import fs from 'node:fs';
import path from 'node:path';
import { episodeRef, type EpisodeRef } from '../domain/context.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { episodeRelDir, seasonDirName } from '../paths.js';
import { createGit } from '../git/adapter.js';
import type { GitPort } from '../git/port.js';
import { episodeIdIfAny, parseEpisodeId } from './episode-id.js';

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

/**
 * The tag the commit of this episode will get here, refused before any work (exit 10, AUR6033) when
 * it is a tag already. Only a qualified tag can be: the plain one is asked for only when free. One
 * stands when a branch was deleted after committing that episode (git keeps its tags), or when an
 * earlier run on a detached HEAD made `detached/<id>`: the run would compute the whole episode, then
 * fail at its tag. (AUR6064 stays for a tag made while the run computed: another worktree's run.)
 */
export async function refuseTakenTag(root: string, ref: EpisodeRef, git: GitPort = createGit(root)): Promise<{ tag: string; detached: boolean }> {
  const tag = await tagNameFor(root, ref, git);
  // The plain tag (the common case) costs one ref query: the branch is asked only for a qualified one.
  if (tag === ref.id) return { tag, detached: false };
  const [commit, detached] = await Promise.all([git.resolve(`refs/tags/${tag}`), git.currentBranch().then((b) => b === null)]);
  if (commit === null) return { tag, detached };
  const taken = await describeTaggedCommit(git, commit);
  const rename = detached ? 'put this line on a branch (`git switch -c <name>`)' : 'rename this branch (`git branch -m <other-name>`)';
  const fix = taken.branches.length
    ? `That tag is the episode of another line: ${rename} so that its episodes get tags of their own, then re-run.`
    : `Its commit is on no branch: the tag was left by ${tag.startsWith('detached/') ? 'an earlier run on a detached HEAD' : `a branch named ${tag.slice(0, -ref.id.length - 1)} since deleted`}. If that episode is not wanted, delete the tag (\`git tag -d ${tag}\`) and re-run; to keep it, ${rename} and re-run.`;
  throw new AureusError(`tag ${tag} already exists`, { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6033', { episode: ref.id, tag, commit: commit.slice(0, 10), where: taken.where, fix })] });
}

/** Where a tagged commit is: the branches whose history holds it, or "on no branch". */
export async function describeTaggedCommit(git: GitPort, commit: string): Promise<{ branches: string[]; where: string }> {
  const branches = await git.branchesContaining(commit).catch(() => [] as string[]);
  const some = branches.slice(0, 4).join(', ') + (branches.length > 4 ? ` and ${branches.length - 4} more` : '');
  return { branches, where: branches.length ? `on branch ${some}` : 'on no branch' };
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
  const ep = episodeIdIfAny(value);
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
