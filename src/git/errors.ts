import { diag } from '../diagnostics/index.js';
import { interruptedDuring } from '../diagnostics/interrupted.js';
import { AureusError, ExitCode } from '../errors.js';
import { GitInterrupted, gitOnPath } from './exec.js';

/**
 * Git's failures as Aureus's errors (the adapter's, ./adapter.ts): what git said, cut to its telling
 * lines, with the hint that fits the cause (no git at all, a signing program that failed).
 */

/** The lines of git's output that say what went wrong ("fatal: …", "nothing to commit…"), at most 3. */
export function summarizeGitOutput(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const telling = lines.filter((l) => /^(fatal|error):/i.test(l) || /nothing (added )?to commit|no changes added to commit/i.test(l));
  return (telling.length ? telling : lines).slice(0, 3).join(' ');
}

/** AUR6031 (exit 10): no git to run, for every command that needs one. */
export function gitNotFound(): AureusError {
  return new AureusError('git was not found on PATH', { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6031', {})] });
}

/** What git says when commit.gpgsign / tag.gpgSign is on and the signing program fails ("gpg failed to sign the data", "unable to sign the tag"). */
export const SIGNING_FAILED = /failed to sign|unable to sign/i;

/**
 * The hint for a commit or tag git could not sign in the repository at `root`: the cause is the
 * user's signing setup, not the repository, so "check the repository with git status" misleads.
 */
export function signingHint(root: string): string {
  return `git is set to sign commits and tags here (commit.gpgsign, tag.gpgSign) and its signing program failed: make the signing key work (user.signingkey, gpg.format), or turn signing off for this world with \`git -C ${root} config commit.gpgsign false\` (and \`tag.gpgSign false\`)`;
}

/** The environment that turns commit signing off for one command (git reads it as its config). */
export const UNSIGNED_ENV = 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=commit.gpgsign GIT_CONFIG_VALUE_0=false';

/**
 * A new world's first commit git could not sign (commit.gpgsign with no working key), made in a
 * staging folder (`init`, `import`): the adapter's hint names that folder, which is gone by now.
 * This one says how to make the world unsigned: `unsigned` is how to run the command again
 * without signing, said by the command. Any other error is returned as it is.
 */
export function unsignedFirstCommit(e: unknown, target: string, unsigned: string): unknown {
  const d = e instanceof AureusError ? e.diagnostics[0] : undefined;
  if (!(e instanceof AureusError) || d?.code !== 'AUR6010' || !SIGNING_FAILED.test(d.message)) return e;
  const hint = `git is set to sign commits (commit.gpgsign) and its signing program failed: make the signing key work (user.signingkey, gpg.format), or ${unsigned} and keep it off there with \`git -C ${target} config commit.gpgsign false\``;
  return new AureusError(e.message, { exitCode: e.exitCode, diagnostics: [{ ...d, hint }, ...e.diagnostics.slice(1)], cause: e.cause });
}

/** Run one git step; any failure but an AureusError becomes AUR6010 (exit 10) naming the step. */
export async function wrap<T>(what: string, fn: () => Promise<T>, root?: string): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof AureusError) throw e;
    // Ctrl-C stopped git: the interrupt it is (exit 130), for the command's own handling of one (exec.ts GitInterrupted).
    if (e instanceof GitInterrupted) throw gitInterrupt(what, e);
    if (!gitOnPath()) throw gitNotFound();
    const message = summarizeGitOutput(e instanceof Error ? e.message : String(e));
    const hint = root !== undefined && SIGNING_FAILED.test(message) ? { hint: signingHint(root) } : {};
    throw new AureusError(`git ${what} failed: ${message}`, { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6010', { what, message }, hint)], cause: e });
  }
}

/** A git command stopped by the user's Ctrl-C (exec.ts GitInterrupted), as the interrupt it is: exit 130, AUR6008. */
export function gitInterrupt(what: string, cause?: unknown): AureusError {
  return interruptedDuring(`git ${what}`, { cause });
}
