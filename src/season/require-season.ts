import fs from 'node:fs';
import path from 'node:path';
import { diag } from '../diagnostics/index.js';
import { AureusError, ExitCode } from '../errors.js';
import { seasonGoalsRel } from '../paths.js';

/**
 * An episode may only be compiled in a season that has its goals (seasons/season_NN/
 * season_goals.json): without them thread pacing and the finale are undefined, and `--season 99`
 * would commit s99e01 into nothing. Usage error AUR7050 naming the seasons that do exist.
 */
export function requireSeasonGoals(root: string, season: number): void {
  const rel = seasonGoalsRel(season);
  if (fs.existsSync(path.join(root, rel))) return;
  let known: string[] = [];
  try {
    known = fs
      .readdirSync(path.join(root, 'seasons'))
      .map((n) => /^season_(\d+)$/.exec(n)?.[1])
      .filter((n): n is string => !!n && fs.existsSync(path.join(root, seasonGoalsRel(Number(n)))))
      .map((n) => String(Number(n)));
  } catch {
    /* no seasons/ folder */
  }
  throw new AureusError(`season ${season} has no season goals`, {
    exitCode: ExitCode.USAGE,
    diagnostics: [diag('AUR7050', { season, file: rel, known: known.join(', ') || 'none' }, { file: rel })],
  });
}
