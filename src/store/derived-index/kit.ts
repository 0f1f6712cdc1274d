import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../paths.js';
import { INDEX_DIR } from './entry.js';

/**
 * The starter kit's own entry of the derived index, made when aureus is built (scripts/kit-index.mjs
 * plans nothing: it validates and hashes a world `aureus init` makes, as the first compiling command
 * on it would) and copied into every world `aureus init` makes. The kit is a fixed part of the
 * build, like the precompiled schemas, so checking it once per build rather than once per new world
 * is the same check: an unchanged new world's first `episode plan` or `episode run` (`npm run demo`
 * among them) skips the validation and the seed's hash of the whole world (~85 ms of CPU on the
 * starter world, most of it first-run compilation). The entry is keyed by the files' bytes like any
 * other, so a world edited before its first run is checked in full.
 */
export const KIT_INDEX_DIR = 'dist/kit-index';

/** Copy the kit's entries into a new world's .aureus/index/ (nothing when the build made none). */
export function copyKitIndex(worldRoot: string): void {
  const from = path.join(packageRoot(), KIT_INDEX_DIR);
  let names: string[];
  try {
    names = readdirSync(from).filter((n) => /^[0-9a-f]{64}\.json$/.test(n));
  } catch {
    return;
  }
  if (!names.length) return;
  const to = path.join(worldRoot, INDEX_DIR);
  mkdirSync(to, { recursive: true });
  // Written, not copyFileSync'd: a copy would keep the build's mode (644) over the user's umask.
  for (const n of names) writeFileSync(path.join(to, n), readFileSync(path.join(from, n)));
}
