import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { createGit } from '../git/adapter.js';
import { committedEpisodes, findCommittedEpisode } from './episodes.js';
import { requireEpisodeId } from './episode-id.js';

/**
 * `aureus rollback s01e03`: revert that episode's commit and every commit after it on the
 * current branch (newest first, one revert commit each), so the world files and episode folders
 * are exactly as they were before s01e03 — and history is kept. The tags of the reverted
 * episodes are renamed to rolledback/<id>/<sha> so the ids are free to be compiled again (unless
 * another branch still holds that episode: then the tag stays, and the next run of that episode
 * here is tagged <branch>/<id>).
 */
export interface RollbackResult {
  episode: string;
  reverted: { commit: string; subject: string; revert: string }[];
  retagged: { from: string; to: string }[];
  head: string;
}

/**
 * Read-only checks of a rollback request: a well-formed id of an episode in the current history.
 * The command runs them before taking the lock (so a refused rollback writes nothing, not even
 * `.aureus/`) and rollbackEpisode runs them again under it.
 */
export async function checkRollbackArgs(root: string, episode: string) {
  const ref = requireEpisodeId(episode);
  const found = await findCommittedEpisode(root, ref);
  if (!found) throw await notCommittedHere(root, ref.id);
  return { ref, found };
}

/**
 * Why an episode cannot be rolled back, told apart by its tags: never committed (no tag at all),
 * rolled back on this line (a rolledback/<id>/<sha> tag in the current history and no live tag
 * here), or committed on another branch only.
 */
async function notCommittedHere(root: string, id: string): Promise<AureusError> {
  const git = createGit(root);
  const head = await git.head();
  const tags = await git.tags(`*${id}*`);
  const live = tags.filter((t) => t === id || (t.endsWith(`/${id}`) && !t.startsWith('rolledback/')));
  const rolled = tags.filter((t) => t.startsWith(`rolledback/${id}/`));
  const inHistory = async (t: string) => {
    const c = await git.resolve(`refs/tags/${t}`);
    return Boolean(c && head && (await git.isAncestor(c, head)));
  };
  let rolledHere: string | undefined;
  for (const t of rolled) if (await inHistory(t)) rolledHere = t;
  if (rolledHere) {
    return new AureusError(`episode ${id} was rolled back`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6021', { episode: id, tag: rolledHere })] });
  }
  if (!live.length) {
    return new AureusError(`episode ${id} has not been committed`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6022', { episode: id })] });
  }
  // One hint, naming where the episode is (it was the catalog's "switch to the branch" and a second "tag … is on another line").
  const branches = new Set<string>();
  for (const t of live) {
    const c = await git.resolve(`refs/tags/${t}`);
    if (c) for (const b of await git.branchesContaining(c).catch(() => [] as string[])) branches.add(b);
  }
  const tagged = `tag${live.length === 1 ? '' : 's'} ${live.join(', ')} ${live.length === 1 ? 'is' : 'are'} on another line`;
  const [first] = [...branches].sort();
  const hint = first ? `${tagged}, branch ${[...branches].sort().join(', ')}: switch to it first (git switch ${first})` : `${tagged}, on no branch: check out the commit it tags to roll it back`;
  return new AureusError(`episode ${id} is not in the current history`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6014', { episode: id }, { hint })] });
}

export async function rollbackEpisode(root: string, episode: string): Promise<RollbackResult> {
  const git = createGit(root);
  const { ref, found } = await checkRollbackArgs(root, episode);
  const head = (await git.head())!;
  const parent = await git.resolve(`${found.commit}^`);
  const range = parent ? await git.commitsBetween(parent, head) : [found.commit, ...(await git.commitsBetween(found.commit, head))];
  const newestFirst = [...range].reverse();
  const subjects = new Map<string, string>();
  for (const sha of newestFirst) subjects.set(sha, (await git.message(sha)).split('\n')[0]);
  const live = await committedEpisodes(root);
  const reverts = await git.revert(newestFirst, (sha) => `Revert "${subjects.get(sha)}"\n\nThis reverts commit ${sha}.\nRolled back with \`aureus rollback ${ref.id}\`.\n`);
  const inRange = new Set(range);
  const retagged: { from: string; to: string }[] = [];
  const branch = await git.currentBranch();
  for (const ep of live) {
    if (!inRange.has(ep.commit)) continue;
    // A tag shared with another branch's history (a what-if branch's parent line) stays: that
    // line still has the episode. A re-run here then tags "<branch>/<id>".
    const others = (await git.branchesContaining(ep.commit)).filter((b) => b !== branch);
    if (others.length) continue;
    const to = `rolledback/${ep.ref.id}/${ep.commit.slice(0, 10)}`;
    if ((await git.resolve(`refs/tags/${to}`)) === null) await git.tag(to, `${ep.tag} (rolled back)`, ep.commit);
    await git.deleteTag(ep.tag);
    retagged.push({ from: ep.tag, to });
  }
  return {
    episode: ref.id,
    reverted: newestFirst.map((sha, i) => ({ commit: sha, subject: subjects.get(sha) ?? '', revert: reverts[i] })),
    retagged,
    head: (await git.head())!,
  };
}
