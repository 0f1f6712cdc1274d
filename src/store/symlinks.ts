import fs from 'node:fs';
import path from 'node:path';

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
