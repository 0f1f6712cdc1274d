import { describe, expect, it } from 'vitest';
import type { Provenance } from '../../src/domain/delta.js';
import type { OperatorApplication } from '../../src/domain/plan.js';
import { applyDeltas, checkOp, parsePath } from '../../src/core/deltas/index.js';
import { isMeaningful } from '../../src/core/metrics.js';
import { secretsTold, toldInDeltas } from '../../src/core/secrets-told.js';
import { smallWorld } from './fixture.js';

/** secrets.<id>.told_in (issue 17, item 6): the episode that first put a secret into words. */
const prov = (): Provenance => ({ episode: 's01e02', scene: 'SC09', event: 'secrets', operator: null });
const app = (over: Partial<OperatorApplication>): OperatorApplication => ({
  id: 'a01', operator_id: 'op', type: 'soap', bindings: {}, outcome: 'success', risks: [], prereqs: [], required_deltas: [], threads_advanced: [], source: 'director', ...over,
});

describe('secrets told across episodes', () => {
  it('parses secrets.<id>.told_in as a set-only path', () => {
    const p = parsePath('secrets.sec_debts.told_in');
    expect(p.ok && p.target).toEqual({ kind: 'secret_told_in', secret: 'sec_debts' });
    if (p.ok) expect(checkOp('secrets.sec_debts.told_in', p.target, 'add')?.code).toBe('AUR2021');
  });

  it('finds the secrets a move tells: bound, changed, or learnt (KNOWS:)', () => {
    const isSecret = (id: string) => id.startsWith('sec_');
    expect(secretsTold([app({ bindings: { actor: 'cicero', secret: 'sec_debts' } })], isSecret)).toEqual(['sec_debts']);
    expect(secretsTold([app({ required_deltas: [{ path: 'characters.crassus.bdi.beliefs', op: 'add', value: 'KNOWS:sec_old' }] })], isSecret)).toEqual(['sec_old']);
    expect(secretsTold([app({ required_deltas: [{ path: 'characters.crassus.stats.wealth', op: 'add', value: 1 }] })], isSecret)).toEqual([]);
  });

  it('records the first episode only, as bookkeeping (not a meaningful change)', () => {
    const w = smallWorld();
    const apps = [app({ bindings: { secret: 'sec_debts' } })];
    const deltas = toldInDeltas(w, 's01e02', apps);
    expect(deltas).toEqual([{ path: 'secrets.sec_debts.told_in', op: 'set', value: 's01e02' }]);
    const r = applyDeltas(w, deltas, prov);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.world.secrets.secrets.find((s) => s.id === 'sec_debts')?.told_in).toBe('s01e02');
    expect(w.secrets.secrets.find((s) => s.id === 'sec_debts')?.told_in).toBeUndefined();
    expect(r.applied.map((a) => [a.before, a.after])).toEqual([[null, 's01e02']]);
    expect(isMeaningful(r.applied[0]!, r.world)).toBe(false);
    // Told again in a later episode: the first episode stays on record.
    expect(toldInDeltas(r.world, 's01e05', apps)).toEqual([]);
  });
});
