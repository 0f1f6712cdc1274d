import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import pLimit from 'p-limit';
import { replaceAsync, replaceInFolderAsync, writeAtomicSync, type FileContent } from './atomic-write.js';
import { refusedAsAsync } from './write-refusal.js';

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
 * Written by store/atomic-write.ts rather than with write-file-atomic, which resolves every path
 * component (a JS realpath: one lstat per folder level), stats, chowns and chmods each file and
 * registers exit handlers: ~1 ms of CPU per file against ~0.1 ms (issue 18, bench in
 * docs/benchmarks.md). What it gave is kept: a link is written through to its target, an existing
 * file keeps its mode and owner, and the temp name is `<file>.<digits>`, which recovery removes and
 * the dirty check ignores (pipeline/commit-safety.ts). The file is written whole or not at all; a
 * write the file system refuses is AUR1053 naming `abs` (store/write-refusal.ts).
 */
export function writeVisible(abs: string, content: FileContent): void {
  writeAtomicSync(abs, content, { fsync: false });
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
  // A write that fails part way (a full disk, ENOSPC; a file-size limit, EFBIG) removes its temp
  // file (replaceAsync), or the next run would find it (AUR6053).
  await replaceInFolderAsync(abs, content, { fsync: false });
}

/**
 * `content` to `abs` atomically and durably (temp file, fsync, rename), keeping `mode` when given
 * (an existing file's: the mode given to open is cut by the umask), for a file the user names
 * (`export -o`), whose caller says what a refusal means. Written whole: under `ulimit -f 4` (or a
 * nearly full disk) the limit is EFBIG (ENOSPC), never the file replaced by its first 4096 bytes.
 * The temp file is removed when the write fails.
 */
export async function writeWholeAsync(abs: string, content: string, mode?: number): Promise<void> {
  await replaceAsync(abs, content, { fsync: true, mode });
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
  writeAtomicSync(abs, content);
  try {
    syncPath(path.dirname(abs), 'r');
  } catch {
    /* folders cannot be fsynced on every platform */
  }
}
