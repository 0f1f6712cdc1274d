import { diag } from '../diagnostics/index.js';
import { AureusError, ExitCode } from '../errors.js';
import type { GitPort } from '../git/port.js';
import { isAtomicTemp } from './commit-safety.js';

/**
 * Refuse to work on top of uncommitted edits under `paths` (exit 8, AUR6001 naming up to eight
 * files): an episode run would commit them as the episode's, a branch or rollback would carry or
 * clobber them. One check for every command that changes the world's history.
 */
export async function requireCleanWorld(git: GitPort, paths: string[]): Promise<void> {
  // An untracked write-file-atomic temp file (left by a kill mid-write) is not an edit: recovery removes it.
  const dirty = (await git.status(paths)).filter((e) => !(e.index === '?' && isAtomicTemp(e.path)));
  if (dirty.length === 0) return;
  const files = dirty.map((e) => e.path).slice(0, 8).join(', ');
  throw new AureusError('the world has uncommitted changes', { exitCode: ExitCode.DIRTY_WORLD, diagnostics: [diag('AUR6001', { files })] });
}
