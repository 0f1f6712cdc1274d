import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScenePacket } from '../../../src/domain/packet.js';
import type { OperatorsFile } from '../../../src/domain/world.js';
import { copyScenario, runCli, STARTER } from './helpers.js';

/**
 * A fund only credited or debited (an `add` or `subtract` on `assets.cash_ledger.<account>`, no
 * transfer) is a scene's own money fact like a transfer's two ends: its account is in the packet, so
 * the Writer and the Verifier see its balance, and pruning never drops it.
 */
describe('the accounts an add or subtract moves (d-packets/retrieve.ts, prune.ts)', () => {
  /** The starter world with the grain moves minting into and burning from the annona fund instead of transferring. */
  function fundWorld(): string {
    const root = copyScenario(STARTER);
    const file = path.join(root, 'operators/operators.json');
    const ops = JSON.parse(fs.readFileSync(file, 'utf8')) as OperatorsFile;
    const swap = (id: string, effect: object) => {
      const op = ops.operators.find((o) => o.id === id)!;
      expect(op.effects.some((e) => e.op === 'transfer'), id).toBe(true);
      op.effects = [...op.effects.filter((e) => e.op !== 'transfer'), effect as (typeof op.effects)[number]];
    };
    swap('op_corner_the_market', { path: 'assets.cash_ledger.annona_fund', op: 'subtract', value: 15000 });
    swap('op_grain_dole', { path: 'assets.cash_ledger.annona_fund', op: 'add', value: 20000 });
    fs.writeFileSync(file, JSON.stringify(ops, null, 2) + '\n');
    return root;
  }

  const packetsOf = (root: string): ScenePacket[] => {
    const [run] = fs.readdirSync(path.join(root, '.aureus/runs'));
    const dir = path.join(root, '.aureus/runs', run!, 'packets');
    return fs.readdirSync(dir).sort().map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as ScenePacket);
  };

  for (const budget of ['6000', '200']) {
    it(`are in the packet with their balance, never pruned (token budget ${budget})`, async () => {
      const root = fundWorld();
      const r = await runCli(['-C', root, 'episode', 'plan', '--seed', 'fund', '--require', 'op_corner_the_market', '--require', 'op_grain_dole', '--token-budget', budget], root);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const ledger = new Set(['annona_fund']);
      let seen = new Set<string>();
      for (const p of packetsOf(root)) {
        const moved = p.constraints.required_deltas.filter((d) => d.path === 'assets.cash_ledger.annona_fund');
        if (!moved.length) continue;
        seen = new Set([...seen, ...moved.map((d) => d.op)]);
        // Nobody in the cast owns the fund: only the delta brings its account in.
        expect(p.cast.some((c) => ledger.has(c.id)), p.scene_id).toBe(false);
        const account = p.retrieved_subgraph.accounts.find((a) => a.id === 'annona_fund');
        expect(account, p.scene_id).toBeDefined();
        expect(account!.denarii, p.scene_id).toBeGreaterThan(0);
        expect(p.pruned.filter((x) => x.kind === 'account').map((x) => x.id), p.scene_id).not.toContain('annona_fund');
        if (budget === '200') expect(p.pruned.length, p.scene_id).toBeGreaterThan(0);
      }
      // Both a burn (subtract) and a mint (add) were planned.
      expect([...seen].sort()).toEqual(['add', 'subtract']);
    });
  }
});
