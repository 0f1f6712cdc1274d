import { simpleGit, type SimpleGit } from 'simple-git';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';

/**
 * The git operations the commit stage and the season workflow need (issue 7), on top of the basic
 * port. Everything that can fail for a git reason becomes an AureusError with exit code 10 and
 * diagnostic AUR6010, so a broken repository never surfaces as a stack trace.
 *
 * Commits made by Aureus fall back to a fixed identity when the repository has none configured
 * (fresh CI machines have no user.name), so `episode run` never fails on "Please tell me who you are".
 */

export const AUREUS_IDENTITY = { name: 'Aureus', email: 'aureus@localhost' } as const;

const KEPT_GIT_VARS = ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'GIT_AUTHOR_DATE', 'GIT_COMMITTER_DATE'];
/** simple-git refuses to run while program-launching variables are set; Aureus never needs them. */
const DROPPED_VARS = new Set(['EDITOR', 'VISUAL', 'PAGER', 'PREFIX', 'SSH_ASKPASS', 'GIT_EDITOR', 'GIT_PAGER', 'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_ASKPASS']);

function gitOf(root: string, extraEnv: Record<string, string> = {}): SimpleGit {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    const upper = k.toUpperCase();
    // Keep a caller's explicit identity/dates; drop repository-redirecting variables (GIT_DIR…).
    if (upper.startsWith('GIT_') && !KEPT_GIT_VARS.includes(upper)) continue;
    if (DROPPED_VARS.has(upper)) continue;
    env[k] = v;
  }
  return simpleGit({ baseDir: root, maxConcurrentProcesses: 2, trimmed: false }).env({ ...env, ...extraEnv });
}

async function wrap<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof AureusError) throw e;
    const msg = e instanceof Error ? e.message.trim().split('\n').slice(0, 3).join(' ') : String(e);
    throw new AureusError(`git ${what} failed: ${msg}`, { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6010', { what, message: msg })] });
  }
}

export async function isRepo(root: string): Promise<boolean> {
  try {
    return (await gitOf(root).raw(['rev-parse', '--is-inside-work-tree'])).trim() === 'true';
  } catch {
    return false;
  }
}

export async function requireRepo(root: string): Promise<void> {
  if (!(await isRepo(root))) {
    throw new AureusError(`${root} is not a git repository`, {
      exitCode: ExitCode.GIT,
      diagnostics: [diag('AUR6011', { root })],
    });
  }
}

/** Commit sha of a ref, or null if it does not resolve. */
export async function resolveRef(root: string, ref: string): Promise<string | null> {
  try {
    const out = await gitOf(root).raw(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    return out.trim() || null;
  } catch {
    return null;
  }
}

export async function headCommit(root: string): Promise<string | null> {
  return resolveRef(root, 'HEAD');
}

export async function treeOf(root: string, ref = 'HEAD'): Promise<string> {
  return wrap('rev-parse', async () => (await gitOf(root).raw(['rev-parse', `${ref}^{tree}`])).trim());
}

export async function currentBranch(root: string): Promise<string | null> {
  try {
    const b = (await gitOf(root).raw(['symbolic-ref', '--quiet', '--short', 'HEAD'])).trim();
    return b || null;
  } catch {
    return null;
  }
}

/** Porcelain status lines for changes (staged, unstaged or untracked) under the given paths. */
export async function dirtyPaths(root: string, paths: string[]): Promise<string[]> {
  return wrap('status', async () => {
    const out = await gitOf(root).raw(['status', '--porcelain=v1', '--untracked-files=all', '--', ...paths]);
    return out.split('\n').filter((l) => l.trim().length > 0);
  });
}

async function identityEnv(root: string): Promise<Record<string, string>> {
  const g = gitOf(root);
  const get = async (k: string) => {
    try {
      return (await g.raw(['config', '--get', k])).trim();
    } catch {
      return '';
    }
  };
  const env: Record<string, string> = {};
  if (!process.env.GIT_AUTHOR_NAME && !(await get('user.name'))) {
    env.GIT_AUTHOR_NAME = AUREUS_IDENTITY.name;
    env.GIT_COMMITTER_NAME = AUREUS_IDENTITY.name;
  }
  if (!process.env.GIT_AUTHOR_EMAIL && !(await get('user.email'))) {
    env.GIT_AUTHOR_EMAIL = AUREUS_IDENTITY.email;
    env.GIT_COMMITTER_EMAIL = AUREUS_IDENTITY.email;
  }
  return env;
}

/**
 * Stage exactly `paths` (never `add -A`) and commit them with `message`. Only those paths are
 * committed even if other files are staged: `commit -- <paths>` restricts the commit.
 */
export async function commitPaths(root: string, paths: string[], message: string): Promise<string> {
  const env = await identityEnv(root);
  const g = gitOf(root, env);
  return wrap('commit', async () => {
    await g.raw(['add', '--', ...paths]);
    // simple-git passes arguments without a shell, so a multi-line -m message survives intact.
    await g.raw(['commit', '--no-verify', '--quiet', '--cleanup=verbatim', '-m', message, '--', ...paths]);
    return (await g.raw(['rev-parse', 'HEAD'])).trim();
  });
}

export async function createAnnotatedTag(root: string, tag: string, message: string, ref = 'HEAD'): Promise<void> {
  const env = await identityEnv(root);
  await wrap('tag', () => gitOf(root, env).raw(['tag', '-a', tag, '-m', message, ref]));
}

export async function deleteTag(root: string, tag: string): Promise<void> {
  await wrap('tag -d', () => gitOf(root).raw(['tag', '-d', tag]));
}

/** Tags matching a glob, e.g. "s01e*". */
export async function listTags(root: string, pattern = '*'): Promise<string[]> {
  return wrap('tag --list', async () =>
    (await gitOf(root).raw(['tag', '--list', pattern])).split('\n').map((s) => s.trim()).filter(Boolean).sort(),
  );
}

/** Content of a file at a ref, or null if it does not exist there. */
export async function showFile(root: string, ref: string, file: string): Promise<string | null> {
  try {
    return await gitOf(root).raw(['show', `${ref}:${file}`]);
  } catch {
    return null;
  }
}

/** Full commit message of a ref. */
export async function commitMessage(root: string, ref: string): Promise<string> {
  return wrap('log', async () => (await gitOf(root).raw(['log', '-1', '--format=%B', ref])).replace(/\n+$/, '\n'));
}

/** Commits in (from, to], oldest first. */
export async function commitsBetween(root: string, from: string, to: string): Promise<string[]> {
  return wrap('rev-list', async () =>
    (await gitOf(root).raw(['rev-list', '--reverse', `${from}..${to}`])).split('\n').map((s) => s.trim()).filter(Boolean),
  );
}

export async function isAncestor(root: string, a: string, b: string): Promise<boolean> {
  // Not `merge-base --is-ancestor`: it answers with an exit status only, which simple-git does
  // not report as an error. The merge base of a and b is a exactly when a is an ancestor of b.
  try {
    const [ra, base] = await Promise.all([resolveRef(root, a), gitOf(root).raw(['merge-base', a, b])]);
    return ra !== null && base.trim() === ra;
  } catch {
    return false;
  }
}

/** Parent sha of a commit (first parent), or null for a root commit. */
export async function parentOf(root: string, ref: string): Promise<string | null> {
  return resolveRef(root, `${ref}^`);
}

/**
 * `git revert --no-edit` each commit, newest first, each as its own commit with the given
 * message. History is kept: nothing is rewritten.
 */
export async function revertCommits(root: string, shasNewestFirst: string[], messageFor: (sha: string) => string): Promise<string[]> {
  const env = await identityEnv(root);
  const g = gitOf(root, env);
  const made: string[] = [];
  for (const sha of shasNewestFirst) {
    await wrap('revert', async () => {
      try {
        await g.raw(['revert', '--no-edit', '--no-commit', sha]);
      } catch (e) {
        await g.raw(['revert', '--abort']).catch(() => undefined);
        throw e;
      }
      await g.raw(['commit', '--no-verify', '--quiet', '--cleanup=verbatim', '-m', messageFor(sha)]);
      made.push((await g.raw(['rev-parse', 'HEAD'])).trim());
    });
  }
  return made;
}

export async function branchExists(root: string, name: string): Promise<boolean> {
  return (await resolveRef(root, `refs/heads/${name}`)) !== null;
}

export async function isValidBranchName(root: string, name: string): Promise<boolean> {
  try {
    await gitOf(root).raw(['check-ref-format', '--branch', name]);
    return true;
  } catch {
    return false;
  }
}

/** Create branch `name` at `from` and switch the working tree to it. */
export async function createAndSwitchBranch(root: string, name: string, from: string): Promise<void> {
  await wrap('switch', () => gitOf(root).raw(['switch', '--quiet', '-c', name, from]));
}

/** Integrity check of the object database (used by tests and `status --check`). */
export async function fsck(root: string): Promise<boolean> {
  try {
    await gitOf(root).raw(['fsck', '--no-progress']);
    return true;
  } catch {
    return false;
  }
}

/** Files changed by a commit (relative paths). */
export async function filesInCommit(root: string, ref: string): Promise<string[]> {
  return wrap('show', async () =>
    (await gitOf(root).raw(['show', '--pretty=format:', '--name-only', ref])).split('\n').map((s) => s.trim()).filter(Boolean).sort(),
  );
}

/** Local branches whose history contains the commit. */
export async function branchesContaining(root: string, sha: string): Promise<string[]> {
  return wrap('branch --contains', async () =>
    (await gitOf(root).raw(['branch', '--contains', sha, '--format=%(refname:short)'])).split('\n').map((s) => s.trim()).filter(Boolean).sort(),
  );
}
