import { stableStringify } from '../core/json.js';
import { WORLD_GITATTRIBUTES } from '../git/attributes.js';
import type { SeasonGoals, World } from '../domain/world.js';
import { WORLD_FILES } from '../domain/world.js';
import { seasonGoalsRel } from '../paths.js';
import type { StarterKit } from './kit.js';
import { compareText } from '../core/text-order.js';

/** Relative path → file bytes: the whole world repository an import produces, before any write. */
export type RepoFiles = Map<string, string | Buffer>;

/** Render a World, its season goals and the kit's verbatim files into repository files (canonical JSON). */
export function worldRepoFiles(world: World, seasonGoals: SeasonGoals, kit: StarterKit, extra: Record<string, string>): RepoFiles {
  const files: RepoFiles = new Map();
  for (const [rel, buf] of [...kit.verbatim.entries()].sort(([a], [b]) => compareText(a, b))) files.set(rel, buf);
  for (const key of Object.keys(WORLD_FILES) as (keyof World)[]) files.set(WORLD_FILES[key], stableStringify(world[key]));
  files.set(seasonGoalsRel(seasonGoals.season ?? 1), stableStringify(seasonGoals));
  files.set('.gitignore', '.aureus/\n');
  files.set('.gitattributes', WORLD_GITATTRIBUTES);
  for (const [rel, text] of Object.entries(extra)) files.set(rel, text);
  return files;
}
