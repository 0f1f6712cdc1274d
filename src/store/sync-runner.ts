import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

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

interface Runner {
  child: ChildProcessWithoutNullStreams;
  /** One callback per path sent and not yet answered, in order. */
  waiting: Array<(ok: boolean | undefined) => void>;
  ended: boolean;
}

let runner: Runner | null = null;
let opens = 0;

/** Start the runner (Linux only; nested opens share it). Returns its closer. */
export function openSyncRunner(): () => void {
  opens += 1;
  if (!runner && process.platform === 'linux' && process.env.AUREUS_DURABILITY !== 'fsync') runner = start();
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    opens -= 1;
    if (opens === 0 && runner) {
      runner.child.stdin.end();
      runner = null;
    }
  };
}

/** `sync -f file` through the open runner: true/false, or undefined when it cannot be asked. */
export function syncWithRunner(file: string): Promise<boolean | undefined> {
  const r = runner;
  if (!r || r.ended || /[\n\r\0]/.test(file)) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    r.waiting.push(resolve);
    r.child.stdin.write(`${file}\n`);
  });
}

function start(): Runner | null {
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn('sh', ['-c', SCRIPT], { stdio: 'pipe' });
  } catch {
    return null;
  }
  const r: Runner = { child, waiting: [], ended: false };
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    buffer += d;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      r.waiting.shift()?.(line === '0');
    }
  });
  child.stderr.resume();
  child.stdin.on('error', () => undefined); // a write after the shell died is answered by the close below
  const fail = () => {
    r.ended = true;
    for (const w of r.waiting.splice(0)) w(undefined);
  };
  child.on('error', fail);
  child.on('close', fail);
  return r;
}
