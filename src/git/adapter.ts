import fs from 'node:fs';
import path from 'node:path';
import { diag } from '../diagnostics/index.js';
import { AureusError, ExitCode } from '../errors.js';
import type { GitCommitOptions, GitLogEntry, GitPort, GitStatusEntry, GitStopOptions } from './port.js';
import { gitBytes, gitInShellBackground, gitOnPath, gitOutput, gitRun, RefReader } from './exec.js';
import { gitInterrupt, gitNotFound, wrap } from './errors.js';
import { tooManyOpenFiles } from '../io/open-files.js';
import { indexEntries, refuseIgnored, refuseOperationInProgress, restoreIndexEntries, type IndexEntries } from './state.js';
import { escapeRegExp } from '../core/regex.js';
import { buildReverts, moveWorkTree, refValue, tagObject, updateRefs, type RefChange } from './rewind.js';

/**
 * The one GitPort adapter. It was written over simple-git; its commands now run as plain child
 * processes (./exec.ts, issue 18: simple-git idled 50 ms after each command that prints nothing).
 * The two pitfalls the adapter handled for simple-git still hold for EVERY operation:
 *
 * - Any non-zero exit fails, including `git commit` with nothing to commit (exit 1, message on
 *   stdout), which simple-git reported as success.
 * - Program-launching variables (EDITOR, PAGER, GIT_EDITOR…) are dropped from the child's
 *   environment (`cleanEnv`, ./exec.ts), as are repository-redirecting GIT_* variables: Aureus never
 *   opens an editor or pager (messages go in with -m), and simple-git refused to run with them.
 *   Configuration given through the environment (GIT_CONFIG_*) is kept.
 *
 * Commands run with argument arrays (no shell), so a multi-line -m message survives intact.
 */

export const FALLBACK_IDENTITY = { name: 'Aureus', email: 'aureus@localhost' } as const;

export { gitNotFound, SIGNING_FAILED, signingHint, summarizeGitOutput, UNSIGNED_ENV, unsignedFirstCommit } from './errors.js';

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

/** A config key as git prints it: section and name lower-cased, the subsection as written. */
function canonicalKey(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  return key.slice(0, first).toLowerCase() + key.slice(first, last) + key.slice(last).toLowerCase();
}

const lines = (out: string): string[] => out.split('\n').map((s) => s.trim()).filter(Boolean);

const FIELD = '\x1f';
const RECORD = '\x1e';
// --cleanup=verbatim keeps the message byte-exact; --no-verify: a world repo's commits are ours.
const COMMIT_ARGS = ['commit', '--quiet', '--no-verify', '--cleanup=verbatim'];

/** The identity keys (user.*, author.*, committer.* name/email) each repository sets, asked once per process. */
const identities = new Map<string, Promise<Set<string>>>();

class GitCliPort implements GitPort {
  /** With `batch`, refs are resolved by one long-lived `git cat-file --batch-check` (./exec.ts). */
  private readonly reader: RefReader | null;

  constructor(readonly root: string, batch: boolean, private readonly fallback: { name: string; email: string } = FALLBACK_IDENTITY) {
    this.reader = batch ? new RefReader(root) : null;
  }

  close(): void {
    this.reader?.close();
  }

  private raw(what: string, args: string[], extraEnv?: Record<string, string>, stop: GitStopOptions = {}): Promise<string> {
    return wrap(what, () => gitOutput(this.root, args, extraEnv, stop), this.root);
  }

  /** Output of a command whose failure is an expected "no" (null), not an error. */
  private async query(args: string[]): Promise<string | null> {
    const r = await gitRun(this.root, args);
    if (r.code === 0) return r.stdout;
    // Nor is one the user's Ctrl-C stopped (a tag taken for missing, say): the interrupt.
    if (r.interrupted) throw gitInterrupt(args[0] ?? 'query');
    // A git that could not start for want of descriptors is no answer at all, not a "no".
    const fds = tooManyOpenFiles(r.startError);
    if (fds) throw fds;
    return null;
  }

  /**
   * Identity variables for a commit-making command when the repository resolves none, so a run
   * on a fresh CI machine never fails on "Please tell me who you are". Per command only, never
   * written into the repository's config: the user's own later commits there must not be ours.
   * A variable the caller set is left to git.
   */
  private async identityEnv(): Promise<Record<string, string>> {
    const known = await this.identity();
    const env: Record<string, string> = {};
    for (const who of ['AUTHOR', 'COMMITTER'] as const) {
      const role = who.toLowerCase();
      // git takes author.* / committer.* over user.*, and reads $EMAIL only when no *.email is configured.
      const fromEmailVar = !!process.env.EMAIL && ![...known].some((k) => k.endsWith('.email'));
      if (!known.has('user.name') && !known.has(`${role}.name`) && !process.env[`GIT_${who}_NAME`]) env[`GIT_${who}_NAME`] = this.fallback.name;
      if (!known.has('user.email') && !known.has(`${role}.email`) && !process.env[`GIT_${who}_EMAIL`] && !fromEmailVar) env[`GIT_${who}_EMAIL`] = this.fallback.email;
    }
    return env;
  }

  /**
   * One `git config` for the identity keys, once per repository per process (a commit and its tag
   * used to ask four times, issue 18). The answer cannot change under a run: it holds the lock. Kept
   * as a promise so `add` can start the question while git adds, before the commit that needs it.
   */
  private identity(): Promise<Set<string>> {
    let known = identities.get(this.root);
    if (!known) {
      known = this.query(['config', '--get-regexp', '^(user|author|committer)\\.(name|email)$']).then(
        (out) => new Set((out ?? '').split('\n').filter((l) => /^(user|author|committer)\.(name|email) \S/.test(l)).map((l) => l.split(' ')[0])),
      );
      identities.set(this.root, known);
    }
    return known;
  }

  async init(opts: { branch?: string } & GitStopOptions = {}): Promise<void> {
    const branch = opts.branch ?? 'main';
    await this.raw('init', ['init', '--quiet'], undefined, { signal: opts.signal });
    // `init -b` needs git >= 2.28; pointing HEAD at the branch works on every version.
    await this.raw('symbolic-ref', ['symbolic-ref', 'HEAD', `refs/heads/${branch}`], undefined, { signal: opts.signal });
  }

  async isRepo(): Promise<boolean> {
    return (await this.query(['rev-parse', '--is-inside-work-tree']))?.trim() === 'true';
  }

  async requireRepo(): Promise<void> {
    const r = await gitRun(this.root, ['rev-parse', '--is-inside-work-tree']);
    if (r.code === 0 && r.stdout.trim() === 'true') return;
    // A git the user's Ctrl-C stopped says nothing of the folder: the interrupt (exit 130), not "no repository".
    if (r.interrupted) throw gitInterrupt('rev-parse');
    // Nor is a git that could not start for want of descriptors (`ulimit -n`).
    const fds = tooManyOpenFiles(r.startError);
    if (fds) throw fds;
    // A git that cannot start is not "no repository" (with a hint to run that git).
    if (r.code !== 0 && !gitOnPath()) throw gitNotFound();
    // A repository git refuses to use (another user's, safe.directory) is not "no repository": git's
    // own reason and its fix are passed on, instead of a hint to run `git init` over it.
    if (/dubious ownership/.test(r.stderr)) {
      const reason = r.stderr.split('\n').find((l) => l.startsWith('fatal:'))?.replace(/^fatal:\s*/, '') ?? r.stderr.trim();
      throw new AureusError(`git refuses to use ${this.root}`, { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6029', { root: this.root, reason })] });
    }
    throw new AureusError(`${this.root} is not a git repository`, { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6011', { root: this.root })] });
  }

  /** Scans started by prefetchConfig, by their keys, each used by one setConfig. */
  private readonly prefetched = new Map<string, Promise<Map<string, string> | null>>();

  prefetchConfig(keys: string[]): void {
    const scan = this.scanConfig(keys);
    scan.catch(() => undefined);
    this.prefetched.set(keys.join('\n'), scan);
  }

  async setConfig(entries: ReadonlyArray<[string, string]>): Promise<void> {
    const keys = entries.map(([key]) => key);
    const early = this.prefetched.get(keys.join('\n'));
    this.prefetched.delete(keys.join('\n'));
    const local = await (early ?? this.scanConfig(keys));
    for (const [key, value] of entries) {
      const current = local ? (local.get(canonicalKey(key)) ?? '') : ((await this.query(['config', '--local', '--get', key])) ?? '').replace(/\n$/, '');
      if (current !== value) await this.raw('config', ['config', '--local', key, value]);
    }
  }

  /**
   * The local values of these keys, read in the same `git config` as the identity keys (identity()), which
   * then answers `identity()` too (one process for both, issue 18). Null when git has no
   * --show-scope (before 2.26): the caller asks key by key.
   */
  private async scanConfig(keys: string[]): Promise<Map<string, string> | null> {
    const pattern = `^((user|author|committer)\\.(name|email)|maintenance\\.auto|${keys.map((k) => escapeRegExp(canonicalKey(k))).join('|')})$`;
    const r = await gitRun(this.root, ['config', '-z', '--show-scope', '--get-regexp', pattern]);
    if (r.code !== 0 && r.code !== 1) return null; // 1: nothing matched
    const local = new Map<string, string>();
    const ident = new Set<string>();
    let maintenanceAuto = false;
    const parts = r.stdout.split('\0');
    for (let i = 0; i + 1 < parts.length; i += 2) {
      // Each entry is "scope NUL key LF value NUL" (a key with no value has no LF).
      const [scope, entry] = [parts[i]!, parts[i + 1]!];
      const nl = entry.indexOf('\n');
      const key = nl < 0 ? entry : entry.slice(0, nl);
      const value = nl < 0 ? '' : entry.slice(nl + 1);
      if (/^(user|author|committer)\.(name|email)$/.test(key) && /^\S/.test(value)) ident.add(key);
      if (key === 'maintenance.auto') maintenanceAuto = true;
      if (scope === 'local') local.set(key, value);
    }
    identities.set(this.root, Promise.resolve(ident));
    this.maintenanceAutoSet = maintenanceAuto;
    return local;
  }

  async status(paths: string[] = [], opts: { readOnly?: boolean } = {}): Promise<GitStatusEntry[]> {
    const args = [...(opts.readOnly ? ['--no-optional-locks'] : []), 'status', '--porcelain=v1', '-z', '--untracked-files=all'];
    if (paths.length) args.push('--', ...paths);
    return parsePorcelainZ(await this.raw('status', args));
  }

  async add(paths: string[], opts: GitStopOptions = {}): Promise<void> {
    if (paths.length === 0) return;
    // An add is followed by a commit, which needs the identity: ask for it alongside (read-only).
    void this.identity();
    await this.raw('add', ['add', '--', ...paths], undefined, opts);
  }

  async indexEntries(paths: string[]): Promise<IndexEntries> {
    return wrap('ls-files', () => indexEntries(this.root, paths), this.root);
  }

  async restoreIndex(paths: string[], entries: IndexEntries): Promise<void> {
    await wrap('update-index', () => restoreIndexEntries(this.root, paths, entries), this.root);
  }

  async refuseOperationInProgress(blocked?: string): Promise<void> {
    await wrap('rev-parse', () => refuseOperationInProgress(this.root, blocked), this.root);
  }

  async refuseIgnored(paths: string[]): Promise<void> {
    await wrap('check-ignore', () => refuseIgnored(this.root, paths), this.root);
  }

  async moveHead(to: string, expected: string): Promise<void> {
    await this.raw('update-ref', ['update-ref', '-m', 'aureus: roll back a failed episode commit', 'HEAD', to, expected]);
  }

  async commit(message: string, opts: GitCommitOptions = {}): Promise<string> {
    const args = [...(opts.deferMaintenance ? ['-c', 'maintenance.auto=false'] : []), ...COMMIT_ARGS, '-m', message];
    if (opts.allowEmpty) args.push('--allow-empty');
    if (opts.paths?.length) args.push('--', ...opts.paths);
    await this.raw('commit', args, await this.identityEnv(), { signal: opts.signal });
    const sha = await this.head();
    if (!sha) throw new AureusError('git commit failed: no HEAD after committing', { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6010', { what: 'commit', message: 'no HEAD after committing' })] });
    return sha;
  }

  /**
   * Whether the config scan (prefetchConfig) saw maintenance.auto in any scope; undefined before a
   * scan. Unset, git's default holds (on) and no `git config` has to ask; set, git reads the value.
   */
  private maintenanceAutoSet: boolean | undefined;

  async autoMaintenance(): Promise<void> {
    // As git's own prepare_auto_maintenance: skipped when maintenance.auto is false; `--quiet`, as
    // our commits are. In the background: the shell runs the caller's next command (the tag)
    // meanwhile. The run's config scan already says whether the key is set at all (issue 18: the
    // usual answer, unset, saves a `git config` process between the commit and the maintenance);
    // a value is left to git itself to read as a boolean.
    const bg = { background: true };
    if (this.maintenanceAutoSet !== false) {
      const auto = await gitRun(this.root, ['config', '--bool', '--get', 'maintenance.auto'], {}, bg);
      if (auto.code === 0 && auto.stdout.trim() === 'false') return;
    }
    await gitRun(this.root, ['maintenance', 'run', '--auto', '--quiet'], {}, bg);
  }

  async storeBlobs(dir: string, names: string[]): Promise<boolean> {
    // --no-filters: the bytes as they are, as `git add` stores them for a path without filters (a
    // path whose attributes convert them gets its own blob from the add; this one is then unused).
    return names.length > 0 && gitInShellBackground(dir, ['hash-object', '-w', '--no-filters', '--', ...names]);
  }

  async buildReverts(newestFirst: string[], messageFor: (sha: string) => string, signal?: AbortSignal): Promise<string[]> {
    const env = await this.identityEnv();
    return wrap('revert', () => buildReverts(this.root, newestFirst, messageFor, env, signal), this.root);
  }

  async tagObject(name: string, message: string, commit: string): Promise<string> {
    const env = await this.identityEnv();
    return wrap('mktag', () => tagObject(this.root, name, message, commit, env), this.root);
  }

  async refValue(ref: string): Promise<string | null> {
    return refValue(this.root, ref);
  }

  async moveWorkTree(from: string, to: string, force: boolean): Promise<void> {
    await wrap('read-tree', () => moveWorkTree(this.root, from, to, force), this.root);
  }

  async updateRefs(changes: RefChange[], reason: string): Promise<void> {
    await wrap('update-ref', () => updateRefs(this.root, changes, reason), this.root);
  }

  async head(): Promise<string | null> {
    return this.resolve('HEAD');
  }

  async resolve(ref: string): Promise<string | null> {
    const read = await this.reader?.resolve(`${ref}^{commit}`);
    if (read !== undefined) return read;
    return (await this.query(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]))?.trim() || null;
  }

  async currentBranch(): Promise<string | null> {
    return (await this.query(['symbolic-ref', '--quiet', '--short', 'HEAD']))?.trim() || null;
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

  async message(ref: string): Promise<string> {
    return (await this.raw('log', ['log', '-1', '--format=%B', ref])).replace(/\n+$/, '\n');
  }

  async commitsBetween(from: string, to: string): Promise<string[]> {
    return lines(await this.raw('rev-list', ['rev-list', '--reverse', `${from}..${to}`]));
  }

  async isAncestor(a: string, b: string): Promise<boolean> {
    // The merge base of a and b is a exactly when a is an ancestor of b. (`merge-base
    // --is-ancestor` answers "no" with exit 1, indistinguishable here from a failure.)
    const [ra, base] = await Promise.all([this.resolve(a), this.query(['merge-base', a, b])]);
    return ra !== null && base !== null && base.trim() === ra;
  }

  async showFile(ref: string, file: string): Promise<string | null> {
    return this.query(['show', `${ref}:${file}`]);
  }

  async showFileBytes(ref: string, file: string): Promise<Buffer | null> {
    return gitBytes(this.root, ['show', `${ref}:${file}`]);
  }

  async tag(name: string, message: string, ref = 'HEAD'): Promise<void> {
    await this.raw('tag', ['tag', '-a', name, '-m', message, ref], await this.identityEnv());
  }

  async tags(pattern = '*'): Promise<string[]> {
    return lines(await this.raw('tag --list', ['tag', '--list', pattern])).sort();
  }

  async isValidBranchName(name: string): Promise<boolean> {
    return (await this.query(['check-ref-format', '--branch', name])) !== null;
  }

  async checkoutNewBranch(name: string, from: string, opts: { reset?: boolean } = {}): Promise<void> {
    await this.raw('switch', ['switch', '--quiet', opts.reset ? '-C' : '-c', name, from]);
  }

  async dropNewBranch(name: string, back: { branch: string } | { commit: string }): Promise<void> {
    await this.raw('switch', ['switch', '--quiet', ...('branch' in back ? [back.branch] : ['--detach', back.commit])]);
    await this.raw('branch -D', ['branch', '--quiet', '-D', name]);
  }

  async branchesContaining(sha: string): Promise<string[]> {
    return lines(await this.raw('branch --contains', ['branch', '--contains', sha, '--format=%(refname:short)'])).sort();
  }
}

/**
 * The git port for the repository at `root`. With `batch: true` its ref queries (head, resolve,
 * and the sha a commit returns) go to one long-lived git process: for a sequence of calls, such as
 * an episode's commit (issue 18). Such a port must be closed. `fallbackIdentity`: who its commits,
 * tags and reverts are by when git resolves no identity (default FALLBACK_IDENTITY).
 */
export function createGit(root: string, opts: { batch?: boolean; fallbackIdentity?: { name: string; email: string } } = {}): GitPort {
  return new GitCliPort(root, opts.batch === true, opts.fallbackIdentity);
}
