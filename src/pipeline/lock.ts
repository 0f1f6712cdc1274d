import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { LOCK_FILE } from '../paths.js';

/**
 * The run lock `.aureus/lock`: one mutating run per world repository. Taken with O_EXCL so two
 * processes can never both believe they hold it. A lock is stale (and silently replaced, with a
 * warning) when its process is gone on this host, or when it is older than `staleAfterMs`
 * (a lock from another host can only be judged by age).
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

export const DEFAULT_STALE_AFTER_MS = 6 * 60 * 60 * 1000;

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else — alive.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockInfo | null {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as LockInfo;
    return typeof v === 'object' && v !== null ? v : null;
  } catch {
    return null;
  }
}

/** Why a lock is stale, or null if it is live. */
export function staleReason(info: LockInfo | null, mtimeMs: number, now: number, staleAfterMs: number): string | null {
  if (!info || typeof info.pid !== 'number') return 'unreadable lock file';
  if (now - mtimeMs > staleAfterMs) return `older than ${Math.round(staleAfterMs / 60000)} minutes`;
  if (info.host === os.hostname() && !pidAlive(info.pid)) return 'process no longer running';
  return null;
}

export function acquireLock(
  root: string,
  command: string,
  opts: { staleAfterMs?: number; warnings?: Diagnostic[] } = {},
): HeldLock {
  const file = path.join(root, LOCK_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const staleAfterMs = opts.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const mine: LockInfo = { pid: process.pid, host: os.hostname(), since: new Date().toISOString(), command };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, JSON.stringify(mine) + '\n');
      fs.closeSync(fd);
      let released = false;
      return {
        file,
        release() {
          if (released) return;
          released = true;
          const cur = readLock(file);
          if (cur && cur.pid === mine.pid && cur.since === mine.since) fs.rmSync(file, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const info = readLock(file);
    let mtime = Date.now();
    try {
      mtime = fs.statSync(file).mtimeMs;
    } catch {
      continue; // vanished between open and stat: retry
    }
    const reason = staleReason(info, mtime, Date.now(), staleAfterMs);
    if (reason === null) {
      throw new AureusError('another aureus run is in progress', {
        exitCode: ExitCode.LOCKED,
        diagnostics: [diag('AUR6002', { pid: info!.pid, host: info!.host, since: info!.since, lock: LOCK_FILE }, { file: LOCK_FILE })],
      });
    }
    opts.warnings?.push(diag('AUR6003', { pid: info?.pid ?? '?', reason }, { file: LOCK_FILE }));
    fs.rmSync(file, { force: true });
  }
  throw new AureusError('could not take the run lock', {
    exitCode: ExitCode.LOCKED,
    diagnostics: [diag('AUR6002', { pid: '?', host: '?', since: '?', lock: LOCK_FILE }, { file: LOCK_FILE })],
  });
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
