import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeAtomic } from './atomic-write.js';
import { stableStringify } from '../core/json.js';
import { WORLD_FILES, type World } from '../domain/world.js';

/**
 * The world store adapter, writing side. Every file goes out as canonical JSON (sorted keys,
 * 2-space indentation, trailing newline) atomically and whole (store/atomic-write.ts), so a
 * crash, a full disk or a file-size limit never leaves half a file, and only when its bytes change, so an unchanged file keeps its
 * mtime and git sees nothing.
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

/** Write one part of the world (e.g. "characters") to its file. Returns true when written. */
export async function writeWorldFile<K extends keyof World>(root: string, key: K, data: World[K]): Promise<boolean> {
  return writeJsonFile(path.join(root, WORLD_FILES[key]), data);
}

/** Write every part of the world; returns the relative paths that changed, in WORLD_FILES order. */
export async function writeWorld(root: string, world: World): Promise<string[]> {
  const changed: string[] = [];
  for (const key of Object.keys(WORLD_FILES) as (keyof World)[]) {
    if (await writeWorldFile(root, key, world[key])) changed.push(WORLD_FILES[key]);
  }
  return changed;
}
