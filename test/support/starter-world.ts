import fs from 'node:fs';
import path from 'node:path';
import { WORLD_FILES, type RoleKind, type World } from '../../src/domain/world.js';

/** The repository root: the starter kit lives in its world/, operators/, style/ and seasons/. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** Read a JSON file of the repository as it is on disk (no store, no schema: tests check those). */
export const readRepoJson = <T = unknown>(rel: string): T => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, rel), 'utf8')) as T;

/** The ids a role of each kind may bind to: the living characters, every secret, thread, location and faction. */
export function rolePools(world: World): Record<RoleKind, string[]> {
  return {
    character: world.characters.characters.filter((c) => c.status === 'alive').map((c) => c.id),
    secret: world.secrets.secrets.map((s) => s.id),
    thread: world.threads.threads.map((t) => t.id),
    location: world.world.locations.map((l) => l.id),
    faction: world.factions.factions.map((f) => f.id),
  };
}

/** The starter kit as a World, read straight from the files WORLD_FILES names. */
export function readStarterWorld(): World {
  const parts = Object.fromEntries(Object.entries(WORLD_FILES).map(([key, rel]) => [key, readRepoJson(rel)]));
  return parts as unknown as World;
}
