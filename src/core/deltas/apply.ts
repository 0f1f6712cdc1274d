import type { AppliedDelta, Provenance, ResolvedDelta } from '../../domain/delta.js';
import type { World } from '../../domain/world.js';
import { diag } from '../../diagnostics/catalog.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { applyOne } from './apply-one.js';
import { Draft } from './draft.js';
import { Fail, fail } from './values.js';

/**
 * The delta engine: applies a batch of resolved deltas to a World, transactionally and
 * immutably. The input world is never mutated; the output shares every untouched file and
 * entity with the input (copy-on-write, draft.ts). A batch applies whole or not at all.
 * One delta's path, op and value checks live in apply-one.ts and values.ts.
 */

export type ApplyResult =
  | { ok: true; world: World; applied: AppliedDelta[] }
  | { ok: false; diagnostics: Diagnostic[]; failedIndex: number };

/**
 * Apply a batch. On success: a new World (sharing untouched parts with the input) and one
 * AppliedDelta per delta, with provenance and before/after values. On failure: the
 * diagnostics and the index of the delta that failed; the input world is untouched.
 */
export function applyDeltas(
  world: World,
  deltas: readonly ResolvedDelta[],
  provenance: (d: ResolvedDelta, i: number) => Provenance,
): ApplyResult {
  const draft = new Draft(world);
  const applied: AppliedDelta[] = [];
  for (let i = 0; i < deltas.length; i++) {
    const d = deltas[i]!;
    let r: { before: unknown; after: unknown };
    try {
      if (d === null || typeof d !== 'object') fail('AUR2022', { path: '(delta)', detail: 'a delta must be an object' });
      // A number the record keeps must be one JSON can write: the applied list is written as canonical
      // JSON (episode_deltas.json, play's canon records), which refuses Infinity and NaN. The value's
      // own checks are the target's (values.ts); an amount rides along on any op, and a value on a transfer
      // (which reads only its amount), so both are checked here.
      for (const k of ['amount', 'value'] as const) {
        const v = d[k];
        if (typeof v === 'number' && !Number.isFinite(v)) fail('AUR2022', { path: String(d.path), detail: `the ${k} is not a finite number` });
      }
      r = applyOne(draft, d);
    } catch (e) {
      if (e instanceof Fail) return { ok: false, diagnostics: [e.diagnostic], failedIndex: i };
      // A malformed world (missing fields) must not crash the engine: reject the batch.
      const detail = e instanceof Error ? e.message : String(e);
      return { ok: false, diagnostics: [diag('AUR2022', { path: String(d?.path), detail })], failedIndex: i };
    }
    const a: AppliedDelta = { ...copyDelta(d), provenance: provenance(d, i), before: r.before, after: r.after };
    applied.push(a);
  }
  draft.seal();
  return { ok: true, world: draft.w, applied };
}

/** Only the ResolvedDelta fields (a caller's extra fields, e.g. application_id, are dropped). */
function copyDelta(d: ResolvedDelta): ResolvedDelta {
  const out: ResolvedDelta = { path: d.path, op: d.op };
  if (d.value !== undefined) out.value = d.value;
  if (d.from !== undefined) out.from = d.from;
  if (d.to !== undefined) out.to = d.to;
  if (d.amount !== undefined) out.amount = d.amount;
  return out;
}
