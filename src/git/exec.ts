import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { LineProcess } from '../io/line-process.js';
import { tooManyOpenFiles } from '../io/open-files.js';
import { openShellRunner, runWithShell } from '../io/shell-runner.js';

/**
 * Git processes run without simple-git: a one-shot command whose exit code is part of the answer
 * (`gitRun`), and one long-lived `git cat-file --batch-check` that resolves any number of names
 * (`RefReader`). Issue 18: every process Node starts costs a fork of the whole (large) Node
 * process on the main thread, so the commit of an episode asks its questions of one process.
 */

/**
 * The GIT_* variables a child git keeps, each for its reason (git help git, "ENVIRONMENT"); every
 * other one is dropped. Dropped on purpose: what points git at another repository or index
 * (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY, GIT_ALTERNATE_OBJECT_DIRECTORIES,
 * GIT_COMMON_DIR, GIT_NAMESPACE, GIT_SHALLOW_FILE, GIT_QUARANTINE_PATH, GIT_PREFIX, GIT_CEILING_DIRECTORIES,
 * GIT_DISCOVERY_ACROSS_FILESYSTEM: a caller's, e.g. inside a hook, must not send our commits
 * elsewhere); what launches programs (GIT_EDITOR, GIT_SEQUENCE_EDITOR, GIT_PAGER, GIT_ASKPASS,
 * GIT_SSH*, GIT_EXTERNAL_DIFF); what changes how our pathspecs are read (GIT_*_PATHSPECS) or
 * adds to the output we parse (GIT_TRACE*).
 */
const KEPT_GIT_VARS = new Set([
  // The caller's identity and dates for our commits (docs/workflow.md).
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_DATE',
  // The user's configuration, given as files or values instead of ~/.gitconfig (CI runners set
  // safe.directory, the identity or signing this way); it is read as git reads its config files.
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_CONFIG_COUNT',
  // What `git -c key=value` hands to the programs it starts (Aureus run from a git alias).
  'GIT_CONFIG_PARAMETERS',
  // Where this git installation finds its own programs (relocated installs need it).
  'GIT_EXEC_PATH',
  // How `git init` makes a repository, as it does for the user's own `git init`.
  'GIT_TEMPLATE_DIR',
  'GIT_DEFAULT_HASH',
]);
/** GIT_CONFIG_KEY_<n> / GIT_CONFIG_VALUE_<n>: the entries GIT_CONFIG_COUNT counts. */
const CONFIG_ENTRY = /^GIT_CONFIG_(KEY|VALUE)_\d+$/;
/** Non-GIT_ program-launching variables. */
const DROPPED_VARS = new Set(['EDITOR', 'VISUAL', 'PAGER', 'PREFIX', 'SSH_ASKPASS']);

/**
 * The child environment, read from process.env at each command (tests and callers may change it):
 * program-launching variables are dropped (Aureus never opens an editor or pager), and so is every
 * GIT_* variable but the identity, dates and configuration ones (KEPT_GIT_VARS says why each).
 */
export function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    const upper = k.toUpperCase();
    if (upper.startsWith('GIT_') && !KEPT_GIT_VARS.has(upper) && !CONFIG_ENTRY.test(upper)) continue;
    if (DROPPED_VARS.has(upper)) continue;
    env[k] = v;
  }
  return env;
}

/**
 * Whether PATH names a folder holding an executable `git`: asked only after a git command failed,
 * because a missing git fails differently by how it was started (a spawn's ENOENT, the run shell's
 * exit 127), and either must be said as itself, not as "not a repository" or "git init failed".
 */
export function gitOnPath(): boolean {
  const names = process.platform === 'win32' ? ['git.exe', 'git.cmd', 'git'] : ['git'];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const name of names) {
      try {
        const file = path.join(dir || '.', name);
        fs.accessSync(file, fs.constants.X_OK);
        if (fs.statSync(file).isFile()) return true;
      } catch {
        // Not there, or not executable: the next folder.
      }
    }
  }
  return false;
}

export interface GitRunResult {
  /** Exit code; null when git could not be started or was killed. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Why git could not be started, when Node says (a spawn's errno error: ENOENT, EMFILE…). */
  startError?: NodeJS.ErrnoException;
  /** Git was stopped by SIGINT: a terminal's Ctrl-C reaches the whole process group, git with this process. */
  interrupted?: true;
}

/**
 * A git command a Ctrl-C stopped (GitRunResult.interrupted). Said as the interrupt it is (git/errors.ts wrap: exit 130,
 * AUR6008), not as a git failure: git may die of the terminal's SIGINT before this process's own handler has run, and
 * the command then ended with exit 10, "git status failed: exit code null" (seen under `episode commit`).
 */
export class GitInterrupted extends Error {
  constructor(args: readonly string[]) {
    super(`git ${args[0] ?? ''} was interrupted`);
  }
}

/** How one git command runs: in the shell's background, or stopped by a signal. */
export interface GitRunOptions {
  /** Alongside the run's shell's next commands instead of before them (io/shell-runner.ts). */
  background?: boolean;
  /**
   * Once aborted, the command is not started, or its git process is sent SIGTERM (git removes its
   * lock and temporary files on it) and the answer, code null, comes when that process has exited:
   * so the caller may remove the folder it worked in. Such a command is spawned by this process,
   * never handed to the shell, which cannot stop one of its commands.
   */
  signal?: AbortSignal;
  /**
   * In a process group of its own: a terminal's Ctrl-C reaches the whole foreground group, and would
   * stop git halfway through a step its caller must finish once begun (a rollback's switch of the
   * work tree and refs, season/rollback-switch.ts). Spawned by this process, never by the shell.
   */
  detached?: boolean;
  /** Written to git's standard input (`update-ref --stdin`, `mktag`); spawned by this process. */
  input?: string;
}

/**
 * Run `git args` in root once and collect its output; never rejects (a failed start, or a command
 * `opts.signal` stopped, is code null). `extraEnv` goes over the clean environment (a commit's
 * fallback identity).
 */
export async function gitRun(root: string, args: string[], extraEnv: Record<string, string> = {}, opts: GitRunOptions = {}): Promise<GitRunResult> {
  const env = { ...cleanEnv(), ...extraEnv };
  if (opts.signal || opts.detached || opts.input !== undefined) return spawnGit(root, args, env, opts.signal, opts);
  // Through the run's small shell when one is open (io/shell-runner.ts): no fork of this process.
  let viaShell;
  try {
    viaShell = await runWithShell(root, ['git', ...args], env, opts);
  } catch (e) {
    // Handed to the shell, outcome unknown: a failure (never a second run of a commit or a tag).
    return { code: null, stdout: '', stderr: (e as Error).message };
  }
  return viaShell ?? spawnGit(root, args, env);
}

/**
 * `git args` in `cwd`, in the background of the run's shell when one is open (io/shell-runner.ts),
 * for work that only pays when it costs this process nothing (pipeline/early-blobs.ts): false when
 * no shell is open (nothing ran) or the command failed. Never rejects.
 */
export async function gitInShellBackground(cwd: string, args: string[]): Promise<boolean> {
  try {
    const r = await runWithShell(cwd, ['git', ...args], cleanEnv(), { background: true });
    return r?.code === 0;
  } catch {
    return false;
  }
}

function spawnGit(root: string, args: string[], env: Record<string, string>, signal?: AbortSignal, o: Pick<GitRunOptions, 'detached' | 'input'> = {}): Promise<GitRunResult> {
  return spawnGitBytes(root, args, env, signal, o).then((r) => ({ ...r, stdout: r.stdout.toString('utf8') }));
}

/** As spawnGit, with stdout as git wrote it (bytes): the caller decodes, strictly if it must. */
function spawnGitBytes(root: string, args: string[], env: Record<string, string>, signal?: AbortSignal, o: Pick<GitRunOptions, 'detached' | 'input'> = {}): Promise<Omit<GitRunResult, 'stdout'> & { stdout: Buffer }> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve({ code: null, stdout: Buffer.alloc(0), stderr: 'not started: aborted' });
      return;
    }
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn('git', args, { cwd: root, env, stdio: 'pipe', windowsHide: true, detached: o.detached === true });
    } catch (e) {
      resolve({ code: null, stdout: Buffer.alloc(0), stderr: (e as Error).message });
      return;
    }
    if (!child.stdout) {
      // Refused for want of descriptors (EMFILE, ENFILE): no pipes, and the reason comes as 'error'.
      child.on('error', (e) => resolve({ code: null, stdout: Buffer.alloc(0), stderr: e.message, startError: e }));
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.stdin.on('error', () => undefined); // git exiting before it read its input: its exit code says why
    child.stdin.end(o.input);
    // Not spawn's own `signal` option: it reports the abort at once, while git may still be writing.
    const stop = () => child.kill('SIGTERM');
    signal?.addEventListener('abort', stop, { once: true });
    let settled = false;
    let interrupted: true | undefined;
    const done = (code: number | null, extra = '') => {
      signal?.removeEventListener('abort', stop);
      if (settled) return;
      settled = true;
      resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') + extra, ...(startError ? { startError } : {}), ...(interrupted ? { interrupted } : {}) });
    };
    let startError: NodeJS.ErrnoException | undefined;
    child.on('error', (e) => {
      startError = e;
      done(null, e.message);
    });
    child.on('close', (code, by) => {
      // Not a stop of our own (the abort above sends SIGTERM): the user's Ctrl-C.
      if (by === 'SIGINT') interrupted = true;
      done(code, by ? `killed by ${by}` : '');
    });
  });
}

/**
 * The stdout of `git args` in root as bytes, or null when git fails (a file missing at a ref): for
 * committed text that must be decoded strictly (a stray byte is the user's error at its line:column,
 * not a U+FFFD). Never through the run's shell, whose channel is text.
 */
export async function gitBytes(root: string, args: string[]): Promise<Buffer | null> {
  const r = await spawnGitBytes(root, args, cleanEnv());
  return r.code === 0 ? r.stdout : null;
}

/**
 * `git args` in root, resolving with its stdout once it exits 0. Any other exit fails, with git's
 * stderr and stdout as the message (or the exit code when it printed nothing): a `git commit` with
 * nothing to commit exits 1 with its reason on stdout, and that is a failure too.
 *
 * Why not simple-git (the adapter used it until issue 18): its completion detection waits 50 ms
 * more after every command that prints nothing (`add`, `commit --quiet`, `tag`, a clean `status`),
 * which was ~200 ms of an episode run's wall time spent idle.
 */
export async function gitOutput(root: string, args: string[], extraEnv: Record<string, string> = {}, opts: Pick<GitRunOptions, 'signal' | 'detached' | 'input'> = {}): Promise<string> {
  const r = await gitRun(root, args, extraEnv, opts);
  if (r.code === 0) return r.stdout;
  if (r.interrupted) throw new GitInterrupted(args);
  const fds = tooManyOpenFiles(r.startError);
  if (fds) throw fds;
  // A missing folder fails the start with "spawn git ENOENT", which would blame git itself.
  if (r.code === null && !fs.existsSync(root)) throw new Error(`fatal: ${root} does not exist`);
  const text = r.stderr + r.stdout;
  throw new Error(text.length ? text : `exit code ${r.code}`);
}

const OBJECT_NAME = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * One `git cat-file --batch-check` kept open: each `resolve(name)` writes a line and reads git's
 * answer (the object name, or "<name> missing"). Git reads refs and objects from disk at each
 * question, so an answer after a commit sees that commit. `undefined` means the reader could not
 * answer (git failed to start, died, or the name cannot be sent on one line): ask another way.
 */
export class RefReader {
  private current: LineProcess | null = null;

  constructor(private readonly root: string) {}

  async resolve(name: string): Promise<string | null | undefined> {
    if (/[\n\r\0]/.test(name)) return undefined;
    if (!this.current?.alive) this.current = LineProcess.start('git', ['cat-file', '--batch-check=%(objectname)'], { cwd: this.root, env: cleanEnv() });
    const line = await this.current?.ask(name);
    return line === undefined ? undefined : OBJECT_NAME.test(line) ? line : null;
  }

  /** End the process (it exits when its input closes); a later question starts a new one. */
  close(): void {
    this.current?.end();
    this.current = null;
  }
}

/**
 * `fn` with the git commands it starts run from the small shell of io/shell-runner.ts, which has a process group of
 * its own: a terminal's Ctrl-C, sent to the whole foreground group, reaches this process alone, whose handler lets the
 * step finish, instead of killing its `git switch` or `git commit` halfway through the step.
 */
export async function inOwnProcessGroup<T>(fn: () => Promise<T>): Promise<T> {
  const close = openShellRunner(cleanEnv());
  try {
    return await fn();
  } finally {
    close();
  }
}
