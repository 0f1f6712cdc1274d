import { gitOutput } from './exec.js';

/**
 * The git steps of `aureus rollback` (season/rollback.ts, season/rollback-switch.ts), split so the
 * rollback is one step to its user: every revert commit and tag object is built first, as objects
 * nothing refers to yet (an interrupt there leaves HEAD, index, work tree and tags exactly as they
 * were; git prunes the objects), and only then are the work tree and the refs moved, by the two
 * commands below, each run in a process group of its own so a terminal's Ctrl-C cannot stop it
 * halfway (the caller finishes the switch first, with a journal for a kill: season/rollback-journal.ts).
 */

/** A ref change of the switch, for `git update-ref --stdin`: the value expected now, and the new one (null: delete). */
export interface RefChange {
  ref: string;
  old: string | null;
  new: string | null;
}

/**
 * Revert commits for `newestFirst`, a line of single-parent commits ending at HEAD, each on the one
 * before, as `git revert` of each would make them (newest first) — but with `git commit-tree`, so
 * no ref, index or file changes. Reverting the newest commit of a line restores its parent's tree
 * exactly (the merge's base and ours are the same tree), so each revert's tree is its commit's
 * parent's. A merge commit in the line is refused, as `git revert` without -m refused it.
 */
export async function buildReverts(root: string, newestFirst: string[], messageFor: (sha: string) => string, env: Record<string, string>, signal?: AbortSignal): Promise<string[]> {
  const made: string[] = [];
  // `git commit-tree` ignores commit.gpgSign (plumbing, since git 2.x); `git revert` honoured it, and an author who
  // signs every commit gets signed reverts: -S when it is on, as git's own scripts do. A signing program that fails
  // is AUR6010 with the signing hint (errors.ts), before anything is moved.
  const sign = (await configValue(root, 'commit.gpgsign', 'bool')) === 'true';
  let tip = newestFirst[0]!;
  for (const [i, sha] of newestFirst.entries()) {
    if (signal?.aborted) throw signal.reason;
    const parents = (await gitOutput(root, ['rev-list', '--parents', '-n', '1', sha])).trim().split(' ').slice(1);
    if (parents.length > 1) throw new Error(`error: commit ${sha} is a merge: rollback reverts single-parent commits only`);
    // The parent's tree is the revert's only when each commit is the parent of the one before.
    const next = newestFirst[i + 1];
    if (next !== undefined && parents[0] !== next) throw new Error(`error: commit ${next} is not the parent of ${sha}: not one line of commits`);
    // The first commit of the repository has no parent: its revert is the empty tree.
    const tree = parents.length ? `${parents[0]}^{tree}` : (await gitOutput(root, ['mktree'], {}, { input: '' })).trim();
    // commit-tree ends the message with one newline of its own; -m keeps it as given otherwise.
    tip = (await gitOutput(root, ['commit-tree', tree, '-p', tip, ...(sign ? ['-S'] : []), '-m', messageFor(sha).replace(/\n+$/, '')], env)).trim();
    made.push(tip);
  }
  return made;
}

/** An annotated tag object for `commit`, as `git tag -a name -m message commit` makes one, but no ref yet. */
export async function tagObject(root: string, name: string, message: string, commit: string, env: Record<string, string>): Promise<string> {
  const tagger = (await gitOutput(root, ['var', 'GIT_COMMITTER_IDENT'], env)).trim();
  const body = `object ${commit}\ntype commit\ntag ${name}\ntagger ${tagger}\n\n${message.replace(/\n+$/, '')}\n`;
  return (await gitOutput(root, ['mktag'], env, { input: body })).trim();
}

/** The object a ref names as it stands (a tag's tag object, not its commit), or null when there is none. */
export async function refValue(root: string, ref: string): Promise<string | null> {
  try {
    return (await gitOutput(root, ['rev-parse', '--verify', '--quiet', ref])).trim() || null;
  } catch {
    return null;
  }
}

/**
 * The index and work tree moved from tree `from` to tree `to` (`git read-tree -m -u`, a two-way
 * merge: what the author staged or changed elsewhere is kept; a changed file the move would
 * overwrite refuses it whole, before anything is written). `force` (`--reset`): files of the move
 * are overwritten whatever they hold, for the finish of a move a kill cut halfway, whose half-written
 * files are the move's own.
 */
export async function moveWorkTree(root: string, from: string, to: string, force: boolean): Promise<void> {
  await gitOutput(root, ['read-tree', ...(force ? ['--reset'] : ['-m']), '-u', from, to], {}, { detached: true });
}

/** All `changes` at once or none (`git update-ref --stdin` locks every ref first, each at its expected value). */
export async function updateRefs(root: string, changes: RefChange[], reason: string): Promise<void> {
  // `create` refuses a ref that exists; `delete` and `update` one that moved from `old`.
  const line = (c: RefChange) => (c.new === null ? `delete ${c.ref} ${c.old ?? ''}` : c.old === null ? `create ${c.ref} ${c.new}` : `update ${c.ref} ${c.new} ${c.old}`);
  await gitOutput(root, ['update-ref', '-m', reason, '--stdin'], {}, { detached: true, input: changes.map(line).join('\n') + '\n' });
}


/** A config value as git reads it (`--type`: bool gives "true"/"false"), or null when it is not set. */
async function configValue(root: string, key: string, type: 'bool'): Promise<string | null> {
  try {
    return (await gitOutput(root, ['config', `--type=${type}`, '--get', key])).trim() || null;
  } catch {
    return null; // exit 1: not set
  }
}
