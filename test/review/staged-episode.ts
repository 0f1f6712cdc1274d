import path from 'node:path';
import { expect } from 'vitest';
import { cli, makeWorld } from '../pipeline/world.js';

/** An episode staged for review: its world, its run folder and its staged script's path. */
export type Staged = { root: string; run: string; script: string };

/** A fresh world with its first episode staged for review (`episode run --review`, the offline provider). */
export async function stagedEpisode(label: string): Promise<Staged> {
  const root = await makeWorld(label);
  const r = await cli(['episode', 'run', '--review', '--json'], root);
  expect(r.code, r.stderr).toBe(0);
  const run = path.join(root, JSON.parse(r.stdout).run_dir as string);
  return { root, run, script: path.join(run, 'stage/seasons/season_01/episode_01/episode_script.md') };
}
