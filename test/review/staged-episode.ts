import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { cli, makeWorld } from '../pipeline/world.js';

/** An episode staged for review: its world, its run folder and its staged script's path. */
export type Staged = { root: string; run: string; script: string };

/** A fresh world with its first episode staged for review (`episode run --review`, the offline provider, and `flags`). */
export async function stagedEpisode(label: string, flags: string[] = []): Promise<Staged> {
  const root = await makeWorld(label);
  const r = await cli(['episode', 'run', ...flags, '--review', '--json'], root);
  expect(r.code, r.stderr).toBe(0);
  const run = path.join(root, JSON.parse(r.stdout).run_dir as string);
  return { root, run, script: path.join(run, 'stage/seasons/season_01/episode_01/episode_script.md') };
}

/**
 * An author's edit of a staged scene, as a file beside the world for `scene edit --from`: the scene's section of the
 * staged script (its cast line dropped) with `line` added at the end. Returns the file's path.
 */
export function authorEdit(s: Staged, scene: string, next: string, line: string): string {
  const script = fs.readFileSync(s.script, 'utf8');
  const section = new RegExp(`## ${scene}[^\\n]*\\n([\\s\\S]*?)(?=\\n## ${next})`).exec(script)![1]!.replace(/^\*\*Cast:\*\*[^\n]*\n/m, '');
  const file = path.join(path.dirname(s.root), `${scene.toLowerCase()}.txt`);
  fs.writeFileSync(file, `${section.trim()}\n\n${line}\n`);
  return file;
}
