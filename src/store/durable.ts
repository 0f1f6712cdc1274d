import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { threadId } from 'node:worker_threads';
import pLimit from 'p-limit';
import writeFileAtomic from 'write-file-atomic';
import { refusedAs, refusedAsAsync } from './write-refusal.js';

/**
 * Durability for many files at once (issue 18).
 *
 * write-file-atomic's default is an fsync per file: a commit of ~40 files plus their staged copies
 * and backups paid ~260 fsyncs per episode, each a journal commit and a disk-cache flush. What a
 * transaction needs is weaker and cheaper:
 *
 *   - Atomic visibility (a reader, or the next process after a kill, sees the old bytes or the new
 *     ones, never half a file) comes from temp file + rename alone: a killed process leaves its
 *     writes in the kernel's page cache, so no fsync is needed to survive SIGKILL or a crash of Node.
 *   - Durability against power loss is needed only at the points where the transaction's journal
 *     moves to its next state: every file the journal relies on must be on disk before the journal
 *     says so. One barrier there replaces an fsync per file.
 *
 * So files are written with `writeVisible` (temp + rename, no fsync) and made durable together by
 * a barrier. `durableBarrier` (synchronous) is on Linux a single syncfs(2) per filesystem (`sync
 * -f`, coreutils): one journal commit that carries every file's data and every directory entry;
 * where that is not available it falls back to an fsync of each file and each parent folder.
 * `durableBarrierAsync` (the commit's barriers) issues those fsyncs all at once off the main thread.
 */

/**
 * Write `content` to `abs` atomically (temp file + rename), without fsync. The folder is made only
 * when the write finds it missing: a commit writes ~200 files into folders that mostly exist, and a
 * `mkdir -p` before each was a third of the write's system calls (issue 18).
 *
 * Written here rather than with write-file-atomic, which resolves every path component (a JS
 * realpath: one lstat per folder level), stats, chowns and chmods each file and registers exit
 * handlers: ~1 ms of CPU per file against ~0.1 ms (issue 18, bench in docs/benchmarks.md). What it
 * gave is kept: a link is written through (to its target, by write-file-atomic itself, rare), an
 * existing file keeps its mode and owner, and the temp name is write-file-atomic's shape,
 * `<file>.<digits>`, which recovery removes and the dirty check ignores (pipeline/commit-safety.ts).
 * A write the file system refuses is AUR1053 naming `abs` (store/write-refusal.ts).
 */
export function writeVisible(abs: string, content: FileContent): void {
  refusedAs(abs, () => writeVisibleAs(abs, content));
}

function writeVisibleAs(abs: string, content: FileContent): void {
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(abs, { throwIfNoEntry: false });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOTDIR') throw e;
  }
  if (st?.isSymbolicLink()) {
    writeFileAtomic.sync(abs, content, { fsync: false });
    return;
  }
  try {
    replaceWith(abs, content, st);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    replaceWith(abs, content, st);
  }
}

/**
 * writeVisible without blocking: the temp file written and renamed on libuv's thread pool, for
 * files of the run folder that Aureus alone writes (no link written through, no mode or owner kept),
 * whose writes may overlap this thread's next work (issue 18: the planning checkpoint's files).
 */
export async function writeVisibleAsync(abs: string, content: string): Promise<void> {
  return asyncOpens(() => refusedAsAsync(abs, () => writeVisibleAsyncAs(abs, content)));
}

/**
 * Files open at once across writeVisibleAsync and the barriers: callers start a whole checkpoint's
 * or stage's files together (~80), and one descriptor each at once exceeded a modest `ulimit -n`
 * (64), failing the run with EMFILE. libuv's thread pool does 4 at a time anyway, so 8 costs nothing.
 */
const asyncOpens = pLimit(8);

async function writeVisibleAsyncAs(abs: string, content: string): Promise<void> {
  const tmp = tempName(abs);
  try {
    try {
      await fs.promises.writeFile(tmp, content, { flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      await fs.promises.mkdir(path.dirname(abs), { recursive: true });
      await fs.promises.writeFile(tmp, content, { flag: 'wx' });
    }
    await fs.promises.rename(tmp, abs);
  } catch (e) {
    // A write that fails part way (a full disk, ENOSPC; a file-size limit, EFBIG) has made the temp
    // file: removed here too, not only after a failed rename, or the next run finds it (AUR6053).
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
}

/**
 * `content` to `abs` atomically and durably (temp file, fsync, rename), keeping `mode` when given
 * (an existing file's: the mode given to open is cut by the umask), for a file the user names
 * (`export -o`). Not write-file-atomic, which takes one write(2)'s short count as done: under
 * `ulimit -f 4` (or a nearly full disk) `-o` replaced the file with its first 4096 bytes. A
 * FileHandle's writeFile writes until all is out, so the limit shows as EFBIG (ENOSPC). The temp
 * file is removed when the write fails.
 */
export async function writeWholeAsync(abs: string, content: string, mode?: number): Promise<void> {
  const tmp = tempName(abs);
  const handle = await fs.promises.open(tmp, 'wx', mode ?? 0o666);
  try {
    try {
      await handle.writeFile(content, 'utf8');
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(tmp, abs);
  } catch (e) {
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
}

/** A file's text (written as UTF-8). */
export type FileContent = string;

let temps = 0;

/** A temp name no other writer (process or worker thread) uses: pid, thread and a counter, all digits. */
function tempName(abs: string): string {
  temps += 1;
  return `${abs}.${process.pid}${String(threadId).padStart(3, '0')}${String(temps).padStart(9, '0')}`;
}

/**
 * The replaced file's owner and group, as write-file-atomic kept them: a non-root writer may not be
 * allowed to give a file away (EPERM, EINVAL) and a filesystem may not have owners (ENOSYS); the
 * write still happens then, owned by the writer, as it did with write-file-atomic.
 */
function keepOwner(fd: number, existing: fs.Stats): void {
  if (!process.getuid || (existing.uid === process.getuid() && existing.gid === process.getgid?.())) return;
  try {
    fs.fchownSync(fd, existing.uid, existing.gid);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const root = process.getuid() === 0;
    if (!(code === 'ENOSYS' || (!root && (code === 'EPERM' || code === 'EINVAL')))) throw e;
  }
}

function replaceWith(abs: string, content: FileContent, existing: fs.Stats | undefined): void {
  const tmp = tempName(abs);
  // 'wx': never opens a file someone else made under that name.
  const fd = fs.openSync(tmp, 'wx', existing ? existing.mode & 0o7777 : 0o666);
  try {
    try {
      fs.writeFileSync(fd, content);
      if (existing) {
        // The mode given to open is cut by the umask: set it as the file had it.
        fs.fchmodSync(fd, existing.mode & 0o7777);
        keepOwner(fd, existing);
      }
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, abs);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** How the last barrier was made (tests and the bench read it). */
export interface BarrierStats {
  /** 'syncfs': one `sync -f` per filesystem; 'fsync': one fsync per file and folder; 'none': nothing to sync. */
  method: 'syncfs' | 'fsync' | 'none';
  /** System calls that waited for the disk (syncfs or fsync). */
  syncs: number;
}

let syncfsWorks: boolean | undefined;

/**
 * Make these files (absolute paths; missing ones are skipped) and their parent folders durable.
 * `AUREUS_DURABILITY=fsync` forces the per-file fallback (tests compare both).
 */
export function durableBarrier(files: string[]): BarrierStats {
  const present = files.filter((f) => fs.existsSync(f));
  if (!present.length) return { method: 'none', syncs: 0 };
  const targets = syncfsTargets(present);
  if (targets) {
    let ok = true;
    for (const f of targets) {
      const r = spawnSync('sync', ['-f', f], { stdio: 'ignore' });
      if (r.error || r.status !== 0) {
        ok = false;
        break;
      }
    }
    syncfsWorks = ok;
    if (ok) return { method: 'syncfs', syncs: targets.length };
  }
  return fsyncEach(present);
}

/**
 * `durableBarrier` without blocking the event loop, for the commit transaction's two barriers: an
 * fsync of each file and of each parent folder, all issued at once on libuv's thread pool, while
 * the caller goes on with work that does not depend on the files being durable yet (the
 * transaction's git queries, its `git add` and commit); the promise resolves once they are. The
 * files must be written before this is called. Await it before the step that relies on them.
 *
 * Not syncfs here (issue 18, tenth pass): syncfs writes back every dirty file of the filesystem,
 * other programs' too, so on a busy machine the commit waited for their writes (a `sync -f` took a
 * median 75 ms for a starter episode's stage at load 7–8, against 25 ms for these fsyncs, which
 * the filesystem's journal commits together); each fsync waits only for its own file.
 */
export async function durableBarrierAsync(files: string[]): Promise<BarrierStats> {
  const present = files.filter((f) => fs.existsSync(f));
  if (!present.length) return { method: 'none', syncs: 0 };
  const dirs = [...new Set(present.map((f) => path.dirname(f)))];
  // Folders cannot be fsynced on every platform (Windows): the file data is what matters most.
  const [, folders] = await Promise.all([
    Promise.all(present.map((f) => asyncOpens(() => syncPathAsync(f)))),
    Promise.all(dirs.map((d) => asyncOpens(() => syncPathAsync(d)).then(() => 1, () => 0))),
  ]);
  return { method: 'fsync', syncs: present.length + folders.reduce((a: number, b) => a + b, 0) };
}

async function syncPathAsync(p: string): Promise<void> {
  const h = await fs.promises.open(p, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

/** One path per filesystem (syncfs flushes the whole filesystem that holds it), or null: use fsync. */
function syncfsTargets(present: string[]): string[] | null {
  if (process.env.AUREUS_DURABILITY === 'fsync' || process.platform !== 'linux' || syncfsWorks === false) return null;
  const byDevice = new Map<number, string>();
  for (const f of present) {
    const dev = fs.statSync(f).dev;
    if (!byDevice.has(dev)) byDevice.set(dev, f);
  }
  return [...byDevice.values()];
}

function fsyncEach(files: string[]): BarrierStats {
  const dirs = new Set<string>();
  let syncs = 0;
  for (const f of files) {
    syncPath(f, 'r');
    syncs += 1;
    dirs.add(path.dirname(f));
  }
  for (const d of dirs) {
    // Folders cannot be fsynced on every platform (Windows): the file data is what matters most.
    try {
      syncPath(d, 'r');
      syncs += 1;
    } catch {
      /* not supported here */
    }
  }
  return { method: 'fsync', syncs };
}

function syncPath(p: string, flags: string): void {
  const fd = fs.openSync(p, flags);
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Write a small file that marks a state change (a journal): temp + fsync + rename + fsync of the
 * folder, so once this returns the new state survives power loss. Used after a barrier.
 */
export function writeDurable(abs: string, content: string): void {
  refusedAs(abs, () => {
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    writeFileAtomic.sync(abs, content);
  });
  try {
    syncPath(path.dirname(abs), 'r');
  } catch {
    /* folders cannot be fsynced on every platform */
  }
}
