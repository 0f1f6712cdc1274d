import { runWithShell } from '../io/shell-runner.js';

/**
 * The durability barriers' `sync -f <path>` through the run's small shell (io/shell-runner.ts,
 * issue 18): Node starts a process by forking itself, and the two barriers at the end of an
 * episode's commit each cost a fork of the full-grown process (~10–20 ms of the main thread); the
 * shell, started with the run while the process was small, forks `sync` instead.
 *
 * `syncWithRunner` answers undefined when no shell is open or it cannot run the command (then the
 * caller spawns `sync` itself), false when it failed or its outcome is unknown.
 */
export async function syncWithRunner(file: string): Promise<boolean | undefined> {
  // In the background: the commit's `git add` and `git commit` run while the barrier does.
  let r;
  try {
    r = await runWithShell(process.cwd(), ['sync', '-f', file], undefined, { background: true });
  } catch {
    return false; // its outcome is unknown: the caller falls back to an fsync of each file
  }
  return r === undefined ? undefined : r.code === 0;
}
