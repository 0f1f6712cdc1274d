import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { LOCK_SUFFIX_BYTES } from './staging-owner.js';
import { processAlive } from './process-alive.js';

/**
 * The one way a whole new repository is built out of sight and moved into place, all or nothing:
 * `aureus init` (store/scaffold.ts) and `aureus import` (import/write.ts). The repository is built
 * in a sibling staging folder named after the target and this process, and renamed onto the target
 * only when complete. A failure, or Ctrl-C (the caller's abort signal), removes the staging folder
 * and fails with the caller's "interrupted" error (exit 130); a second Ctrl-C quits at once
 * (process.exit, cli/commands/run-shared.ts interruptSignal) and the folder goes on exit; one a
 * process killed outright left (SIGKILL: no handler runs) is swept by the next build of that target
 * (an init's, by the next init of any name in that parent: staging-owner.ts).
 */

/** The staging folder of `dir` for this process: `<dir><infix><pid>`, or `.<name><infix><pid>` beside it when `hidden`. */
export function stagingFolder(dir: string, infix: string, o: { hidden?: boolean } = {}): string {
  return path.join(path.dirname(dir), `${stagingStem(dir, infix, o)}${process.pid}`);
}

/**
 * Bytes a file name may have (NAME_MAX on Linux and macOS), less room for the pid (at most 10
 * digits) and for the owner lock's suffix beside the folder (staging-owner.ts).
 */
const NAME_BYTES = 255 - 10 - LOCK_SUFFIX_BYTES;

/**
 * A staging folder's name before its pid. A legal target name near the 255-byte limit made the
 * sibling's name too long (ENAMETOOLONG: `init` of a 240-character folder failed): then the
 * target's name is cut (at a character, never inside one) and a hash of the whole name keeps
 * stems of different long names apart.
 */
function stagingStem(dir: string, infix: string, o: { hidden?: boolean }): string {
  const dot = o.hidden ? '.' : '';
  const name = path.basename(dir);
  if (Buffer.byteLength(dot + name + infix) <= NAME_BYTES) return dot + name + infix;
  const tag = `~${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
  let cut = name;
  while (Buffer.byteLength(dot + cut + tag + infix) > NAME_BYTES) cut = [...cut].slice(0, -1).join('');
  return dot + cut + tag + infix;
}

/**
 * The staging folders earlier builds of `dir` left when they were killed outright are removed, once
 * their process is gone: each is a partial repository nobody will finish (tens of megabytes for a
 * large import). A live one is another build at work and is left alone.
 */
export async function sweepStaleStaging(dir: string, infix: string, o: { hidden?: boolean } = {}): Promise<void> {
  const prefix = stagingStem(dir, infix, o);
  const names = await readdir(path.dirname(dir)).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || !/^\d+$/.test(name.slice(prefix.length))) continue;
    const pid = Number(name.slice(prefix.length));
    if (pid !== process.pid && processAlive(pid)) continue;
    await rm(path.join(path.dirname(dir), name), { recursive: true, force: true }).catch(() => undefined);
  }
}

export interface StagingOptions {
  /** Ctrl-C (the CLI's interruptSignal): the build stops and fails with `interrupted()`. */
  signal?: AbortSignal;
  /** The error of a build the signal stopped (exit 130, saying nothing was left). */
  interrupted: () => Error;
  /** What to remove if the process exits mid-build (default `staging`; a parent folder the build created holds it). */
  removeOnExit?: string;
  /** The release of the staging folder's owner lock (staging-owner.ts claimStaging): once built and renamed, or removed. */
  release?: () => Promise<void>;
}

/**
 * Run `build` (which fills `staging` and renames it into place) so that nothing of it survives a
 * failure or an interrupt: the staging folder is removed (also on a quitting second Ctrl-C), and a
 * failure while the signal is aborted (a git command it stopped, a step that checked it) becomes
 * `interrupted()`.
 */
export async function inStaging<T>(staging: string, o: StagingOptions, build: () => Promise<T>): Promise<T> {
  const onExit = () => rmSync(o.removeOnExit ?? staging, { recursive: true, force: true });
  process.on('exit', onExit);
  try {
    return await build();
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    throw o.signal?.aborted ? o.interrupted() : e;
  } finally {
    process.off('exit', onExit);
    await o.release?.();
  }
}

/** Throws the signal's reason once it is aborted: a build checks between its steps. */
export function stopIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}

/**
 * TEST-ONLY HOOK: `AUREUS_TEST_SIGINT_AT=<name>` sends this process a real SIGINT at the named point
 * (`AUREUS_TEST_SIGTERM_AT=<name>` a SIGTERM), through the OS and the CLI's handler, which runs at the
 * event loop's next turn while the step after the point is under way. Whether it sent one. Names:
 * import-git-add (import/write.ts), init-copy and init-git-add (store/scaffold.ts). Never set either
 * outside tests.
 */
export function signalAt(name: string): boolean {
  const signal = process.env.AUREUS_TEST_SIGINT_AT === name ? 'SIGINT' : process.env.AUREUS_TEST_SIGTERM_AT === name ? 'SIGTERM' : undefined;
  if (signal) process.kill(process.pid, signal);
  return signal !== undefined;
}
