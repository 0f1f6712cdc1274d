import fs from 'node:fs';
import path from 'node:path';
import { diag } from '../diagnostics/index.js';
import { AureusError, ExitCode } from '../errors.js';
import { gitOutput, gitRun } from './exec.js';

/**
 * What the commit of an episode needs of the repository besides clean files: no operation of the
 * author's half done (git refuses a partial commit during a merge, and the commit would take the
 * operation's state along), no path of the commit that git ignores (`git add` stages the others,
 * then fails on it), and, for a failed commit's roll-back, the index entries of its paths exactly
 * as they were (an `add` undone by `git reset` would drop what the author had staged there).
 */

// Pathspecs are file names, never patterns (a world file may be named with `*` or `:`).
const LITERAL = { GIT_LITERAL_PATHSPECS: '1' };

/** The git operations in progress, by the marker each leaves in the git folder. */
const OPERATIONS: Array<[string, string, string]> = [
  ['MERGE_HEAD', 'a merge', 'git merge --continue (or git commit) or git merge --abort'],
  ['rebase-merge', 'a rebase', 'git rebase --continue or git rebase --abort'],
  ['rebase-apply', 'a rebase or git am', 'git rebase --continue / git am --continue, or their --abort'],
  ['CHERRY_PICK_HEAD', 'a cherry-pick', 'git cherry-pick --continue or git cherry-pick --abort'],
  ['REVERT_HEAD', 'a revert', 'git revert --continue or git revert --abort'],
];

/**
 * Refuse (exit 10, AUR6059) while a merge, rebase, cherry-pick or revert is in progress. `blocked`
 * says what cannot be done now: every command that commits or moves HEAD (an episode's commit, a
 * note, a branch, a rollback) asks this before any work, so the author reads how to finish the
 * operation instead of git's own refusal (a partial commit, an unresolved index) after it.
 */
export async function refuseOperationInProgress(root: string, blocked = 'an episode cannot be committed now'): Promise<void> {
  const args = OPERATIONS.flatMap(([marker]) => ['--git-path', marker]);
  const where = (await gitOutput(root, ['rev-parse', ...args])).split('\n').slice(0, OPERATIONS.length);
  const i = where.findIndex((p) => p && fs.existsSync(path.resolve(root, p)));
  if (i < 0) return;
  const [marker, what, finish] = OPERATIONS[i];
  throw new AureusError(`${what} is in progress`, { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6059', { what, marker, finish, blocked })] });
}

/** Refuse (exit 10, AUR6060) when git ignores a path the commit must add (a .gitignore rule). */
export async function refuseIgnored(root: string, rels: string[]): Promise<void> {
  if (rels.length === 0) return;
  // Exit 1: none is ignored. Tracked files are never reported: git adds them whatever the rules.
  // (-z works only with --stdin; a name git still quotes is only shown quoted.)
  const r = await gitRun(root, ['-c', 'core.quotePath=false', 'check-ignore', '--', ...rels]);
  if (r.code === 1) return;
  if (r.code !== 0) throw new AureusError('git check-ignore failed', { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6010', { what: 'check-ignore', message: (r.stderr || r.stdout).trim() })] });
  const ignored = r.stdout.split('\n').filter(Boolean);
  const files = ignored.slice(0, 8).join(', ') + (ignored.length > 8 ? ', …' : '');
  throw new AureusError('git ignores files the episode commits', { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6060', { files }, { file: ignored[0] })] });
}

/** The index entries of these paths (`git ls-files -s`): mode, blob and path; unmerged ones have a stage > 0. */
export type IndexEntries = Array<{ mode: string; sha: string; stage: string; path: string }>;

export async function indexEntries(root: string, rels: string[]): Promise<IndexEntries> {
  if (rels.length === 0) return [];
  const out = await gitOutput(root, ['ls-files', '-s', '-z', '--', ...rels], LITERAL);
  return out
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const [meta, file] = line.split('\t');
      const [mode, sha, stage] = meta.split(' ');
      return { mode, sha, stage, path: file };
    });
}

/** Put the index entries of `rels` back as `entries` recorded them (stage-0 entries; a path without one is removed). */
export async function restoreIndexEntries(root: string, rels: string[], entries: IndexEntries): Promise<void> {
  if (rels.length === 0) return;
  // An add that failed before touching the index (another process holds .git/index.lock) left the
  // entries as they were: nothing to put back, and no write that the same lock would refuse.
  const same = (a: IndexEntries, b: IndexEntries) => a.length === b.length && a.every((e, i) => JSON.stringify(e) === JSON.stringify(b[i]));
  if (same(await indexEntries(root, rels), entries)) return;
  const kept = entries.filter((e) => e.stage === '0');
  const had = new Set(kept.map((e) => e.path));
  const gone = rels.filter((r) => !had.has(r));
  if (gone.length) await gitOutput(root, ['update-index', '--force-remove', '--', ...gone], LITERAL);
  if (kept.length) await gitOutput(root, ['update-index', '--add', ...kept.flatMap((e) => ['--cacheinfo', `${e.mode},${e.sha},${e.path}`])], LITERAL);
}
