import fs from 'node:fs';
import path from 'node:path';
import { readStarterWorld } from '../support/starter-world.js';
import { describe, expect, it } from 'vitest';
import { checkPrereqs, operatorRoleKinds } from '../../src/core/expr/prereqs.js';
import { applyDeltas, resolveEffects } from '../../src/core/deltas/index.js';
import { Rng } from '../../src/core/rng.js';
import { indexWorld, ledgerTotal } from '../../src/core/world-index.js';
import type { RoleKind, World } from '../../src/domain/world.js';

/**
 * Does the starter kit survive a season's worth of moves without saturating? A Director-free
 * random walk: at each step a seeded random operator with a random binding whose prereqs hold
 * is applied (its risks rolled with the seed, as stage C does). Three episodes of 22 moves must
 * leave every global metric inside its range, off its bounds, the ledger total unchanged
 * (the kit only transfers) and no balance negative.
 */

const starter = readStarterWorld();

const MOVES = 3 * 22;

function walk(seed: string): { world: World; applied: number; used: Set<string> } {
  const rng = new Rng(seed);
  let world = starter;
  let applied = 0;
  const used = new Set<string>();
  for (let step = 0; step < MOVES * 4 && applied < MOVES; step++) {
    const index = indexWorld(world);
    const pools: Record<RoleKind, string[]> = {
      character: world.characters.characters.filter((c) => c.status === 'alive').map((c) => c.id),
      secret: world.secrets.secrets.filter((s) => s.status !== 'inert').map((s) => s.id),
      thread: world.threads.threads.filter((t) => t.status === 'open').map((t) => t.id),
      location: world.world.locations.map((l) => l.id),
      faction: world.factions.factions.map((f) => f.id),
    };
    const op = rng.pick(world.operators.operators);
    const kinds = operatorRoleKinds(op);
    for (let attempt = 0; attempt < 150; attempt++) {
      const b: Record<string, string> = {};
      for (const [role, kind] of Object.entries(kinds)) b[role] = rng.pick(pools[kind]);
      if (!checkPrereqs(op, b, index).holds) continue;
      const fail = op.side_effect_risks.map((r) => rng.next() < r.prob);
      const effects = fail.some(Boolean) ? op.side_effect_risks.flatMap((r, k) => (fail[k] ? r.effects ?? [] : [])) : op.effects;
      const r = resolveEffects(effects, b, index, { roleKinds: kinds });
      if (!r.ok) throw new Error(`${op.id}: ${r.diagnostics[0]!.message}`);
      const a = applyDeltas(world, r.deltas, () => ({ episode: 's01e01', scene: 'SC01', event: 'e1', operator: op.id }));
      if (!a.ok) throw new Error(`${op.id} ${JSON.stringify(b)}: ${a.diagnostics[0]!.message}`);
      world = a.world;
      applied++;
      used.add(op.id);
      break;
    }
  }
  return { world, applied, used };
}

describe('starter kit: a season of moves does not saturate the world', () => {
  for (const seed of ['kit-1', 'kit-2', 'kit-3']) {
    it(`three episodes of random applicable moves (seed ${seed})`, () => {
      const { world, applied, used } = walk(seed);
      expect(applied).toBe(MOVES);
      expect(used.size).toBeGreaterThanOrEqual(20);
      for (const [name, m] of Object.entries(world.world.global)) {
        expect(m.value, `${name} at ${m.value}`).toBeGreaterThan(m.min);
        expect(m.value, `${name} at ${m.value}`).toBeLessThan(m.max);
      }
      expect(ledgerTotal(world)).toBe(ledgerTotal(starter));
      for (const a of world.assets.cash_ledger) expect(a.denarii, a.id).toBeGreaterThanOrEqual(0);
    });
  }
});
