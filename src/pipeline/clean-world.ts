import { diag } from '../diagnostics/index.js';
import { AureusError, ExitCode } from '../errors.js';
import type { GitPort } from '../git/port.js';
import { isAtomicTemp } from './commit-safety.js';

/**
 * Refuse to work on top of uncommitted edits under `paths` (exit 8, AUR6001 naming up to eight
 * files): an episode run would commit them as the episode's, a branch or rollback would carry or
 * clobber them. One check for every command that changes the world's history.
 */
export async function requireCleanWorld(git: GitPort, paths: string[], opts: { allowDirtyFlag?: boolean; readOnly?: boolean } = {}): Promise<void> {
  // An untracked temp file of an atomic write (write-file-atomic or store/durable.ts) (left by a kill mid-write) is not an edit: recovery removes it.
  const dirty = (await git.status(paths, { readOnly: opts.readOnly })).filter((e) => !(e.index === '?' && isAtomicTemp(e.path)));
  if (dirty.length === 0) return;
  const files = dirty.map((e) => e.path).slice(0, 8).join(', ');
  // Only suggest --allow-dirty to a command that accepts it (rollback does not).
  const override = opts.allowDirtyFlag === false ? '' : ', or pass --allow-dirty to run on top of them';
  throw new AureusError('the world has uncommitted changes', { exitCode: ExitCode.DIRTY_WORLD, diagnostics: [diag('AUR6001', { files, override })] });
}

/**
 * What an episode is compiled from, besides the world: the style guide and lexicon steer the writer
 * and the verifier, the config picks models, budgets and the packet budget. An edit to any of them
 * that is not committed would make the committed episode impossible to reproduce from its commit.
 */
export const EPISODE_INPUT_PATHS = ['world', 'operators', 'style', 'aureus.config.yaml'];
