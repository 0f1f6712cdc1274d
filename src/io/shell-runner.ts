import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LineProcess } from './line-process.js';

/**
 * A small `sh` that starts the run's child processes (issue 18). Node starts a process by forking
 * itself, and that fork's price grows with the heap: an episode's commit forked the full-grown
 * process (~150 MB) for `git add`, `git commit`, `git tag` (and, until the tenth pass, the
 * durability barriers' `sync -f`), each ~10–20 ms of the main thread (more under load: the parent
 * waits until the child has exec'd), and the preflight forked it three more times. Started at the
 * beginning of the run, while the process is small, this shell forks them instead (a fork of a
 * shell costs next to nothing), one command at a time, in the order asked; a command asked to run
 * in the background runs alongside the next ones instead (with SIGINT ignored, as POSIX has it for
 * a shell's background commands).
 *
 * Each request is one line: an id, the working folder and the command's words, every one of them
 * single-quoted for `eval` (a line feed or carriage return inside a word is spelled as a variable
 * the script defines, so any text fits on one line and nothing in it is ever run as shell code).
 * The command runs with stdin from /dev/null and its stdout and stderr in files of a private
 * temporary folder; the answer line is the id and the exit code, and the output is read back from
 * those files. The shell removes the folder when its input closes (the run ends, or Node exits).
 *
 * A command given an environment gets exactly that one: what differs from the shell's (PWD and
 * OLDPWD included) is unset and exported by the subshell before it execs the command, or, for a
 * whole environment or a name a shell cannot export, set by `env` (issue 18, twelfth pass: an
 * `env` per command was one more exec, with its own search of PATH, on the commit's path).
 * `runWithShell` answers undefined whenever the shell cannot stand in exactly for a spawn: none is
 * open, a word holds a NUL, the shell has died, or the command could not be started there (exit
 * 126/127: the caller then spawns it itself, which reports the failure as it always did). Once a
 * command is handed over, it is never handed back: if its outcome cannot be known (the shell ends
 * before answering, its output files cannot be read), that is an error, not a second run.
 */

const SCRIPT = [
  "NL='",
  "'",
  "CR=$(printf '\\r')",
  'd=$1',
  "trap 'rm -rf \"$d\"' EXIT",
  // The shell has a process group of its own (openShellRunner), so a terminal's Ctrl-C does not reach
  // it; a SIGINT sent to it all the same is outlived as Node outlives one (a run stops at its next
  // step); a handled signal is reset to its default in the commands it starts. The shell
  // notes that it saw one: a foreground command that then ends with 130 (128 + SIGINT) was killed
  // by it, and is answered "id INT" (a shell's $? cannot tell that from a command's own exit 130).
  "trap 'intr=1' INT",
  "trap 'exit 129' HUP",
  "trap 'exit 143' TERM",
  // The environment's changes: through `env` when the line asks (`e`: a whole environment, or a
  // name the shell cannot export), else by the subshell itself (one exec less per command).
  'run() {',
  '  (cd -- "$dir" || exit 126',
  '  case $how in *e) exec env "$@";; esac',
  '  while [ "$1" = -u ]; do unset "$2"; shift 2; done',
  '  while case $1 in *=*) true;; *) false;; esac; do export "$1"; shift; done',
  '  exec "$@") </dev/null >"$d/$id.o" 2>"$d/$id.e"',
  '  s=$?; if [ "$s" = 130 ] && [ -n "$intr" ]; then s=INT; fi; echo "$id $s"',
  '}',
  'while IFS= read -r line; do',
  '  eval "set -- $line"',
  '  id=$1; how=$2; dir=$3; shift 3',
  '  intr=; case $how in b*) run "$@" & ;; *) run "$@";; esac',
  'done',
  'wait',
].join('\n');

interface Runner {
  process: LineProcess;
  dir: string;
  /** The environment the shell was started with (envWords). */
  env: Map<string, string>;
  next: number;
}

let runner: Runner | null = null;
let opens = 0;

/**
 * `env`'s words that turn the shell's environment into `want`: the variables that differ set, and
 * PWD and OLDPWD (which the shell itself sets) set or unset as asked; all of it (`-i`) when `want`
 * lacks one of the shell's other variables. Short lines: the shell reads its input a byte at a time.
 */
function envWords(shell: Map<string, string>, want: Map<string, string>): string[] {
  const own = ['PWD', 'OLDPWD'];
  for (const k of shell.keys()) if (!own.includes(k) && !want.has(k)) return ['-i', ...[...want].map(([k2, v]) => `${k2}=${v}`)];
  const unset = own.filter((k) => !want.has(k)).flatMap((k) => ['-u', k]);
  return [...unset, ...[...want].filter(([k, v]) => own.includes(k) || shell.get(k) !== v).map(([k, v]) => `${k}=${v}`)];
}

/**
 * Whether the subshell can make these `env` words' changes itself (`unset`, then `export`): no
 * `-i`, and every name one the shell can export (`export` of another name would end the subshell).
 */
function shellCanSet(words: string[]): boolean {
  const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-u') {
      if (!NAME.test(words[++i] ?? '')) return false;
    } else if (!NAME.test(w.slice(0, w.indexOf('=')))) return false;
  }
  return true;
}

/** One word for `eval`: single-quoted, line breaks spelled as the script's $NL and $CR. */
export function shellWord(text: string): string {
  return `'${text.replace(/'/g, "'\\''").replace(/\n/g, `'"$NL"'`).replace(/\r/g, `'"$CR"'`)}'`;
}

/** The open shell's private output folder, or null when none is open (for tests: it must go with the shell). */
export function shellRunnerDir(): string | null {
  return runner?.dir ?? null;
}

/** Start the shell (Linux only; nested opens share it) with `env` (default: this process's). Returns its closer. */
export function openShellRunner(env: Record<string, string | undefined> = process.env): () => void {
  opens += 1;
  if (!runner && process.platform === 'linux') {
    let dir: string | null = null;
    try {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-sh-'));
      const started = new Map(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
      // In a process group of its own: a terminal's Ctrl-C reaches Node alone, whose handler decides (a run stops at its
      // next step, a commit under way is finished first). In the terminal's group, the Ctrl-C killed the commit's own
      // git commands, and the commit said to be "finished first" was rolled back (exit 130, nothing committed).
      const child = LineProcess.start('sh', ['-c', SCRIPT, 'sh', dir], { env: Object.fromEntries(started), detached: true });
      if (child) runner = { process: child, dir, env: started, next: 0 };
      else fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    opens -= 1;
    if (opens === 0 && runner) {
      runner.process.end();
      runner = null;
    }
  };
}

export interface ShellRunResult {
  /** Exit code; null when the command was killed by Ctrl-C (as a spawned child's close reports it). */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Killed by Ctrl-C (the shell's INT), as git/exec.ts GitRunResult says it. */
  interrupted?: true;
}

/**
 * `command` (program and arguments) in `cwd` through the open shell, with `env` as its whole
 * environment (undefined: this process's at the shell's start). Undefined when the shell cannot
 * run it exactly as a spawn would (see above): the caller then spawns it. Throws when the command
 * was handed to the shell and its outcome cannot be known (the shell ended before answering, or
 * its output could not be read back): it may have run, and a commit or a tag must not run twice.
 */
export async function runWithShell(
  cwd: string,
  command: string[],
  env?: Record<string, string | undefined>,
  opts: { background?: boolean } = {},
): Promise<ShellRunResult | undefined> {
  const r = runner;
  if (!r || !r.process.alive || !command.length || command[0]!.includes('=')) return undefined;
  // Exactly this environment, as a spawn with `env` would give (envWords).
  const vars = env === undefined ? [] : Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined);
  if (vars.some(([k]) => k === '' || k.startsWith('-') || k.includes('='))) return undefined;
  const changes = env === undefined ? [] : envWords(r.env, new Map(vars));
  const words = [path.resolve(cwd), ...changes, ...command];
  if (words.some((w) => w.includes('\0'))) return undefined;
  const id = String(r.next++);
  const how = (opts.background ? 'b' : 'f') + (shellCanSet(changes) ? '' : 'e');
  const line = await r.process.askKeyed(id, [id, how, ...words.map(shellWord)].join(' '));
  const m = line === undefined ? null : /^(\d+) (\d+|INT)$/.exec(line);
  const what = `\`${command.slice(0, 2).join(' ')}\``;
  if (!m || m[1] !== id) throw new Error(`the run's shell ended while ${what} was handed to it: it may have run, so it is not run again`);
  const read = (ext: string) => {
    const file = path.join(r.dir, `${id}.${ext}`);
    try {
      return fs.readFileSync(file, 'utf8');
    } finally {
      fs.rmSync(file, { force: true });
    }
  };
  let out: { stdout: string; stderr: string };
  try {
    out = { stdout: read('o'), stderr: read('e') };
  } catch (e) {
    throw new Error(`${what} ran, but its output could not be read back from ${r.dir} (${(e as Error).message}): it is not run again`);
  }
  if (m[2] === 'INT') return { code: null, ...out, interrupted: true };
  const code = Number(m[2]);
  // 130 without the shell's own INT (above): SIGINT reached the command alone, or it exited 130 itself (git never does:
  // a git killed by a Ctrl-C sent to it, not to the group). The code stays as it came; `interrupted` says what it means to git.
  if (code === 130) return { code, ...out, interrupted: true };
  return code === 126 || code === 127 ? undefined : { code, ...out };
}
