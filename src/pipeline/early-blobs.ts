import type { GitPort } from '../git/port.js';
import { testKillHook } from './checkpoint.js';

/**
 * Blobs of the episode's commit stored while the run still works on the rest (issue 18).
 *
 * At the commit, `git add` hashes every file and writes each object it does not find: ~65 loose
 * objects for a starter episode (each compressed into a file, often in a new folder of
 * .git/objects), most of the add's 80–250 ms, on the critical path. The planning files (context,
 * proposals, plan, packets: ~80% of the commit's bytes, 27 of its files) are final once stage D is
 * done, and the planning checkpoint holds them as files (pipeline/planning-checkpoint.ts), so
 * `git hash-object -w` can store them from there, from the run's shell, while the scenes are
 * written; the add then only hashes them and finds them stored.
 *
 * Only when stage F verifies in a worker: this thread then mostly waits during the scenes, so its
 * core is there for git. Without a worker this thread verifies every scene itself, and storing
 * them then was measured to lengthen stages E–G by what it saved the commit (docs/benchmarks.md,
 * twelfth pass).
 *
 * Nothing else changes: the commit still adds, commits and tags with porcelain git, which decides
 * what is committed. Nothing here touches the index, a ref or a world file. A blob the commit does
 * not use (the run fails or is interrupted, or a path's attributes make `git add` store other bytes)
 * is an object nothing reaches, which git's gc prunes; a killed hash-object leaves at most a
 * `tmp_obj_*` file that gc removes too. Without the run's shell (`--no-commit`, not Linux) nothing
 * is stored early.
 */
export function storePlanningBlobs(git: GitPort, stored: { dir: string; names: string[] } | null, verifyWorkers: number): Promise<boolean> | null {
  if (!stored || verifyWorkers < 1) return null;
  return git.storeBlobs(stored.dir, stored.names).then((ok) => {
    testKillHook('planning-blobs');
    return ok;
  });
}

