import path from 'node:path';
import { WORLD_FILES } from '../domain/world.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import type { GitPort } from '../git/port.js';
import { shellWord } from '../core/shell-word.js';
import { EPISODE_FILE, EPISODE_FOLDER, pathArgs } from './commit-safety.js';

/**
 * Refuse (exit 8, AUR6067), with or without --allow-dirty, an episode folder other than the one
 * asked for whose episode files git has no copy of, its closing cliffhanger among them: what a
 * commit that could not finish (AUR6018) leaves when only its run folder is removed. The folder
 * counts as a committed episode (season/episodes.ts episodesInTree reads the cliffhanger), so the
 * next run compiled the episode after it, and with --allow-dirty its commit carried the folder's
 * plan and cliffhanger (inputs of the next episode) and the world edits of the unfinished apply:
 * half an episode in another's commit, its own never tagged. The hint gives the commands that
 * finish undoing it (as AUR6018's did), or the one that commits it if it is the author's.
 */
export async function refuseLeftoverEpisodes(git: GitPort, askedDir: string): Promise<void> {
  const entries = await git.status(['seasons', ...Object.values(WORLD_FILES)], { readOnly: true });
  const byFolder = new Map<string, string[]>();
  for (const e of entries) {
    if (e.index !== '?' && e.index !== 'A') continue;
    const folder = EPISODE_FOLDER.exec(e.path)?.[0];
    if (!folder || folder === askedDir || !EPISODE_FILE.test(path.posix.relative(folder, e.path))) continue;
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), e.path]);
  }
  const left = [...byFolder.keys()].filter((f) => byFolder.get(f)!.includes(`${f}/cliffhanger_constraints.json`)).sort();
  if (!left.length) return;
  const world = entries.filter((e) => e.path.startsWith('world/') && e.index !== '?' && e.index !== 'A').map((e) => e.path);
  // Every one named: the world files are a handful (WORLD_FILES), and the command must run as given.
  const checkout = world.length ? ` && git checkout HEAD -- ${world.map(shellWord).join(' ')}` : '';
  throw new AureusError(`${left.join(', ')} holds an episode git has no copy of`, {
    exitCode: ExitCode.DIRTY_WORLD,
    diagnostics: [diag('AUR6067', { folders: left.join(', '), undo: `git clean -fd -- ${pathArgs(left)}${checkout}`, target: pathArgs(left) })],
  });
}
