import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { processAlive } from '../store/process-alive.js';
import { readRegularFileSync } from '../store/regular-file.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { AUREUS_DIR, LOCK_FILE } from '../paths.js';
import { refusedAs, writeRefusal } from '../store/write-refusal.js';

/**
 * The run lock `.aureus/lock`: one mutating run per world repository.
 *
 * The lock itself is a proper-lockfile lock (an atomic mkdir of `.aureus/lock`, whose mtime the
 * holder refreshes while it lives). Who holds it is written next to it, in `.aureus/lock.json`.
 * Every change of the lock — take, judge stale and remove, release — happens under a short guard
 * lock (`.aureus/lock.guard`, also proper-lockfile), so no process ever sees a lock without its
 * owner record, and no process can delete a lock another just took (no check-then-delete race).
 *
 * Stale (staleReason): a lock whose holder stopped refreshing it for `staleAfterMs`, whatever pid its
 * owner record names (a live 7-hour run keeps it: it refreshes it every 30 s), and at once a lock of
 * this host whose process is gone.
 */
export interface LockInfo {
  pid: number;
  host: string;
  since: string; // ISO time, informational only (never committed)
  command: string;
}

export interface HeldLock {
  file: string;
  release(): void;
}

/** A holder refreshes the lock's mtime every REFRESH_MS; another host's lock this much older is dead. */
export const DEFAULT_STALE_AFTER_MS = 5 * 60 * 1000;
const REFRESH_MS = 30 * 1000;
/** The guard is held for milliseconds; one left by a killed process is taken over after this. */
const GUARD_STALE_MS = 5000;

/** An owner record is one short JSON line: anything much longer is not one. */
const OWNER_MAX_BYTES = 64 * 1024;

/**
 * The lock's owner record, or null when it is missing or unreadable (said as such: AUR6062, or the
 * stale lock taken over). Read through the store's non-blocking, bounded reader: fs.readFileSync
 * waited forever in open() on a FIFO in its place (every command that takes the run lock, and
 * `play --resume` of that session, hung past Ctrl-C), and read a huge file whole.
 */
function readOwner(file: string): LockInfo | null {
  try {
    const v = JSON.parse(readRegularFileSync(file, OWNER_MAX_BYTES)) as LockInfo;
    return typeof v === 'object' && v !== null && typeof v.pid === 'number' ? v : null;
  } catch {
    return null;
  }
}

/**
 * Why a lock is stale, or null if it is live. proper-lockfile's rule first: a holder refreshes the
 * lock's mtime every REFRESH_MS, so a lock not refreshed for `staleAfterMs` (ten refreshes missed) is
 * stale, whoever its owner record names: a pid still alive then is another process that reused the
 * number (or a run stopped for minutes). An mtime ahead of the clock by more than that is no refresh
 * either (a clock set back, a lock from a skewed host): otherwise it would stay live for years. Within
 * the window, liveness first on this host: a lock whose process is gone is stale at once.
 */
export function staleReason(info: LockInfo | null, mtimeMs: number, now: number, staleAfterMs: number): string | null {
  const unrefreshed = unrefreshedFor(mtimeMs, now, staleAfterMs);
  const local = info !== null && info.host === os.hostname();
  if (local && !processAlive(info.pid)) return 'process no longer running';
  if (unrefreshed === null) return null;
  if (!info) return unrefreshed;
  if (local) return `${unrefreshed}, though a live holder refreshes it every ${REFRESH_MS / 1000} s: pid ${info.pid} is another process now, or a stopped one`;
  return unrefreshed;
}

/** How the lock's mtime says its holder stopped refreshing it, or null while it is fresh. */
function unrefreshedFor(mtimeMs: number, now: number, staleAfterMs: number): string | null {
  const when = Number.isFinite(mtimeMs) ? new Date(mtimeMs).toISOString() : String(mtimeMs);
  if (now - mtimeMs > staleAfterMs) return `not refreshed since ${when}, over ${Math.round(staleAfterMs / 60000)} minutes ago`;
  if (mtimeMs - now > staleAfterMs) return `last refreshed at ${when}, in the future: not a refresh this clock can trust`;
  return null;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** `.aureus` must be a folder Aureus can write in; anything else is a clear error (exit 3), not a crash. */
function ensureAureusDir(root: string): void {
  const dir = path.join(root, AUREUS_DIR);
  try {
    fs.mkdirSync(dir, { recursive: true });
    if (fs.statSync(dir).isDirectory()) return;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTDIR') throw writeRefusal(e, dir) ?? lockError('AUR6055', { path: AUREUS_DIR, reason: code ?? String(e) });
  }
  throw lockError('AUR6055', { path: AUREUS_DIR, reason: 'it is not a folder' }, ExitCode.INVALID_WORLD);
}

function lockError(code: string, args: Record<string, unknown>, exitCode: (typeof ExitCode)[keyof typeof ExitCode] = ExitCode.LOCKED): AureusError {
  const d = diag(code, args, { file: String(args.path ?? LOCK_FILE) });
  return new AureusError(d.message, { exitCode, diagnostics: [d] });
}

/** Run `fn` holding the guard of the lock `rel` (a few tries: another process holds it only for milliseconds). */
function underGuard<T>(root: string, rel: string, fn: () => T): T {
  const guard = `${rel}.guard`;
  const opts = { lockfilePath: path.join(root, guard), realpath: false, stale: GUARD_STALE_MS };
  let release: (() => void) | null = null;
  for (let i = 0; release === null; i++) {
    try {
      release = lockfile.lockSync(path.join(root, guard), opts);
    } catch (e) {
      // A folder the user may not write (or a full, read-only file system) is said as such (AUR1053,
      // exit 11), not as a lock held by another run or a name clash.
      if ((e as NodeJS.ErrnoException).code !== 'ELOCKED' || i > 400) throw writeRefusal(e, opts.lockfilePath) ?? lockError('AUR6055', { path: guard, reason: (e as Error).message });
      sleepSync(15);
    }
  }
  try {
    return fn();
  } finally {
    release();
  }
}

/** What holds the lock `rel` now: nothing, Aureus's lock directory, or something else (a file). */
function lockState(root: string, rel: string): { kind: 'none' } | { kind: 'dir' | 'file'; mtimeMs: number } {
  try {
    const st = fs.lstatSync(path.join(root, rel));
    return { kind: st.isDirectory() ? 'dir' : 'file', mtimeMs: st.mtimeMs };
  } catch {
    return { kind: 'none' };
  }
}

/** Remove a stale lock (guard held). A lock file of an older aureus is a plain file holding the owner. */
function removeStale(root: string, rel: string, kind: 'dir' | 'file'): void {
  const abs = path.join(root, rel);
  try {
    if (kind === 'dir') fs.rmdirSync(abs);
    else fs.rmSync(abs);
    fs.rmSync(path.join(root, `${rel}.json`), { force: true });
  } catch (e) {
    throw lockError('AUR6056', { path: rel, reason: (e as NodeJS.ErrnoException).code ?? String(e) });
  }
}

function take(root: string, rel: string, mine: LockInfo): () => void {
  // proper-lockfile keys its in-process registry by the first argument: one key per lock.
  const release = refusedAs(path.join(root, rel), () => lockfile.lockSync(path.join(root, rel), {
    lockfilePath: path.join(root, rel),
    realpath: false,
    // Judged by this module (liveness first); proper-lockfile only keeps the mtime fresh.
    stale: 2 ** 31 - 1,
    update: REFRESH_MS,
    // Someone removed the lock by hand: the run goes on (the commit transaction keeps git safe).
    onCompromised: () => undefined,
  }));
  refusedAs(path.join(root, `${rel}.json`), () => fs.writeFileSync(path.join(root, `${rel}.json`), JSON.stringify(mine) + '\n'));
  return release;
}

/** The run lock's refusal: another run holds it. */
const runLockBusy = (info: LockInfo | null): AureusError =>
  new AureusError('another aureus run is in progress', {
    exitCode: ExitCode.LOCKED,
    diagnostics: [diag('AUR6002', { pid: info?.pid ?? '?', host: info?.host ?? '?', since: info?.since ?? '?', lock: LOCK_FILE }, { file: LOCK_FILE })],
  });

export function acquireLock(root: string, command: string, opts: { staleAfterMs?: number; warnings?: Diagnostic[] } = {}): HeldLock {
  return acquireLockAt(root, LOCK_FILE, command, runLockBusy, opts);
}

/**
 * A lock of the same kind at `rel` (a folder under `.aureus`, made if missing), refused by `busy`
 * while a live holder has it: the run lock above, and a play session's own lock (src/play/session-lock.ts).
 */
export function acquireLockAt(root: string, rel: string, command: string, busy: (holder: LockInfo | null) => AureusError, opts: { staleAfterMs?: number; warnings?: Diagnostic[] } = {}): HeldLock {
  ensureAureusDir(root);
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  const staleAfterMs = opts.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const mine: LockInfo = { pid: process.pid, host: os.hostname(), since: new Date().toISOString(), command };
  const owner = path.join(root, `${rel}.json`);
  const release = underGuard(root, rel, () => {
    const state = lockState(root, rel);
    if (state.kind !== 'none') {
      const info = readOwner(state.kind === 'dir' ? owner : path.join(root, rel));
      const reason = staleReason(info, state.mtimeMs, Date.now(), staleAfterMs);
      // A lock with no owner record (lock.json gone or unreadable) has no pid to name: said as such.
      if (reason === null) throw info ? busy(info) : lockError('AUR6062', { path: rel, owner: `${rel}.json`, minutes: Math.round(staleAfterMs / 60000) });
      opts.warnings?.push(info ? diag('AUR6003', { pid: info.pid, reason }, { file: rel }) : diag('AUR6063', { path: rel, reason }, { file: rel }));
      removeStale(root, rel, state.kind);
    }
    return take(root, rel, mine);
  });
  let released = false;
  return {
    file: path.join(root, rel),
    release() {
      if (released) return;
      released = true;
      underGuard(root, rel, () => {
        fs.rmSync(owner, { force: true });
        try {
          release();
        } catch {
          /* already gone (removed by hand): nothing to release */
        }
      });
    },
  };
}

/** Run `fn` holding the lock; always releases it (but a SIGKILL leaves it — hence stale detection). */
export async function withLock<T>(root: string, command: string, fn: () => Promise<T>, warnings?: Diagnostic[]): Promise<T> {
  const lock = acquireLock(root, command, { warnings });
  try {
    return await fn();
  } finally {
    lock.release();
  }
}
