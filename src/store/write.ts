import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeAtomic } from './atomic-write.js';
import { stableStringify } from '../core/json.js';
import { worldFileText } from '../core/json-layout.js';
import { WORLD_FILES, type World } from '../domain/world.js';

/**
 * The world store adapter, writing side. Every file goes out atomically and whole (temp file +
 * rename, store/atomic-write.ts), so a crash, a full disk or a file-size limit never leaves half a
 * file, and only when its bytes change, so an unchanged file keeps its mtime and git sees nothing.
 * JSON is canonical (sorted keys, 2-space indentation, trailing newline), but a world file is laid
 * out as its author laid it out when it was loaded (core/json-layout.ts).
 */

/** Write `value` as canonical JSON to `absPath` if the bytes differ. Returns true when written. */
export async function writeJsonFile(absPath: string, value: unknown): Promise<boolean> {
  return writeTextFile(absPath, stableStringify(value));
}

/** Write text atomically if it differs from what is on disk. Returns true when written. */
export async function writeTextFile(absPath: string, text: string): Promise<boolean> {
  let current: string | undefined;
  try {
    current = await readFile(absPath, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (current === text) return false;
  await mkdir(path.dirname(absPath), { recursive: true });
  await writeAtomic(absPath, text);
  return true;
}

/**
 * Write one part of the world (e.g. "characters") to its file, laid out as `loaded` (the part as it
 * was loaded, which `data` may be a changed copy of) was in its file. Returns true when written.
 */
export async function writeWorldFile<K extends keyof World>(root: string, key: K, data: World[K], loaded: unknown = data): Promise<boolean> {
  // A file is written as the part it replaces was laid out: an in-place edit of a loaded part keeps its own layout.
  return writeTextFile(path.join(root, WORLD_FILES[key]), worldFileText(data, loaded));
}

/**
 * Write every part of the world, each laid out as that part of `loaded` was (the world `world` was
 * derived from by copy-on-write deltas). A part that is still the loaded object is left as it is on
 * disk: rewriting it could only change its layout (a file AUR1041 says cannot be written back line
 * for line). Without `loaded`, every part is written when its text differs. Returns the relative
 * paths that changed, in WORLD_FILES order.
 */
export async function writeWorld(root: string, world: World, loaded?: World): Promise<string[]> {
  const changed: string[] = [];
  for (const key of Object.keys(WORLD_FILES) as (keyof World)[]) {
    if (loaded && world[key] === loaded[key]) continue;
    if (await writeWorldFile(root, key, world[key], loaded?.[key])) changed.push(WORLD_FILES[key]);
  }
  return changed;
}
