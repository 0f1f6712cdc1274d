import { describe, expect, it } from 'vitest';
import { applyDeltas, resolveEffects } from '../../src/core/deltas/index.js';
import { decayDeltas } from '../../src/core/decay.js';
import { checkPrereqs, operatorRoleKinds } from '../../src/core/expr/index.js';
import { typecheckWorldExpressions } from '../../src/core/expr/check.js';
import { checkHardConstraints, checkLedger, checkLedgerConservation } from '../../src/core/invariants.js';
import { stableStringify } from '../../src/core/json.js';
import { indexWorld } from '../../src/core/world-index.js';
import type { RoleKind } from '../../src/domain/world.js';
import { readStarterWorld, rolePools } from '../support/starter-world.js';

describe('the starter kit against the core', () => {
  // The starter kit (world/ and operators/ at the repository root), read as plain JSON.
  const world = readStarterWorld();
  const index = indexWorld(world);
  it('type-checks every operator and constraint expression', () => {
    expect(typecheckWorldExpressions(world)).toEqual([]);
  });
  it('satisfies the ledger invariant and every hard constraint', () => {
    expect(checkLedger(world)).toEqual([]);
    expect(checkHardConstraints(index)).toEqual([]);
  });
  it('resolves and applies every operator under some binding without a path or value error', () => {
    const ids = rolePools(world);
    let applicable = 0;
    for (const op of world.operators.operators) {
      const kinds = operatorRoleKinds(op);
      // Try a few rotations of the candidates; keep the first binding whose prerequisites hold.
      let done = false;
      for (let shift = 0; shift < ids.character.length && !done; shift++) {
        const used = new Map<RoleKind, number>();
        const bindings: Record<string, string> = {};
        for (const [role, kind] of Object.entries(kinds)) {
          const n = used.get(kind) ?? 0;
          used.set(kind, n + 1);
          const pool = ids[kind];
          bindings[role] = pool[(shift + n) % pool.length]!;
        }
        const res = resolveEffects(op.effects, bindings, index, { roleKinds: kinds });
        expect(res.ok ? [] : res.diagnostics, `${op.id} ${JSON.stringify(bindings)}`).toEqual([]);
        if (!res.ok || !checkPrereqs(op, bindings, index).holds) continue;
        const r = applyDeltas(world, res.deltas, () => ({ episode: 's01e01', scene: 'SC01', event: 'e1', operator: op.id }));
        if (!r.ok) {
          // Only state-dependent failures (an overdraw) are acceptable.
          expect(r.diagnostics.map((d) => d.code), op.id).toEqual(['AUR2025']);
          continue;
        }
        expect(checkLedgerConservation(world, r.world, res.deltas)).toEqual([]);
        applicable++;
        done = true;
      }
    }
    expect(applicable).toBeGreaterThan(world.operators.operators.length / 2);
  });
  it('decays the kit deterministically', () => {
    const a = applyDeltas(world, decayDeltas(world), () => ({ episode: 's01e01', scene: 'decay', event: 'decay', operator: null }));
    const b = applyDeltas(readStarterWorld(), decayDeltas(readStarterWorld()), () => ({ episode: 's01e01', scene: 'decay', event: 'decay', operator: null }));
    expect(a.ok && b.ok && stableStringify(a.world) === stableStringify(b.world)).toBe(true);
  });
});
