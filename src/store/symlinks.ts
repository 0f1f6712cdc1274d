import fs from 'node:fs';
import path from 'node:path';
import { diag, type Diagnostic } from '../diagnostics/index.js';

/**
 * The first symbolic link among the given repository paths or the folders on the way to them
 * ("world", "world/secrets.json", "seasons/season_01/episode_01"), or null. One function for both
 * sides: the commit refuses to write through such a link (pipeline/commit-safety.ts, AUR6050), and
 * validate reports a world file behind one up front (AUR1052), so a run is not refused at its commit
 * after all its work.
 */
export function firstSymlink(root: string, rels: readonly string[]): string | null {
  const checked = new Set<string>();
  for (const rel of rels) {
    const parts = rel.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const sub = parts.slice(0, i).join('/');
      if (checked.has(sub)) continue;
      checked.add(sub);
      let st: fs.Stats;
      try {
        st = fs.lstatSync(path.join(root, sub));
      } catch {
        break; // does not exist yet: nothing below it can be a link
      }
      if (st.isSymbolicLink()) return sub;
    }
  }
  return null;
}

/**
 * AUR1052: a repository path an episode commit writes (a world file, a season's notes, the episode
 * folder a run creates) behind a symbolic link that stays inside the repository. Reading through it
 * is harmless, but the commit refuses to write through a link (AUR6050, after the whole run): said
 * up front instead, so validate and the run's preflight catch it before any work.
 */
export function linkedPath(root: string, rel: string): Diagnostic | null {
  const link = firstSymlink(root, [rel]);
  return link ? diag('AUR1052', { file: rel, link }, { file: rel }) : null;
}
