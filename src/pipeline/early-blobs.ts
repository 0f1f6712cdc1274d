import fs from 'node:fs';
import path from 'node:path';
import type { GitPort } from '../git/port.js';

/**
 * Blobs of the episode's commit stored while the run still works on the rest (issue 18).
 *
 * At the commit, `git add` hashes every file and writes each object it does not find: ~65 loose
 * objects for a starter episode (compressed, each a file and often a new folder in .git/objects),
 * most of the add's 70–250 ms, with the main thread idle and waiting. Most of the commit's bytes are
 * final long before it: the planning artefacts (context, proposals, plan, packets: ~80% of them)
 * once stage D is done, the drafts once stage F is. `git hash-object -w` stores them meanwhile, from
 * the run's shell on the other core, so the add only hashes them and finds them stored.
 *
 * Nothing else changes: the commit still adds, commits and tags with porcelain git, which decides
 * what is committed. Nothing here touches the index, a ref or a world file. A blob the commit does
 * not use (the run fails or is interrupted, or a path's attributes make `git add` store other bytes)
 * is an object nothing reaches, which git's gc prunes; a killed hash-object leaves at most a
 * `tmp_obj_*` file that gc removes too. Without the run's shell (`--no-commit`, not Linux) nothing
 * is stored early.
 */

/** Store `files` (repository path → the exact committed text) as blobs, from copies in <run>/blobs/. */
export async function storePlanningBlobs(git: GitPort, runDir: string, files: Record<string, string>): Promise<void> {
  const dir = path.join(runDir, 'blobs');
  // Short names: the shell reads its command line a byte at a time. Written off the main thread
  // (libuv's pool), which goes on with the scenes. A torn copy only makes a blob no commit uses: no
  // atomic write needed; one that cannot be written is stored by `git add` at the commit, as before.
  const texts = Object.values(files);
  let names: string[] = [];
  try {
    await fs.promises.mkdir(dir, { recursive: true });
    const written = await Promise.all(texts.map((text, i) => fs.promises.writeFile(path.join(dir, String(i)), text).then(() => String(i), () => null)));
    names = written.filter((n): n is string => n !== null);
  } catch {
    names = [];
  }
  await git.storeBlobs(dir, names);
  await fs.promises.rm(dir, { recursive: true, force: true }).catch(() => undefined);
}

/** Store the drafts (paths relative to the run folder, as the stage H checkpoint commits them) as blobs. */
export async function storeDraftBlobs(git: GitPort, runDir: string, drafts: string[]): Promise<void> {
  const present = drafts.filter((rel) => fs.existsSync(path.join(runDir, rel)));
  await git.storeBlobs(runDir, present);
}
