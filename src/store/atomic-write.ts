import fs from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { notRegularRefusal, refusedAs, refusedAsAsync } from './write-refusal.js';
import { describeNonRegular } from './regular-file.js';

/**
 * Replacing a file whole: a temp file next to it, written to the last byte, renamed over it. A
 * reader, or the next process after a kill, sees the old bytes or the new ones, never a part.
 *
 * Not write-file-atomic, which every writer here used before: it issues one write(2) and takes its
 * count as done. A write cut short (a full disk; a file-size limit, `ulimit -f`) then renamed the
 * first bytes over the file: a play session's log lost its records, a journal its end. And its
 * exit hook (signal-exit) catches SIGXFSZ, which Node ignores, so the next write past the limit
 * killed the process (exit 153) instead of failing with EFBIG. Node's writeFile on a descriptor or
 * a FileHandle writes until all is out, so the limit shows as EFBIG (ENOSPC); the temp file is
 * removed and the old file stays as it was; the error is AUR1053 (AUR1054 for too many open
 * files) naming the file asked for, never the temp file (store/write-refusal.ts).
 */

/** A file's bytes: text is written as UTF-8. */
export type FileContent = string | Uint8Array;

export interface AtomicOptions {
  /**
   * fsync the temp file before the rename (default true): the new bytes survive a power loss once
   * this returns. False where a later barrier makes a whole set of files durable (durable.ts).
   */
  fsync?: boolean;
}

let temps = 0;

/**
 * A temp name no other writer (process or worker thread) uses: pid, thread and a counter, all
 * digits, in write-file-atomic's shape `<file>.<digits>`, which recovery removes and the dirty check
 * ignores (pipeline/commit-safety.ts).
 */
export function tempName(abs: string): string {
  temps += 1;
  return `${abs}.${process.pid}${String(threadId).padStart(3, '0')}${String(temps).padStart(9, '0')}`;
}

/**
 * Temp files of asynchronous writes under way: a process that exits meanwhile (a second Ctrl-C
 * quits at once) removes them, as write-file-atomic's exit hook did. Synchronous writes need none:
 * no exit can come between their steps.
 */
const pending = new Set<string>();
let exitHook = false;

function track(tmp: string): void {
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => pending.forEach((t) => fs.rmSync(t, { force: true })));
  }
  pending.add(tmp);
}

/** How a replacement is made: `mode` for the new file, `owner` (an existing file's) kept when allowed. */
export interface Replace {
  fsync: boolean;
  mode?: number;
  owner?: fs.Stats;
}

/**
 * The replaced file's owner and group, as write-file-atomic kept them: given back when the new file
 * is not already theirs. A non-root writer may not be allowed to give a file away (EPERM, EINVAL)
 * and a filesystem may not have owners (ENOSYS): the write still happens then, owned by the writer.
 */
function ownerToGive(existing: fs.Stats | undefined): fs.Stats | undefined {
  if (!existing || !process.getuid || (existing.uid === process.getuid() && existing.gid === process.getgid?.())) return undefined;
  return existing;
}

function chownRefusalOk(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOSYS' || (process.getuid?.() !== 0 && (code === 'EPERM' || code === 'EINVAL'));
}

/** `content` to `abs` through a temp file (opened 'wx': never a file someone else made under that name). */
export function replaceSync(abs: string, content: FileContent, how: Replace): void {
  const tmp = tempName(abs);
  const fd = fs.openSync(tmp, 'wx', how.mode ?? 0o666);
  try {
    try {
      fs.writeFileSync(fd, content);
      // The mode given to open is cut by the umask: set it as asked.
      if (how.mode !== undefined) fs.fchmodSync(fd, how.mode);
      const owner = ownerToGive(how.owner);
      if (owner) {
        try {
          fs.fchownSync(fd, owner.uid, owner.gid);
        } catch (e) {
          if (!chownRefusalOk(e)) throw e;
        }
      }
      if (how.fsync) fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, abs);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** replaceSync without blocking: each step on libuv's thread pool. */
export async function replaceAsync(abs: string, content: FileContent, how: Replace): Promise<void> {
  const tmp = tempName(abs);
  // Tracked before it exists: an exit while the open is under way still finds it.
  track(tmp);
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(tmp, 'wx', how.mode ?? 0o666);
  } catch (e) {
    pending.delete(tmp);
    throw e;
  }
  try {
    try {
      await handle.writeFile(content);
      if (how.mode !== undefined) await handle.chmod(how.mode);
      const owner = ownerToGive(how.owner);
      if (owner) await handle.chown(owner.uid, owner.gid).catch((e: unknown) => {
        if (!chownRefusalOk(e)) throw e;
      });
      if (how.fsync) await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(tmp, abs);
  } catch (e) {
    await fs.promises.rm(tmp, { force: true });
    throw e;
  } finally {
    pending.delete(tmp);
  }
}

/**
 * Where a write of `abs` lands and what it keeps: a link is written through to its target (a
 * dangling one is replaced, as write-file-atomic did), and an existing file keeps its mode and owner.
 */
function targetOf(abs: string): { file: string; how: Omit<Replace, 'fsync'> } {
  let file = abs;
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(abs, { throwIfNoEntry: false });
    if (st?.isSymbolicLink()) {
      try {
        file = fs.realpathSync(abs);
        st = fs.statSync(file);
      } catch {
        st = undefined;
      }
    }
  } catch (e) {
    // A file where a folder of the path should be: the write below says so (ENOTDIR).
    if ((e as NodeJS.ErrnoException).code !== 'ENOTDIR') throw e;
  }
  return { file, how: st ? { mode: st.mode & 0o7777, owner: st } : {} };
}

/**
 * Write `content` to `abs` atomically and whole (see above); the folder is made when the write
 * finds it missing. A refusal is AUR1053/AUR1054 naming `abs`.
 */
export function writeAtomicSync(abs: string, content: FileContent, opts: AtomicOptions = {}): void {
  refusedAs(abs, () => {
    const { file, how } = targetOf(abs);
    const replace = { ...how, fsync: opts.fsync !== false };
    try {
      replaceSync(file, content, replace);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      replaceSync(file, content, replace);
    }
  });
}

/** writeAtomicSync without blocking. */
export async function writeAtomic(abs: string, content: FileContent, opts: AtomicOptions = {}): Promise<void> {
  await refusedAsAsync(abs, async () => {
    const { file, how } = targetOf(abs);
    await replaceInFolderAsync(file, content, { ...how, fsync: opts.fsync !== false });
  });
}

/**
 * replaceAsync, making the folder when the write finds it missing (most writes go into folders that
 * exist: a `mkdir -p` before each would cost more than the rare retry).
 */
export async function replaceInFolderAsync(file: string, content: FileContent, how: Replace): Promise<void> {
  try {
    await replaceAsync(file, content, how);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await replaceAsync(file, content, how);
  }
}

/**
 * open(2) flags of an append: create, append, and do not wait on a FIFO or device. A plain 'a'
 * blocked in open() forever on a FIFO put in a log's place (no reader ever comes); non-blocking, a
 * FIFO with no reader fails at once (ENXIO) and one with a reader opens, to be refused by its type.
 */
const NONBLOCKING_APPEND = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NONBLOCK ?? 0);

/**
 * Refuse to append to anything but a regular file (checked on the open descriptor, as the store's
 * reader checks, store/regular-file.ts): AUR1053 naming the file and what it is.
 */
function requireRegular(abs: string, st: fs.Stats): void {
  if (!st.isFile()) throw notRegularRefusal(abs, describeNonRegular(st));
}

/** What an append's open failed on: a FIFO with no reader (ENXIO) is said as the FIFO it is. */
function appendOpenError(abs: string, e: unknown): unknown {
  if ((e as NodeJS.ErrnoException).code !== 'ENXIO') return e;
  const st = fs.lstatSync(abs, { throwIfNoEntry: false });
  return notRegularRefusal(abs, st ? describeNonRegular(st) : 'it is not a regular file');
}

/**
 * Append `text` to `abs` whole or not at all: a write cut short (a full disk, a file-size limit)
 * is undone by cutting the file back to its length before, so a log never ends in half a line that
 * the next reader takes for a corrupt entry. The folder must exist. A refusal is AUR1053 naming
 * `abs`; a FIFO, a device or a folder there is refused the same way, at once, never waited on.
 */
export async function appendWhole(abs: string, text: string): Promise<void> {
  await refusedAsAsync(abs, async () => {
    const handle = await fs.promises.open(abs, NONBLOCKING_APPEND, 0o666).catch((e: unknown) => {
      throw appendOpenError(abs, e);
    });
    try {
      const st = await handle.stat();
      requireRegular(abs, st);
      try {
        await handle.writeFile(text);
      } catch (e) {
        await handle.truncate(st.size).catch(() => undefined);
        throw e;
      }
    } finally {
      await handle.close();
    }
  });
}

/** appendWhole, synchronously: for a log whose line must be on disk before the caller goes on (a play session's calls). */
export function appendWholeSync(abs: string, text: string): void {
  refusedAs(abs, () => {
    let fd: number;
    try {
      fd = fs.openSync(abs, NONBLOCKING_APPEND, 0o666);
    } catch (e) {
      throw appendOpenError(abs, e);
    }
    try {
      const st = fs.fstatSync(fd);
      requireRegular(abs, st);
      try {
        fs.writeFileSync(fd, text);
      } catch (e) {
        try {
          fs.ftruncateSync(fd, st.size);
        } catch {
          /* the refusal below says what went wrong */
        }
        throw e;
      }
    } finally {
      fs.closeSync(fd);
    }
  });
}
