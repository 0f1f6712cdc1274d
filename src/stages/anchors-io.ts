import fs from 'node:fs';
import path from 'node:path';
import type { EpisodeRef } from '../domain/context.js';
import { episodeRef } from '../domain/context.js';
import type { EpisodePlan } from '../domain/plan.js';
import type { World } from '../domain/world.js';
import { ANCHORS_REL, type Anchor, type AnchorsFile } from '../domain/anchors.js';
import { AureusError, ExitCode } from '../errors.js';
import { episodePlanRel } from '../paths.js';
import { loadJsonFile } from '../store/load.js';
import { checkAnchorReferences, hasAnchorsFile } from '../store/anchors.js';

/**
 * The I/O edge of historical anchors for planning (c-director/anchors.ts is the pure part).
 * `readAnchors`: world/anchors.json, or [] when the world has none; an invalid file is exit 3
 * with the same diagnostics `aureus validate` gives.
 */
export async function readAnchors(root: string, world: World): Promise<Anchor[]> {
  if (!(await hasAnchorsFile(root))) return [];
  const r = loadJsonFile(root, ANCHORS_REL, 'anchors');
  const diagnostics = r.value === undefined ? r.diagnostics : checkAnchorReferences(world, r.value as AnchorsFile);
  if (diagnostics.some((d) => d.severity === 'error')) {
    throw new AureusError(`${ANCHORS_REL} is invalid`, { exitCode: ExitCode.INVALID_WORLD, diagnostics, hint: 'run `aureus validate`, fix the file, then re-run' });
  }
  return (r.value as AnchorsFile).anchors;
}

/**
 * The operators played in the season's earlier episodes (their committed plans): a `by` anchor
 * already played is not required again. A missing or unreadable plan counts as no moves.
 */
export async function readPlayedOperators(root: string, ref: EpisodeRef): Promise<Set<string>> {
  const out = new Set<string>();
  for (let e = 1; e < ref.episode; e++) {
    const rel = episodePlanRel(episodeRef(ref.season, e));
    try {
      const v = JSON.parse(await fs.promises.readFile(path.join(root, rel), 'utf8')) as Partial<EpisodePlan>;
      for (const b of v.beats ?? []) for (const a of b.applications ?? []) if (a.operator_id) out.add(a.operator_id);
    } catch { /* no plan there */ }
  }
  return out;
}
