import fs from 'node:fs';
import path from 'node:path';
import { writeVisible } from '../store/durable.js';
import { firstSymlink } from '../store/symlinks.js';
import { readFileBytesSafe } from '../store/read.js';
import { sha256 } from '../core/hash.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { shellWord } from '../core/shell-word.js';
import type { GitPort } from '../git/port.js';

/**
 * What the commit transaction needs to be really atomic (issue 12): a record of every path's
 * content before the apply step (so a failed git step restores world/ and the episode folder
 * exactly), and a refusal to write through a symbolic link (git refuses to add a path beyond one,
 * and the write would already have changed a file outside the repository).
 */

/** sha256 of each path's content before the apply step, null when the path did not exist. */
export type BeforeState = Record<string, string | null>;

const BACKUP = 'backup';

/**
 * Refuse before writing anything when a path of the commit, or a folder on the way to it, is a
 * symbolic link (world/ linked elsewhere, a linked episode folder or world file). AUR6050, exit 10.
 */
export function refuseSymlinks(root: string, rels: string[]): void {
  const sub = firstSymlink(root, rels);
  if (sub) throw new AureusError(`cannot commit through the symbolic link ${sub}`, { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6050', { path: sub }, { file: sub })] });
}

/**
 * The files an episode run writes into its episode folder, by their path in it: stage H's
 * (h-commit episodeFiles), the planning files (context, proposals, plan, packets) and the drafts
 * (stages/scene-attempt.ts: SC04.2.txt, .kept.txt, .fix.txt). Any other file there is the author's
 * and is left alone. test/pipeline/untracked-overwrite.test.ts checks a committed folder against it.
 */
export const EPISODE_FILE = /^(?:(?:episode_context|agent_proposals|episode_plan|episode_deltas|verifier_report|cliffhanger_constraints|episode_metrics)\.json|episode_script\.md|recap\.md|run_log\.jsonl|packets\/SC\d+\.json|drafts\/SC\d+\.\d+(?:\.kept|\.fix)?\.txt)$/;

/** Not in HEAD: untracked, or added to the index and never committed (the commit's own `git add` would drop that blob). */
const isNew = (e: { index: string }): boolean => e.index === '?' || e.index === 'A';

function refuseOverwrite(files: string[], folderIsTheirs: (folder: string) => boolean = () => false): never {
  const more = files.length > 8 ? ` and ${files.length - 8} more` : '';
  throw new AureusError('the episode would overwrite a file git has no copy of', { exitCode: ExitCode.DIRTY_WORLD, diagnostics: [diag('AUR6066', { files: files.slice(0, 8).join(', ') + more, target: pathArgs(files, folderIsTheirs) })] });
}

/** The episode folder a path is in (`seasons/season_01/episode_02`). */
export const EPISODE_FOLDER = /^seasons\/season_\d+\/episode_\d+(?=\/)/;

/**
 * Paths for a git command the user is told to run (AUR6066, AUR6018): the files themselves, or, for
 * an episode folder's when `folderIsTheirs` says the folder holds nothing else git lacks, that
 * folder (an episode writes some twenty files: a command line of them all is unreadable; a folder
 * that holds an author's file too is never named, so `git clean` of it cannot take that file).
 */
export function pathArgs(files: string[], folderIsTheirs: (folder: string) => boolean = () => false): string {
  const named = files.map((f) => {
    const folder = EPISODE_FOLDER.exec(f)?.[0];
    return folder && folderIsTheirs(folder) ? folder : f;
  });
  return [...new Set(named)].sort().map(shellWord).join(' ');
}

/**
 * How to abandon an interrupted commit that cannot be finished (AUR6018), as commands: its run
 * folder deleted, and what its apply step may have written undone — the files it changed checked
 * out, the files it made removed (from the journal's `before`: null is a file it made; an episode
 * folder named whole only when every file in it is one of those). Harmless when the apply step had
 * not begun: git then finds nothing to do.
 */
export function abandonCommands(root: string, runRel: string, before: BeforeState | undefined, files: string[]): string {
  const made = files.filter((f) => before?.[f] === null);
  const changed = files.filter((f) => typeof before?.[f] === 'string');
  const onlyMade = (folder: string) => filesUnder(root, folder).every((f) => made.includes(f));
  return [`rm -rf ${runRel}`, ...(changed.length ? [`git checkout -- ${pathArgs(changed)}`] : []), ...(made.length ? [`git clean -fd -- ${pathArgs(made, onlyMade)}`] : [])].join(' && ');
}

/** Every file under `folder` (repository-relative, '/'-separated); none when it cannot be listed. */
function filesUnder(root: string, folder: string): string[] {
  try {
    return fs.readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true }).filter((e) => !e.isDirectory()).map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  } catch {
    return [];
  }
}

/**
 * Refuse (exit 8, AUR6066) before any work when the episode folder `dir` holds a file git does not
 * have at a path the episode writes: its commit would replace it and git would have no copy (git
 * itself refuses to overwrite an untracked file on checkout). The author's other files there are left.
 */
export async function refuseNewEpisodeFiles(git: GitPort, dir: string): Promise<void> {
  const fresh = (await git.status([dir], { readOnly: true })).filter(isNew);
  const found = fresh.filter((e) => EPISODE_FILE.test(path.posix.relative(dir, e.path)));
  // The folder is named in the hint's commands only when git lacks nothing else there (the author's own files).
  if (found.length) refuseOverwrite(found.map((e) => e.path), () => found.length === fresh.length);
}

/**
 * The same at the commit, over the very files it writes (a world file too): a file git does not
 * have whose bytes differ from the commit's, put there since the run began. One already holding the
 * commit's bytes loses nothing (an input --allow-dirty carries as it stands, clean-world.ts carriedEdits).
 */
export async function refuseUntrackedOverwrite(git: GitPort, root: string, files: Record<string, string>): Promise<void> {
  const entries = await git.status(Object.keys(files), { readOnly: true });
  // A file taken out of the index (`git rm --cached`) is in HEAD: git has its copy.
  const inHead = new Set(entries.filter((e) => e.index === 'D').map((e) => e.path));
  const found = entries.filter((e) => isNew(e) && e.path in files && !inHead.has(e.path) && currentText(root, e.path) !== files[e.path]);
  if (found.length) refuseOverwrite(found.map((e) => e.path).sort());
}

/** The file's text, null when it cannot be read (the store's reader: a FIFO is refused, not waited on). */
function currentText(root: string, rel: string): string | null {
  const r = readFileBytesSafe(path.join(root, rel), rel);
  return r.ok ? r.bytes.toString('utf8') : null;
}

/** Read what each path holds now and keep a copy under <run>/backup/ (before the journal is written). */
export function backupBefore(root: string, runDir: string, rels: string[]): BeforeState {
  const before: BeforeState = {};
  for (const rel of rels) {
    let content: string | null = null;
    try {
      content = fs.readFileSync(path.join(root, rel), 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        throw new AureusError(`cannot commit over ${rel}`, { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6051', { path: rel, reason: code ?? String(e) }, { file: rel })] });
      }
    }
    before[rel] = content === null ? null : sha256(content);
    if (content !== null) {
      // No fsync here: the transaction makes the backups durable with the staged files, in one barrier.
      writeVisible(path.join(runDir, BACKUP, rel), content);
    }
  }
  return before;
}

function currentHash(abs: string): string | null {
  try {
    return sha256(fs.readFileSync(abs, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Put every path back as `before` recorded it: a file that existed gets its backup again, a file
 * the apply step created is removed (with the folders it left empty). Never writes through a
 * link; a path already as it was is not touched. Returns the paths it changed.
 */
export function restoreBefore(root: string, runDir: string, before: BeforeState): string[] {
  const changed: string[] = [];
  for (const [rel, hash] of Object.entries(before).sort()) {
    const abs = path.join(root, rel);
    if (currentHash(abs) === hash) continue;
    if (fs.existsSync(abs) && fs.lstatSync(abs).isSymbolicLink()) continue;
    if (hash === null) {
      fs.rmSync(abs, { force: true });
      removeEmptyParents(root, path.dirname(rel));
    } else {
      const content = fs.readFileSync(path.join(runDir, BACKUP, rel), 'utf8');
      writeVisible(abs, content);
    }
    changed.push(rel);
  }
  return changed;
}

function removeEmptyParents(root: string, relDir: string): void {
  let dir = relDir;
  while (dir && dir !== '.' && dir !== '/') {
    try {
      fs.rmdirSync(path.join(root, dir));
    } catch {
      return; // not empty (or gone): stop
    }
    dir = path.posix.dirname(dir);
  }
}

/**
 * store/atomic-write.ts (and write-file-atomic, which earlier versions used) writes `<file>.<number>` and renames it over `<file>`; a kill in between
 * leaves the temp file. These names are never Aureus files, so recovery removes them and the
 * dirty-world check ignores them.
 */
export const ATOMIC_TEMP = /\.(json|jsonl|md|txt|fountain|html|yaml)\.\d+$/;

export function isAtomicTemp(rel: string): boolean {
  return ATOMIC_TEMP.test(rel);
}

/** Remove atomic writes' temp files (`<file>.<number>`) under these folders (relative to root). Returns what it removed. */
export function removeAtomicTemps(root: string, relDirs: string[]): string[] {
  const removed: string[] = [];
  const walk = (rel: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const sub = path.posix.join(rel, e.name);
      if (e.isDirectory()) walk(sub);
      else if (e.isFile() && isAtomicTemp(e.name)) {
        fs.rmSync(path.join(root, sub), { force: true });
        removed.push(sub);
      }
    }
  };
  for (const d of relDirs) walk(d);
  return removed.sort();
}
