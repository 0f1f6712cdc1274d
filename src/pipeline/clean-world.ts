import path from 'node:path';
import { WORLD_FILES } from '../domain/world.js';
import { readFileBytesSafe } from '../store/read.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { AureusError, ExitCode } from '../errors.js';
import type { GitPort, GitStatusEntry } from '../git/port.js';
import { someShellWords } from '../core/shell-word.js';
import { isAtomicTemp } from './commit-safety.js';
import { CONFIG_FILE } from '../paths.js';

/**
 * Refuse to work on top of uncommitted edits under `paths` (exit 8, AUR6001 naming up to eight
 * files): an episode run would commit them as the episode's, a branch or rollback would carry or
 * clobber them. One check for every command that changes the world's history.
 */
export async function requireCleanWorld(git: GitPort, paths: string[], opts: { allowDirtyFlag?: boolean; readOnly?: boolean } = {}): Promise<void> {
  const dirty = await uncommitted(git, paths, opts.readOnly);
  if (dirty.length === 0) return;
  const more = dirty.length > 8 ? ` and ${dirty.length - 8} more` : '';
  const files = dirty.map((e) => e.path).slice(0, 8).join(', ') + more;
  // Only suggest --allow-dirty to a command that accepts it (rollback does not).
  const override = opts.allowDirtyFlag === false ? '' : ', or pass --allow-dirty to run on top of them';
  throw new AureusError('the world has uncommitted changes', { exitCode: ExitCode.DIRTY_WORLD, diagnostics: [diag('AUR6001', { what: whatTheyAre(dirty.map((e) => e.path)), files, ...dirtyCommands(dirty), override })] });
}

/**
 * AUR6001's git commands, naming the dirty paths (a few, then how many more; quoted for a shell):
 * `git add` keeps them all; `git checkout HEAD` drops the edits to files git has (staged or not), `git clean` removes
 * the new files it lacks (`git rm` those added and never committed). The hint said `<file>`, and the
 * author had to work out which files and which command fits each.
 */
function dirtyCommands(dirty: GitStatusEntry[]): { keep: string; drop: string } {
  const cmd = (git: string, paths: string[]): string[] => {
    if (!paths.length) return [];
    const { words, more } = someShellWords(paths);
    return [`\`${git} -- ${words}\`${more ? ` (…and ${more} more: \`git status\` lists them)` : ''}`];
  };
  const all = dirty.map((e) => e.path);
  const keep = cmd('git add', all)[0]!.replace(/^`git add -- ([^`]*)`/, '`git add -- $1 && git commit`');
  const drop = [
    ...cmd('git checkout HEAD', dirty.filter((e) => e.index !== '?' && e.index !== 'A').map((e) => e.path)),
    ...cmd('git clean -fd', dirty.filter((e) => e.index === '?').map((e) => e.path)),
    ...cmd('git rm -f', dirty.filter((e) => e.index === 'A').map((e) => e.path)),
  ];
  return { keep, drop: drop.join(' and ') };
}

/**
 * What the dirty files are, as AUR6001 says it: "the world files" named a season's notes or goals,
 * an earlier episode's plan or a style file as well, which the author would look for under world/
 * and not find. Each kind once, in the order met.
 */
export function whatTheyAre(paths: string[]): string {
  const kinds = [...new Set(paths.map(kindOf))];
  return kinds.length <= 1 ? (kinds[0] ?? 'the world files') : `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)}`;
}

function kindOf(rel: string): string {
  if (rel.startsWith('world/')) return 'the world files';
  if (/^seasons\/[^/]+\/notes\.json$/.test(rel)) return 'the season notes';
  if (/^seasons\/[^/]+\/season_goals\.json$/.test(rel)) return 'the season goals';
  if (/^seasons\/[^/]+\/episode_[^/]+\//.test(rel)) return "the episodes' files";
  if (rel.startsWith('seasons/')) return 'the season files';
  if (rel.startsWith('operators/')) return 'the operators';
  if (rel.startsWith('style/')) return 'the style files';
  if (rel === CONFIG_FILE) return 'the config';
  return 'files this command commits';
}

/** The uncommitted edits under `paths`; an untracked temp file of an atomic write (left by a kill mid-write) is not one: recovery removes it. */
async function uncommitted(git: GitPort, paths: string[], readOnly?: boolean): Promise<GitStatusEntry[]> {
  return (await git.status(paths, { readOnly })).filter((e) => !(e.index === '?' && isAtomicTemp(e.path)));
}

/**
 * With --allow-dirty, the uncommitted edits the episode's commit will carry, as a warning (AUR6061)
 * said before the work and listed in --json's warnings: they were folded into the commit without a
 * word, and an author reading `git log` could not tell them from the episode's own changes.
 */
export async function allowedDirtyWarning(git: GitPort, paths: string[]): Promise<Diagnostic[]> {
  const dirty = await uncommitted(git, paths, true);
  if (dirty.length === 0) return [];
  const more = dirty.length > 8 ? ` and ${dirty.length - 8} more` : '';
  return [diag('AUR6061', { files: dirty.map((e) => e.path).slice(0, 8).join(', ') + more })];
}

/**
 * With --allow-dirty, the world files (WORLD_FILES) holding uncommitted edits: the episode's commit
 * carries them (AUR6061) whether or not the episode changes them (h-commit episodeFiles' `carried`).
 */
export async function dirtyWorldFiles(git: GitPort): Promise<string[]> {
  const files: string[] = Object.values(WORLD_FILES);
  return (await uncommitted(git, files, true)).map((e) => e.path).filter((p) => files.includes(p));
}

/**
 * With --allow-dirty, the episode's other inputs holding uncommitted edits (the season goals, the
 * notes, an earlier episode's plan or cliffhanger, the style guide, the config: `paths`), as they
 * stand now, for the episode's commit to carry as it carries the world files (stage H writes those
 * from its world): AUR6061 says they go into the commit, and the episode was made from them. A
 * file deleted, or not UTF-8 text (the commit writes text), cannot be carried and stays as it is.
 */
export async function carriedEdits(git: GitPort, root: string, paths: string[]): Promise<Record<string, string>> {
  const world: string[] = Object.values(WORLD_FILES);
  const out: Record<string, string> = {};
  for (const { path: rel } of await uncommitted(git, paths, true)) {
    if (world.includes(rel)) continue;
    // The store's reader: a FIFO planted there is refused, not waited on.
    const r = readFileBytesSafe(path.join(root, rel), rel);
    if (!r.ok) continue;
    const text = r.bytes.toString('utf8');
    if (Buffer.from(text, 'utf8').equals(r.bytes)) out[rel] = text;
  }
  return out;
}
