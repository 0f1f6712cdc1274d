import { simpleGit, type SimpleGit } from 'simple-git';
import { diag } from '../diagnostics/index.js';
import { AureusError, ExitCode } from '../errors.js';
import type { GitLogEntry, GitPort, GitStatusEntry } from './port.js';

/**
 * The GitPort adapter over simple-git. Commands run with argument arrays (no shell), with
 * repository-redirecting GIT_* variables dropped (a caller's GIT_DIR, e.g. inside a hook, must not
 * send our commits elsewhere) but explicit identity and date variables kept.
 */

export const FALLBACK_IDENTITY = { name: 'Aureus', email: 'aureus@localhost' } as const;

const KEPT_GIT_VARS = ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'GIT_AUTHOR_DATE', 'GIT_COMMITTER_DATE'];

/**
 * Program-launching variables: Aureus never opens an editor or pager (messages go in with -m), and
 * simple-git refuses to run at all while any of them is set (they can execute arbitrary programs).
 */
const DROPPED_VARS = new Set(['EDITOR', 'VISUAL', 'PAGER', 'PREFIX', 'SSH_ASKPASS']);

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    const upper = k.toUpperCase();
    if (upper.startsWith('GIT_') && !KEPT_GIT_VARS.includes(upper)) continue;
    if (DROPPED_VARS.has(upper)) continue;
    env[k] = v;
  }
  return env;
}

async function wrap<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof AureusError) throw e;
    const message = (e instanceof Error ? e.message : String(e)).trim().split('\n').slice(0, 3).join(' ');
    throw new AureusError(`git ${what} failed: ${message}`, { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6010', { what, message })], cause: e });
  }
}

/** Parse `git status --porcelain=v1 -z`. */
export function parsePorcelainZ(out: string): GitStatusEntry[] {
  const parts = out.split('\0');
  const entries: GitStatusEntry[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.length < 4) continue;
    const index = p[0]!;
    const worktree = p[1]!;
    const entry: GitStatusEntry = { path: p.slice(3), index, worktree };
    // Renames and copies carry the old path as the next NUL-separated field.
    if (index === 'R' || index === 'C' || worktree === 'R' || worktree === 'C') entry.from = parts[++i];
    entries.push(entry);
  }
  return entries;
}

const FIELD = '\x1f';
const RECORD = '\x1e';

class SimpleGitPort implements GitPort {
  private instance: SimpleGit | undefined;
  constructor(readonly root: string) {}

  /** Created on first use: simple-git refuses a base directory that does not exist (yet). */
  private get git(): SimpleGit {
    this.instance ??= simpleGit({
      baseDir: this.root,
      maxConcurrentProcesses: 2,
      trimmed: false,
      // simple-git only fails a command that exits non-zero AND wrote to stderr; `git commit` with
      // nothing to commit exits 1 with its message on stdout. Any non-zero exit is a failure here.
      errors: (error, result) => {
        if (error) return error;
        if (result.exitCode === 0) return undefined;
        const out = Buffer.concat([...result.stdErr, ...result.stdOut]);
        return out.length ? out : Buffer.from(`exit code ${result.exitCode}`);
      },
    }).env(cleanEnv());
    return this.instance;
  }

  private raw(what: string, args: string[]): Promise<string> {
    return wrap(what, () => this.git.raw(args));
  }

  async init(opts: { branch?: string } = {}): Promise<void> {
    const branch = opts.branch ?? 'main';
    await this.raw('init', ['init', '--quiet']);
    // `init -b` needs git >= 2.28; pointing HEAD at the branch works on every version.
    await this.raw('symbolic-ref', ['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
  }

  async isRepo(): Promise<boolean> {
    try {
      return (await this.git.raw(['rev-parse', '--is-inside-work-tree'])).trim() === 'true';
    } catch {
      return false;
    }
  }

  async status(paths: string[] = []): Promise<GitStatusEntry[]> {
    const args = ['status', '--porcelain=v1', '-z', '--untracked-files=all'];
    if (paths.length) args.push('--', ...paths);
    return parsePorcelainZ(await this.raw('status', args));
  }

  async add(paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    await this.raw('add', ['add', '--', ...paths]);
  }

  async commit(message: string, opts: { allowEmpty?: boolean } = {}): Promise<string> {
    // --cleanup=verbatim keeps the message byte-exact; --no-verify: a world repo's commits are ours.
    const args = ['commit', '--quiet', '--no-verify', '--cleanup=verbatim', '-m', message];
    if (opts.allowEmpty) args.push('--allow-empty');
    await this.raw('commit', args);
    const sha = await this.head();
    if (!sha) throw new AureusError('git commit failed: no HEAD after committing', { exitCode: ExitCode.GIT });
    return sha;
  }

  async tag(name: string, message: string, ref = 'HEAD'): Promise<void> {
    await this.raw('tag', ['tag', '-a', name, '-m', message, ref]);
  }

  async head(): Promise<string | null> {
    try {
      return (await this.git.raw(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).trim() || null;
    } catch {
      return null;
    }
  }

  async log(opts: { maxCount?: number; paths?: string[]; ref?: string } = {}): Promise<GitLogEntry[]> {
    if ((await this.head()) === null && !opts.ref) return [];
    const args = ['log', `--format=%H${FIELD}%an${FIELD}%ae${FIELD}%aI${FIELD}%s${FIELD}%B${RECORD}`];
    if (opts.maxCount !== undefined) args.push(`--max-count=${opts.maxCount}`);
    args.push(opts.ref ?? 'HEAD');
    if (opts.paths?.length) args.push('--', ...opts.paths);
    const out = await this.raw('log', args);
    return out
      .split(RECORD)
      .map((r) => r.replace(/^\n/, ''))
      .filter((r) => r.length > 0)
      .map((r) => {
        const [sha, author, email, date, subject, message] = r.split(FIELD) as [string, string, string, string, string, string];
        return { sha, author, email, date, subject, message: message.replace(/\n+$/, '') };
      });
  }

  async ensureIdentity(fallback: { name: string; email: string } = FALLBACK_IDENTITY): Promise<void> {
    const get = async (key: string) => {
      try {
        return (await this.git.raw(['config', '--get', key])).trim();
      } catch {
        return ''; // exit 1: not set anywhere
      }
    };
    if (!(await get('user.name'))) await this.raw('config', ['config', 'user.name', fallback.name]);
    if (!(await get('user.email'))) await this.raw('config', ['config', 'user.email', fallback.email]);
  }
}

/** The git port for the repository at `root`. */
export function createGit(root: string): GitPort {
  return new SimpleGitPort(root);
}
