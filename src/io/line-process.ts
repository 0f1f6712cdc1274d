import { spawn, type ChildProcessWithoutNullStreams, type SpawnOptions } from 'node:child_process';

/**
 * A long-lived child process that answers each line written to its stdin with one line on its
 * stdout, in order (issue 18: `git cat-file --batch-check` for the git port's ref questions, and the
 * small `sh` that starts the run's git commands). Started once while the Node process is
 * small, it spares each question a fork of the grown process.
 *
 * `ask` answers undefined when the process cannot answer: it failed to start, died (every waiting
 * question is then answered undefined), or the question does not fit on one line. The caller then
 * asks another way.
 */
export class LineProcess {
  private readonly waiting: Array<(line: string | undefined) => void> = [];
  /** Questions asked with a key (askKeyed): answered by the line that starts with that key and a space. */
  private readonly keyed = new Map<string, (line: string | undefined) => void>();
  private ended = false;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      buffer += d;
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        const key = line.slice(0, line.indexOf(' '));
        const byKey = this.keyed.get(key);
        if (byKey) {
          this.keyed.delete(key);
          byKey(line);
        } else this.waiting.shift()?.(line);
      }
    });
    child.stderr.resume();
    // A write after the process died (EPIPE) is answered by the close below, not thrown.
    child.stdin.on('error', () => undefined);
    const fail = () => {
      this.ended = true;
      for (const w of [...this.waiting.splice(0), ...this.keyed.values()]) w(undefined);
      this.keyed.clear();
    };
    child.on('error', fail);
    child.on('close', fail);
  }

  /** Starts `command args`; null when Node cannot spawn it. */
  static start(command: string, args: string[], opts: Pick<SpawnOptions, 'cwd' | 'env' | 'detached'> = {}): LineProcess | null {
    try {
      const child = spawn(command, args, { ...opts, stdio: 'pipe', windowsHide: true });
      // A spawn refused for want of descriptors (EMFILE, ENFILE) returns a child with no pipes and
      // emits 'error' on the next tick: unheard, that event crashed Node with a dump of the arguments.
      if (!child.stdin || !child.stdout || !child.stderr) {
        child.on('error', () => undefined);
        return null;
      }
      return new LineProcess(child as ChildProcessWithoutNullStreams);
    } catch {
      return null;
    }
  }

  /** False once the process has exited or failed. */
  get alive(): boolean {
    return !this.ended;
  }

  /** Writes `question` as one line and resolves with the answer line (undefined: ask another way). */
  ask(question: string): Promise<string | undefined> {
    if (this.ended || /[\n\r\0]/.test(question)) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.stdin.write(`${question}\n`);
    });
  }

  /**
   * As ask, for a process that may answer out of order: the answer is the line that starts with
   * `key` and a space (the key holds no space; one question per key at a time).
   */
  askKeyed(key: string, question: string): Promise<string | undefined> {
    if (this.ended || /[\n\r\0 ]/.test(key) || this.keyed.has(key) || /[\n\r\0]/.test(question)) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.keyed.set(key, resolve);
      this.child.stdin.write(`${question}\n`);
    });
  }

  /** Closes its input: the process exits once it has answered what it was asked. */
  end(): void {
    this.child.stdin.end();
  }
}
