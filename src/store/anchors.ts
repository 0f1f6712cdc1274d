import { access } from 'node:fs/promises';
import path from 'node:path';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { ANCHORS_REL, type Anchor, type AnchorsFile } from '../domain/anchors.js';
import type { World } from '../domain/world.js';
import { isValidDate } from '../core/roman-date.js';
import { didYouMean, listSome } from './suggest.js';

/**
 * world/anchors.json (optional; issue 17, item 4): what a schema cannot say — ids unique, each
 * operator exists, each date a real day of the world's calendar (core/roman-date.ts: a 29-day
 * Aprilis has no 30th). Pure: data in, diagnostics out; load.ts reads the file.
 */
export function checkAnchorReferences(world: World, file: AnchorsFile, rel = ANCHORS_REL): Diagnostic[] {
  const out: Diagnostic[] = [];
  const ops = new Set(world.operators.operators.map((o) => o.id));
  const seen = new Map<string, string>();
  file.anchors.forEach((a, i) => {
    const at = `/anchors/${i}`;
    const first = seen.get(a.id);
    if (first) out.push(diag('AUR1020', { kind: 'anchor', id: a.id, first }, { file: rel, pointer: `${at}/id` }));
    else seen.set(a.id, `${at}/id`);
    a.operators.forEach((op, j) => {
      if (!ops.has(op)) {
        const known = [...ops];
        out.push(diag('AUR1022', { what: 'operator', id: op, kind: 'operator', known: listSome(known), suggestion: didYouMean(op, known) }, { file: rel, pointer: `${at}/operators/${j}` }));
      }
    });
    if (!isValidDate(a.date)) out.push(diag('AUR1034', { id: a.id, day: a.date.day, month: a.date.month, year: a.date.year_bc }, { file: rel, pointer: `${at}/date` }));
  });
  return out;
}

export async function hasAnchorsFile(root: string): Promise<boolean> {
  try {
    await access(path.join(root, ANCHORS_REL));
    return true;
  } catch {
    return false;
  }
}

export type { Anchor };
