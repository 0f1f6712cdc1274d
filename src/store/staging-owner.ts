import { createHash } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { processAlive } from './process-alive.js';
import { escapeRegExp } from '../core/regex.js';

/**
 * Who owns a staging folder (store/staging.ts), so a folder a killed build left (SIGKILL: no
 * handler runs) is removed by the next build of ANY name in that parent, not only by the next build
 * of the same name (`aureus init a` killed, then `aureus init b` beside it, left `.a.aureus-init-N`
 * for good). Before the folder is made, the build takes a proper-lockfile lock beside it,
 * `<staging>@<host>.lock` (an mkdir whose mtime the owner refreshes while it lives), and releases
 * it once the folder is renamed into place. A sweeping build judges each sibling staging folder:
 *
 * - its lock of this host (the hash of os.hostname()) and its pid (in its name) gone: dead at once;
 * - its lock not refreshed for STALE_MS (a killed or hung build, of any host): dead;
 * - no lock (a build of an older aureus): dead when its pid is gone, as before;
 * - otherwise a build at work, left alone.
 *
 * Other hosts' pids are never looked up (a shared folder on NFS): only their lock's age counts.
 */

/** A live owner refreshes its lock every STALE_MS / 2; one this much older is a dead build's. */
const STALE_MS = 10_000;

const HOST = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);

/** The bytes the lock's name adds to its folder's: `@` and the host hash, `.lock`. */
export const LOCK_SUFFIX_BYTES = 1 + 8 + 5;

/** The lock of a staging folder made by this process on this host. */
const lockOf = (staging: string, host = HOST): string => `${staging}@${host}.lock`;

/**
 * Take the lock of `staging`, then make the folder (the lock first: a folder is never there without
 * its owner's lock, so a lockless one is an older aureus's). Returns the release, for once the
 * folder is renamed into place (or removed); proper-lockfile also releases it when the process exits.
 */
export async function claimStaging(staging: string): Promise<() => Promise<void>> {
  const opts = { realpath: false, stale: STALE_MS, lockfilePath: lockOf(staging), onCompromised: () => undefined };
  const release = await lockfile.lock(staging, opts);
  try {
    await mkdir(staging);
  } catch (e) {
    await release().catch(() => undefined);
    throw e;
  }
  return () => release().catch(() => undefined);
}

/** A staging folder or its lock in a listing: its stem (before the pid), pid, and lock host if a lock. */
interface Entry {
  name: string;
  staging: string;
  pid: number;
  host: string | null;
}

function entriesOf(names: string[], pattern: RegExp): Entry[] {
  const out: Entry[] = [];
  for (const name of names) {
    const m = pattern.exec(name);
    if (!m) continue;
    out.push({ name, staging: m[1]!, pid: Number(m[2]), host: m[3] ?? null });
  }
  return out;
}

/** Whether the lock `lock` of `staging` is held by a live owner (judged as the module comment says). */
async function ownerAlive(dir: string, staging: string, pid: number, host: string): Promise<boolean> {
  if (host === HOST && !processAlive(pid)) return false;
  return lockfile.check(path.join(dir, staging), { realpath: false, stale: STALE_MS, lockfilePath: path.join(dir, lockOf(staging, host)) }).catch(() => false);
}

/**
 * Remove the staging folders (and their locks) in `dir` whose build is dead, whatever target they
 * were for: every name `<prefix><any name><infix><pid>` (and `…@<host>.lock`). This process's own are kept.
 */
export async function sweepDeadStaging(dir: string, prefix: string, infix: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const entries = entriesOf(names, new RegExp(`^(${escapeRegExp(prefix)}.*${escapeRegExp(infix)}(\\d+))(?:@([0-9a-f]{8})\\.lock)?$`));
  const locks = new Map<string, string[]>();
  for (const e of entries) if (e.host !== null) locks.set(e.staging, [...(locks.get(e.staging) ?? []), e.host]);
  const dead = new Map<string, boolean>();
  for (const e of entries) {
    if (e.pid === process.pid || dead.has(e.staging)) continue;
    const hosts = locks.get(e.staging) ?? [];
    const alive = hosts.length ? (await Promise.all(hosts.map((h) => ownerAlive(dir, e.staging, e.pid, h)))).some(Boolean) : processAlive(e.pid);
    dead.set(e.staging, !alive);
  }
  // The folder first, then its lock: a lock never outlives its folder's removal unseen.
  const doomed = entries.filter((e) => dead.get(e.staging)).sort((a, b) => Number(a.host !== null) - Number(b.host !== null));
  for (const e of doomed) await rm(path.join(dir, e.name), { recursive: true, force: true }).catch(() => undefined);
}
