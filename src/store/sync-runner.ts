import { LineProcess } from '../io/line-process.js';

/**
 * A small `sh` that runs `sync -f <path>` for each path it reads, one per line, and answers 0 or 1
 * (issue 18). Node starts a process by forking itself, and that fork's price grows with the heap:
 * the two barriers at the end of an episode's commit each cost a fork of the full-grown process
 * (~10–20 ms of the main thread). Started at the beginning of the run, while the process is small,
 * this shell forks the `sync` processes instead (a fork of a shell costs next to nothing).
 *
 * Opened and closed by the run (`openSyncRunner`); `syncWithRunner` answers undefined when no
 * runner is open or it cannot take the path (then the caller spawns `sync` itself).
 */

const SCRIPT = 'while IFS= read -r f; do if sync -f "$f" >/dev/null 2>&1; then echo 0; else echo 1; fi; done';

let runner: LineProcess | null = null;
let opens = 0;

/** Start the runner (Linux only; nested opens share it). Returns its closer. */
export function openSyncRunner(): () => void {
  opens += 1;
  if (!runner && process.platform === 'linux' && process.env.AUREUS_DURABILITY !== 'fsync') runner = LineProcess.start('sh', ['-c', SCRIPT]);
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    opens -= 1;
    if (opens === 0 && runner) {
      runner.end();
      runner = null;
    }
  };
}

/** `sync -f file` through the open runner: true/false, or undefined when it cannot be asked. */
export async function syncWithRunner(file: string): Promise<boolean | undefined> {
  const answer = await runner?.ask(file);
  return answer === undefined ? undefined : answer === '0';
}
