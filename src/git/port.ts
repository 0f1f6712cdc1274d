import type { IndexEntries } from './state.js';
import type { RefChange } from './rewind.js';

export type { IndexEntries };

/**
 * The git port: the operations Aureus needs from version control (init, the commit stage, the
 * season workflow), so commands and stages depend on this interface and not on a git library.
 * One adapter: ./adapter.ts (`createGit(root)`; `createGit(root, { batch: true })` for a sequence of calls).
 *
 * Every failure leaves as an AureusError with exit code 10 (git error) and diagnostic AUR6010 —
 * except `requireRepo`, which reports AUR6011 (AUR6029 for a repository git refuses), and any
 * failure while no git is on PATH, AUR6031. Queries whose "no" is an expected answer (isRepo,
 * resolve, head, currentBranch, showFile, isAncestor, isValidBranchName) return null/false instead.
 */

export interface GitStatusEntry {
  /** Path relative to the repository root (the new path for a rename). */
  path: string;
  /** Porcelain v1 index (staged) status letter: ' ', M, A, D, R, C, U or ? for untracked. */
  index: string;
  /** Porcelain v1 worktree status letter. */
  worktree: string;
  /** The old path of a rename or copy. */
  from?: string;
}

export interface GitLogEntry {
  sha: string;
  subject: string;
  /** Full message (subject, blank line, body), without the trailing newline. */
  message: string;
  author: string;
  email: string;
  /** Author date, strict ISO 8601. */
  date: string;
}

/** For a command that may run long (an import's add and commit of hundreds of megabytes). */
export interface GitStopOptions {
  /**
   * Aborted (Ctrl-C), the command is not started, or its git process is stopped (SIGTERM) and the
   * call fails (AUR6010) once that process has exited: whatever it left is the caller's to remove.
   */
  signal?: AbortSignal;
}

export interface GitCommitOptions extends GitStopOptions {
  /** Make the commit even when it changes nothing (otherwise "nothing to commit" is a failure). */
  allowEmpty?: boolean;
  /**
   * Commit only these paths (`git commit -- <paths>`), whatever else is staged. They must be
   * tracked or added first.
   */
  paths?: string[];
  /**
   * Leave git's automatic maintenance (`git maintenance run --auto`, which `git commit` otherwise
   * runs before it returns) to `autoMaintenance()`, so the caller can run it alongside its next step.
   */
  deferMaintenance?: boolean;
}

export interface GitPort {
  /** Repository root this port works on (absolute). */
  readonly root: string;

  /** End the processes this port keeps open (a batch port's ref reader); the port stays usable. */
  close(): void;

  // --- repository ---
  /** `git init` with the given initial branch (default main). */
  init(opts?: { branch?: string } & GitStopOptions): Promise<void>;
  /** True when root is inside a git work tree. */
  isRepo(): Promise<boolean>;
  /** Throws AureusError (exit 10, AUR6011; AUR6031 when git is not on PATH) unless root is inside a git work tree. */
  requireRepo(): Promise<void>;
  /** Set local config values (this repository's .git/config), only those that differ. */
  setConfig(entries: ReadonlyArray<[string, string]>): Promise<void>;
  /**
   * Start reading these keys (and the identity) now, read-only, for a `setConfig` of the same keys
   * later on this port: its git process then starts while this process is small (issue 18).
   */
  prefetchConfig(keys: string[]): void;

  // --- working tree ---
  /**
   * Changes (staged, unstaged, untracked) — all, or only under the given paths. `readOnly`: git
   * does not refresh .git/index meanwhile (`--no-optional-locks`), so the query can run alongside
   * checks that may still refuse the run (a refused run writes nothing).
   */
  status(paths?: string[], opts?: { readOnly?: boolean }): Promise<GitStatusEntry[]>;
  /** Stage exactly these paths (never `add -A`); a directory stages everything under it. */
  add(paths: string[], opts?: GitStopOptions): Promise<void>;
  /** The index entries of these paths (`git ls-files -s`), for a roll-back to put back exactly (./state.ts). */
  indexEntries(paths: string[]): Promise<IndexEntries>;
  /** Put the index entries of `paths` back as `indexEntries` read them (written only if they changed). */
  restoreIndex(paths: string[], entries: IndexEntries): Promise<void>;
  /** Refuse (exit 10, AUR6059) while a merge, rebase, cherry-pick or revert is in progress; `blocked`: what cannot be done now (default: an episode's commit). */
  refuseOperationInProgress(blocked?: string): Promise<void>;
  /** Refuse (exit 10, AUR6060) when git ignores one of these paths, which a commit must add. */
  refuseIgnored(paths: string[]): Promise<void>;
  /** Move the current branch from `expected` back to `to` (`git update-ref`, refused if HEAD moved on). */
  moveHead(to: string, expected: string): Promise<void>;
  /** Commit (what is staged, or only `opts.paths`); returns the new commit's sha. */
  commit(message: string, opts?: GitCommitOptions): Promise<string>;
  /**
   * The automatic maintenance a `deferMaintenance` commit left out, as `git commit` runs it (not
   * when the repository sets maintenance.auto to false), in the background of the run's shell.
   * Never rejects: a git without `maintenance` (before 2.29) ran its `gc --auto` in the commit.
   */
  autoMaintenance(): Promise<void>;
  /**
   * Store these files (names relative to `dir`, a folder inside the work tree) in the object store
   * as blobs of their bytes (`git hash-object -w --no-filters`), in the background of the run's
   * shell; nothing when no shell is open. Neither the index nor any ref changes: an object nothing
   * reaches is git's to prune. True when git stored them all. Never rejects.
   */
  storeBlobs(dir: string, names: string[]): Promise<boolean>;
  /**
   * Revert commits for a line of single-parent commits ending at HEAD (pass newest first), each on
   * the one before, as `git revert` makes them, but as objects only: no ref, index or file changes
   * (./rewind.ts). A merge commit fails. Stops between commits once `signal` is aborted.
   */
  buildReverts(newestFirst: string[], messageFor: (sha: string) => string, signal?: AbortSignal): Promise<string[]>;
  /** An annotated tag object (`git mktag`) for `commit`, no ref yet; its sha. */
  tagObject(name: string, message: string, commit: string): Promise<string>;
  /** The object a ref names (a tag's tag object, not its commit), or null. */
  refValue(ref: string): Promise<string | null>;
  /** Index and work tree from tree `from` to `to` (`read-tree -m -u`; `force`: `--reset`), not stopped by a terminal's Ctrl-C. */
  moveWorkTree(from: string, to: string, force: boolean): Promise<void>;
  /** These ref changes all at once or none (`update-ref --stdin`), not stopped by a terminal's Ctrl-C. */
  updateRefs(changes: RefChange[], reason: string): Promise<void>;

  // --- refs and history ---
  /** HEAD's commit sha, or null in a repository without commits. */
  head(): Promise<string | null>;
  /** The commit sha a ref (sha, tag, branch, `x^`, …) resolves to, or null if it does not. */
  resolve(ref: string): Promise<string | null>;
  /** The checked-out branch's short name, or null when HEAD is detached. */
  currentBranch(): Promise<string | null>;
  /** Commits reachable from HEAD (or `ref`), newest first, optionally only those touching `paths`. */
  log(opts?: { maxCount?: number; paths?: string[]; ref?: string }): Promise<GitLogEntry[]>;
  /** Full message of a commit, ending with exactly one newline. */
  message(ref: string): Promise<string>;
  /** Commits in (from, to], oldest first. */
  commitsBetween(from: string, to: string): Promise<string[]>;
  /** True when commit `a` is an ancestor of (or equal to) `b`; false also when either does not resolve. */
  isAncestor(a: string, b: string): Promise<boolean>;
  /** Content of a file at a ref, or null if it does not exist there. */
  showFile(ref: string, file: string): Promise<string | null>;
  /** As showFile, the bytes as committed (no decoding), or null if it does not exist there. */
  showFileBytes(ref: string, file: string): Promise<Buffer | null>;

  // --- tags ---
  /** Create an annotated tag at HEAD (or `ref`). */
  tag(name: string, message: string, ref?: string): Promise<void>;
  /** Tag names matching a glob (e.g. "s01e*"), sorted. */
  tags(pattern?: string): Promise<string[]>;

  // --- branches ---
  /** Whether `name` is acceptable to git as a branch name. */
  isValidBranchName(name: string): Promise<boolean>;
  /**
   * Create branch `name` at `from` and switch the working tree to it. `reset`: the branch may exist
   * already and is set to `from` (`switch -C`): a half-made what-if branch, which has no commit of its own.
   */
  checkoutNewBranch(name: string, from: string, opts?: { reset?: boolean }): Promise<void>;
  /**
   * Undo checkoutNewBranch: switch back to `back` (a branch name, or a commit for a detached HEAD) and
   * delete branch `name`. For a what-if whose commit failed: nothing on the new branch is kept.
   */
  dropNewBranch(name: string, back: { branch: string } | { commit: string }): Promise<void>;
  /** Local branches whose history contains the commit, sorted. */
  branchesContaining(sha: string): Promise<string[]>;
}
