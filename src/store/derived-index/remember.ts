import { isParsedCanonical } from '../../core/json.js';
import { at, noteKnownHashes, type WorldList } from '../../core/known-hashes.js';
import { CHUNK, StateHasher } from '../../core/state-hash.js';
import type { Diagnostic } from '../../diagnostics/index.js';
import type { LoadedWorld } from '../load.js';
import { buildId } from './build-id.js';
import { INDEX_FORMAT, writeEntry, type IndexEntry } from './entry.js';

/**
 * After a load for a command that compiles (store/validate.ts loadValidatedWorld), with the world
 * valid: the world's hashes are noted for every StateHasher of this process (core/known-hashes.ts)
 * from the entry that vouched for the files, at once (no I/O); on a miss, the returned function
 * takes them once and writes the entry, so that the next command on the same files skips the checks
 * and the hashing. The caller calls it when the command goes ahead: a refused command (a dirty
 * world, an episode already committed) writes nothing, not even .aureus/ (pipeline/episode-choice.ts).
 *
 * Only a world every world check ran on gets an entry (`checks.constraints` null: an error in the
 * season notes kept the hard constraints from running, so there is no verdict to keep). Taking the
 * hashes costs nothing extra for `episode plan` and `episode run`: they hash the world anyway (the
 * default seed, stage A), and then find these.
 */
export function rememberWorld(root: string, loaded: LoadedWorld, checks: { expressions: Diagnostic[]; constraints: Diagnostic[] | null }): () => void {
  const ix = loaded.index;
  const world = loaded.world;
  const none = (): void => {};
  if (!ix || !world) return none;
  const kept = ix.entry?.hashes;
  if (kept && noteKept(world, kept)) return none;
  if (!ix.entry && checks.constraints === null) return none;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const build = buildId();
    if (!build) return;
    const hasher = new StateHasher();
    const flat = hasher.flatHash(world);
    const lists = hasher.listsOf(world);
    noteKnownHashes(world, flat, lists);
    const entry: IndexEntry = ix.entry ?? {
      format: INDEX_FORMAT,
      build,
      key: ix.key,
      canonical: ix.canonical,
      diagnostics: { load: loaded.diagnostics, expressions: checks.expressions, constraints: checks.constraints ?? [] },
    };
    writeEntry(root, { ...entry, hashes: { flat, lists: lists.map((l) => ({ path: [...l.path], digests: [...l.digests] })) } });
  };
}

/** Note an entry's hashes against the parsed world; false when one of its lists is not where, or as long as, the entry says. */
function noteKept(world: object, kept: NonNullable<IndexEntry['hashes']>): boolean {
  const lists: WorldList[] = [];
  for (const l of kept.lists) {
    const list = at(world, l.path);
    if (!Array.isArray(list) || Math.ceil(list.length / CHUNK) !== l.digests.length) return false;
    // As listsOf says it: the file the list lies in was parsed canonical throughout (its mark is put back from the entry).
    lists.push({ path: l.path, list, digests: l.digests, canonical: isParsedCanonical(at(world, l.path.slice(0, 1))) });
  }
  noteKnownHashes(world, kept.flat, lists);
  return true;
}
