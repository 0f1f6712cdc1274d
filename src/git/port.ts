/**
 * The git port: the few operations Aureus needs from version control, so commands and stages
 * depend on this interface and not on a git library. One adapter: ./simple-git.ts.
 * Every failure leaves as an AureusError with exit code 10 (git error) and diagnostic AUR6010.
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

export interface GitPort {
  /** Repository root this port works on (absolute). */
  readonly root: string;
  /** `git init` with the given initial branch (default main). */
  init(opts?: { branch?: string }): Promise<void>;
  /** True when root is inside a git work tree. */
  isRepo(): Promise<boolean>;
  /** Changes (staged, unstaged, untracked) — all, or only under the given paths. */
  status(paths?: string[]): Promise<GitStatusEntry[]>;
  /** Stage exactly these paths (never `add -A`); a directory stages everything under it. */
  add(paths: string[]): Promise<void>;
  /** Commit what is staged; returns the new commit's sha. */
  commit(message: string, opts?: { allowEmpty?: boolean }): Promise<string>;
  /** Create an annotated tag at HEAD (or `ref`). */
  tag(name: string, message: string, ref?: string): Promise<void>;
  /** HEAD's commit sha, or null in a repository without commits. */
  head(): Promise<string | null>;
  /** Commits reachable from HEAD (or `ref`), newest first, optionally only those touching `paths`. */
  log(opts?: { maxCount?: number; paths?: string[]; ref?: string }): Promise<GitLogEntry[]>;
  /**
   * Make commits possible on a machine without a configured identity (fresh CI): if user.name
   * or user.email resolves to nothing, set a local one in this repository.
   */
  ensureIdentity(fallback?: { name: string; email: string }): Promise<void>;
}
