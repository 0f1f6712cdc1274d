import fs from 'node:fs';
import path from 'node:path';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/catalog.js';
import '../diagnostics/codes/safety.js';
import { tooManyOpenFiles } from '../io/open-files.js';

/**
 * A write the file system refused (permission denied, a read-only or full file system, a file past
 * the size limit, a file where a folder must be) is the user's environment, not a bug: AUR1053, exit 11, naming the path, what
 * is wrong and how to fix it. The store's writers (durable.ts) throw it for the file they were
 * asked to write (never the temp file's name); the CLI's error boundary maps what other direct
 * file-system calls raise (a run folder's mkdir, the run log's append) through the same function.
 */
const REFUSALS: Record<string, (at: string, file: string) => { reason: string; fix: string }> = {
  EACCES: (at) => ({ reason: `permission denied in ${at}`, fix: `make ${at} writable by this user (ls -ld shows its owner and mode), or run as the user who owns the world` }),
  EROFS: () => ({ reason: 'the file system is read-only', fix: 'use a copy of the world on a writable file system, or remount it read-write' }),
  ENOSPC: () => ({ reason: 'no space left on the device', fix: 'free some space on its file system (df -h shows it), then re-run' }),
  EDQUOT: () => ({ reason: 'the disk quota is exceeded', fix: 'free some space within your quota, then re-run' }),
  ENOTDIR: (at) => ({ reason: `${at} is not a directory`, fix: `move ${at} away (Aureus makes the folder it needs), then re-run` }),
  EISDIR: (_at, file) => ({ reason: `${file} is a directory`, fix: `move the folder ${file} away, then re-run` }),
  // Node ignores SIGXFSZ, so a write past the shell's `ulimit -f` (or the file system's largest file) fails with EFBIG.
  EFBIG: () => ({ reason: 'the file would exceed the largest file size allowed (ulimit -f, or the file system\'s limit)', fix: 'raise the file-size limit (`ulimit -f` shows it; `ulimit -f unlimited`), then re-run' }),
};
REFUSALS.EPERM = REFUSALS.EACCES!;

/**
 * Where the refusal is: for ENOTDIR the first component of `p` that exists and is not a folder;
 * otherwise the nearest existing folder at or above `p` (where a permission is missing).
 */
function culprit(p: string, code: string): string {
  const abs = path.resolve(p);
  if (code === 'ENOTDIR') {
    const parts = abs.split(path.sep);
    for (let i = 2; i <= parts.length; i++) {
      const q = parts.slice(0, i).join(path.sep);
      const st = fs.statSync(q, { throwIfNoEntry: false });
      if (!st) break;
      if (!st.isDirectory()) return q;
    }
    return abs;
  }
  let at = abs;
  while (!fs.statSync(at, { throwIfNoEntry: false })?.isDirectory() && path.dirname(at) !== at) at = path.dirname(at);
  return at;
}

/**
 * The AureusError for an errno error raised writing `file` (or, with no `file`, the error's own
 * path), or undefined when the error is not a file-system refusal.
 */
export function writeRefusal(e: unknown, file?: string): AureusError | undefined {
  const err = e as NodeJS.ErrnoException | undefined;
  const make = err && typeof err.code === 'string' ? REFUSALS[err.code] : undefined;
  const target = file ?? err?.path;
  if (!make || !target || err!.syscall === undefined) return undefined;
  // Writes here make a new entry (a temp file renamed, a folder): a permission is missing on the folder that gets it.
  const start = err!.code === 'ENOTDIR' ? target : path.dirname(target);
  const { reason, fix } = make(culprit(start, err!.code!), target);
  return new AureusError(`cannot write ${target}`, { exitCode: ExitCode.FILESYSTEM, diagnostics: [diag('AUR1053', { file: target, reason }, { hint: fix })], cause: e });
}

/**
 * AUR1053 for a write into something that is not a regular file (a FIFO, a device, a folder where
 * a log is appended): `reason` as describeNonRegular says it (store/regular-file.ts). Exit 11, as any
 * refused write: the file is the user's to move away; the write never waited on it.
 */
export function notRegularRefusal(file: string, reason: string): AureusError {
  return new AureusError(`cannot write ${file}`, { exitCode: ExitCode.FILESYSTEM, diagnostics: [diag('AUR1053', { file, reason }, { hint: `move ${file} away (Aureus writes a regular file there), then re-run` })] });
}

/** System calls that only write: what fails in them is a refused write whatever the errno says. */
const WRITING = new Set(['mkdir', 'mkdtemp', 'rename', 'write', 'unlink', 'rmdir', 'rm', 'copyfile', 'link', 'symlink', 'ftruncate', 'chmod', 'fchmod', 'utime']);
/** Errnos that only a write gets. */
const WRITE_ONLY = new Set(['EROFS', 'ENOSPC', 'EDQUOT', 'EFBIG']);

/**
 * The CLI's error boundary: an errno error that escaped a direct file-system call as AUR1053 when
 * it is a refused write (a write-only call, or an errno only writes get); reads and anything else
 * are left as they are.
 */
export function escapedWriteRefusal(e: unknown): AureusError | undefined {
  const err = e as NodeJS.ErrnoException | undefined;
  if (!(e instanceof Error) || typeof err?.syscall !== 'string' || typeof err.path !== 'string') return undefined;
  return WRITING.has(err.syscall) || WRITE_ONLY.has(err.code ?? '') ? writeRefusal(e) : undefined;
}

/** Run a write of `file`, turning a file-system refusal into AUR1053 (too many open files: AUR1054; other errors unchanged). */
export function refusedAs<T>(file: string, write: () => T): T {
  try {
    return write();
  } catch (e) {
    throw writeRefusal(e, file) ?? tooManyOpenFiles(e, file) ?? e;
  }
}

/** refusedAs for an asynchronous write. */
export async function refusedAsAsync<T>(file: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    throw writeRefusal(e, file) ?? tooManyOpenFiles(e, file) ?? e;
  }
}
