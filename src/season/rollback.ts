import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { createGit } from '../git/adapter.js';
import type { GitPort } from '../git/port.js';
import type { RefChange } from '../git/rewind.js';
import { requireCleanWorld } from '../pipeline/clean-world.js';
import { testKillHook } from '../pipeline/checkpoint.js';
import { interruptedRollback, type RollbackJournal } from './rollback-journal.js';
import { finishInterruptedRollback, switchRollback } from './rollback-switch.js';
import { committedEpisodes, findCommittedEpisode } from './episodes.js';
import { requireEpisodeId } from './episode-id.js';

/**
 * `aureus rollback s01e03`: revert that episode's commit and every commit after it on the
 * current branch (newest first, one revert commit each), so the world files and episode folders
 * are exactly as they were before s01e03 — and history is kept. All of it or nothing, as the user
 * sees it: the reverts are built as objects, then one journaled switch moves work tree, HEAD and tags. The tags of the reverted
 * episodes are renamed to rolledback/<id>/<sha> so the ids are free to be compiled again (unless
 * another branch still holds that episode: then the tag stays, and the next run of that episode
 * here is tagged <branch>/<id>).
 */
export interface RollbackResult {
  episode: string;
  reverted: { commit: string; subject: string; revert: string }[];
  retagged: { from: string; to: string }[];
  head: string;
  /** True when this was a rollback a kill had cut, finished from its journal (rollback-switch.ts). */
  finished_interrupted: boolean;
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

/** How a rollback is stopped and kept whole: the CLI's Ctrl-C (cli/commands/run-shared.ts interruptSignal). */
export interface RollbackControl {
  /** Aborted by Ctrl-C: before the switch the rollback stops with nothing changed (exit 130, AUR6036). */
  signal?: AbortSignal;
  /** Runs the switch as one step a second Ctrl-C does not cut. */
  critical?: <T>(what: string, fn: () => Promise<T>) => Promise<T>;
  /** An interrupted rollback finished first (AUR6038), said as it is done. */
  notice?: (d: Diagnostic) => void;
}

/**
 * Roll back under the lock: an interrupted rollback is finished first (the same episode's: that is
 * the result), then the request is checked again and the reverts are built as objects only; the
 * switch (rollback-switch.ts) is the one step that moves anything. A Ctrl-C before it leaves HEAD,
 * index, work tree and tags exactly as they were; one during it is let finish.
 */
export async function rollbackEpisode(root: string, episode: string, o: RollbackControl = {}): Promise<RollbackResult> {
  const git = createGit(root);
  const critical = o.critical ?? ((_what, fn) => fn());
  const finished = interruptedRollback(root) ? await critical('the interrupted rollback', () => finishInterruptedRollback(root, git)) : null;
  if (finished) o.notice?.(finished.note);
  const ref = requireEpisodeId(episode);
  if (finished && finished.journal.episode === ref.id) {
    const { reverted, retagged } = finished.journal;
    return { episode: ref.id, reverted, retagged, head: (await git.head())!, finished_interrupted: true };
  }
  await requireCleanWorld(git, ['world', 'operators', 'seasons'], { allowDirtyFlag: false });
  const j = await planRollback(root, git, episode, o.signal);
  testKillHook('rollback-built');
  // HEAD is read again (a git process: a Ctrl-C sent meanwhile is handled by then); the lock keeps
  // other aureus runs out, not the author's own git.
  if ((await git.head()) !== j.from) throw new AureusError('HEAD moved during the rollback', { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6010', { what: 'rollback', message: 'HEAD moved while the reverts were made; nothing was changed' })] });
  if (o.signal?.aborted) throw rollbackInterrupted(ref.id);
  await critical('the rollback', () => switchRollback(root, git, j));
  return { episode: ref.id, reverted: j.reverted, retagged: j.retagged, head: j.to, finished_interrupted: false };
}

/** Exit 130, AUR6036: a Ctrl-C before the switch, which changed nothing. */
export function rollbackInterrupted(episode: string): AureusError {
  return new AureusError(`interrupted: the rollback of ${episode} changed nothing`, { exitCode: ExitCode.INTERRUPTED, diagnostics: [diag('AUR6036', { episode })] });
}

/**
 * Everything the switch will do, made ready without changing what the author sees: the revert
 * commits (newest first, one each, as objects), the tag objects of the rolledback/<id>/<sha> names,
 * and the ref changes. A Ctrl-C meanwhile stops it (AUR6036) between git commands.
 */
async function planRollback(root: string, git: GitPort, episode: string, signal?: AbortSignal): Promise<RollbackJournal> {
  const { ref, found } = await checkRollbackArgs(root, episode);
  const head = (await git.head())!;
  const parent = await git.resolve(`${found.commit}^`);
  const range = parent ? await git.commitsBetween(parent, head) : [found.commit, ...(await git.commitsBetween(found.commit, head))];
  const newestFirst = [...range].reverse();
  const subjects = new Map<string, string>();
  for (const sha of newestFirst) subjects.set(sha, (await git.message(sha)).split('\n')[0]);
  const live = await committedEpisodes(root);
  const reverts = await git
    .buildReverts(newestFirst, (sha) => `Revert "${subjects.get(sha)}"\n\nThis reverts commit ${sha}.\nRolled back with \`aureus rollback ${ref.id}\`.\n`, signal)
    .catch((e: unknown) => {
      throw signal?.aborted ? rollbackInterrupted(ref.id) : e;
    });
  const inRange = new Set(range);
  const retagged: { from: string; to: string }[] = [];
  const refs: RefChange[] = [{ ref: 'HEAD', old: head, new: reverts.at(-1)! }];
  const branch = await git.currentBranch();
  for (const ep of live) {
    if (!inRange.has(ep.commit)) continue;
    if (signal?.aborted) throw rollbackInterrupted(ref.id);
    // A tag shared with another branch's history (a what-if branch's parent line) stays: that
    // line still has the episode. A re-run here then tags "<branch>/<id>".
    const others = (await git.branchesContaining(ep.commit)).filter((b) => b !== branch);
    if (others.length) continue;
    const to = `rolledback/${ep.ref.id}/${ep.commit.slice(0, 10)}`;
    if ((await git.resolve(`refs/tags/${to}`)) === null) refs.push({ ref: `refs/tags/${to}`, old: null, new: await git.tagObject(to, `${ep.tag} (rolled back)`, ep.commit) });
    refs.push({ ref: `refs/tags/${ep.tag}`, old: await git.refValue(`refs/tags/${ep.tag}`), new: null });
    retagged.push({ from: ep.tag, to });
  }
  if (signal?.aborted) throw rollbackInterrupted(ref.id);
  const reverted = newestFirst.map((sha, i) => ({ commit: sha, subject: subjects.get(sha) ?? '', revert: reverts[i]! }));
  return { version: 1, episode: ref.id, from: head, to: reverts.at(-1)!, reverted, retagged, refs };
}
