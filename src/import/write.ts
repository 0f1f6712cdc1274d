import '../diagnostics/codes/cli.js';
import { enclosingWorldFolder } from '../store/nested-world.js';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { inStaging, stagingFolder, stopIfAborted, sweepStaleStaging } from '../store/staging.js';
import path from 'node:path';
import { writeAtomic } from '../store/atomic-write.js';
import { createGit, UNSIGNED_ENV, unsignedFirstCommit } from '../git/adapter.js';
import { ENTITY_DIFF_CONFIG } from '../git/attributes.js';
import { diag } from '../diagnostics/index.js';
import { maxFileBytes } from '../store/file-cap.js';
import { AureusError, ExitCode } from '../errors.js';
import type { RepoFiles } from './files.js';
import { repoWritePoint } from './test-hook.js';

/** The commit identity when the machine resolves none (a fresh CI machine). */
const IMPORT_IDENTITY = { name: 'Aureus import', email: 'aureus@localhost' };

/** The sibling folder an import builds in: `<target>.aureus-import-<pid>`. */
const STAGING_INFIX = '.aureus-import-';

async function isEmptyDirOrMissing(dir: string): Promise<boolean> {
  try {
    const s = await stat(dir);
    if (!s.isDirectory()) return false;
    return (await readdir(dir)).length === 0;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return true;
    // A parent that is a file: the path can never be a world directory.
    if (code === 'ENOTDIR') return false;
    throw e;
  }
}

async function refuseOccupied(dir: string, target: string): Promise<void> {
  // A folder on the way the user may not enter or list (EACCES) is their path problem too.
  const free = await isEmptyDirOrMissing(dir).catch((e: unknown) => {
    throw cannotWrite(target, dir, e);
  });
  if (!free) {
    throw new AureusError(`refusing to import into ${target}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7904', { dir: target })] });
  }
}

/** A target inside another world repository's world files: AUR7910 (store/nested-world.ts says why). */
function refuseInsideWorldFiles(dir: string, target: string): void {
  const around = enclosingWorldFolder(dir);
  if (around) throw new AureusError(`refusing to import into ${target}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7910', { dir: target, ...around })] });
}

/** A file-system refusal at `target` (no permission, a parent that is a file, /proc) in words: the user's path problem, exit 2. */
function cannotWrite(target: string, dir: string, e: unknown): AureusError {
  const code = (e as NodeJS.ErrnoException).code;
  const reason = code === 'ENOTDIR' || code === 'EEXIST' ? `a parent of ${target} is not a directory`
    : code === 'EACCES' || code === 'EPERM' ? `permission denied in ${path.dirname(dir)} (or a folder above it)`
    : code === 'EROFS' ? 'the file system is read-only'
    : code === 'ENOSPC' ? 'no space left on the device'
    : `${code ?? 'error'}: cannot create a directory there`;
  return new AureusError(`cannot write ${target}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7005', { file: target, reason }, { hint: 'pass a new or empty directory whose parent exists and is writable' })] });
}

/**
 * A file over the store's cap (AUR1002, exit 2) refuses the import before anything is written: every
 * command, `validate` first, would refuse the world (README: an import never hands over a world
 * validate refuses). The cap is the one in force (AUREUS_MAX_FILE_BYTES raises it, knowingly, for
 * the import and every command after it), so what this hands over is what validate reads.
 */
function refuseOverCap(files: RepoFiles, target: string): void {
  const limit = maxFileBytes();
  const over = [...files].map(([rel, content]) => ({ rel, size: Buffer.byteLength(content) })).filter((f) => f.size > limit);
  if (!over.length) return;
  const hint = `nothing was written: every command would refuse this world; import fewer characters, or raise the cap knowingly for the import and every command after it: AUREUS_MAX_FILE_BYTES=<bytes> (at least ${Math.max(...over.map((f) => f.size))})`;
  throw new AureusError(`refusing to import into ${target}: ${over.length === 1 ? 'a file' : `${over.length} files`} over the ${limit}-byte cap`, {
    exitCode: ExitCode.USAGE,
    diagnostics: over.map((f) => diag('AUR1002', { size: f.size, limit }, { file: f.rel, hint })),
  });
}

/** AUR7909 (exit 130): the import into `target` was interrupted; nothing of it is on disk. */
export function interrupted(target: string): AureusError {
  return new AureusError(`interrupted: nothing imported into ${target}`, { exitCode: ExitCode.INTERRUPTED, diagnostics: [diag('AUR7909', { dir: target })] });
}

/** The files and the first commit, in `staging`; stops at the next step once `signal` is aborted. */
async function buildRepo(staging: string, files: RepoFiles, commitMessage: string, signal?: AbortSignal): Promise<void> {
  const stop = () => stopIfAborted(signal);
  for (const [rel, content] of files) {
    const abs = path.join(staging, rel);
    if (!abs.startsWith(staging + path.sep)) throw new Error(`import produced an unsafe path ${rel}`);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeAtomic(abs, content);
    stop();
  }
  // Through the one git port, as `aureus init` does: its environment hygiene (no caller GIT_DIR,
  // editor or pager; GIT_AUTHOR_*/GIT_COMMITTER_* identity and dates passed through), exactly
  // the written files staged (never `add -A`), and the repository's identity, else ours.
  // The add and the commit hash and compress every byte (seconds for a large world): `signal` stops
  // their git process, so Ctrl-C does not wait for them to end.
  const git = createGit(staging, { fallbackIdentity: IMPORT_IDENTITY });
  await git.init({ branch: 'main', signal });
  await git.setConfig(ENTITY_DIFF_CONFIG);
  stop();
  repoWritePoint('import-git-add');
  await git.add([...files.keys()].sort(), { signal });
  stop();
  await git.commit(commitMessage, { signal });
  stop();
}

/**
 * Write a whole world repository and make its first commit, all or nothing: the files and the
 * git repository are built in a sibling staging folder, which is renamed onto the target only when
 * complete (rename(2) replaces a missing or empty directory atomically). A failure, or `signal`
 * aborted (Ctrl-C: exit 130, AUR7909; the git command under way is stopped, not waited for), leaves
 * the target exactly as it was and no staging folder.
 */
export async function writeWorldRepo(target: string, files: RepoFiles, commitMessage: string, o: { signal?: AbortSignal } = {}): Promise<void> {
  const dir = path.resolve(target);
  refuseOverCap(files, target);
  await refuseOccupied(dir, target);
  refuseInsideWorldFiles(dir, target);
  await sweepStaleStaging(dir, STAGING_INFIX);
  const staging = stagingFolder(dir, STAGING_INFIX);
  // The place must be writable before any work: a parent that is a file, a missing permission or a
  // pseudo file system (/proc) is the user's path problem (exit 2), not an internal error.
  try {
    await mkdir(path.dirname(dir), { recursive: true });
    await mkdir(staging);
  } catch (e) {
    throw cannotWrite(target, dir, e);
  }
  // A git step the signal stopped (or a terminal's Ctrl-C killed with us) fails: the interrupt is the cause.
  await inStaging(staging, { signal: o.signal, interrupted: () => interrupted(target) }, async () => {
    await buildRepo(staging, files, commitMessage, o.signal).catch((e: unknown) => {
      throw unsignedFirstCommit(e, target, `make this world unsigned by running the same \`aureus import\` command with \`${UNSIGNED_ENV}\` in front`);
    });
    await refuseOccupied(dir, target);
    try {
      await rm(dir, { recursive: true, force: true }); // empty or missing: nothing of the user's is lost
      await rename(staging, dir);
    } catch (e) {
      // An empty target the user may not replace (another owner's folder in /tmp, whose sticky bit forbids it).
      throw cannotWrite(target, dir, e);
    }
  });
}
