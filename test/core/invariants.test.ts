import { describe, expect, it } from 'vitest';
import { applyDeltas } from '../../src/core/deltas/index.js';
import {
  canReach,
  checkActorsAlive,
  checkHardConstraints,
  checkLedger,
  checkLedgerConservation,
  checkMovements,
  checkApplicationSequence,
  checkOperatorPrereqs,
  checkReach,
  checkSoftConstraints,
  checkStateInvariants,
  mintedBy,
} from '../../src/core/invariants.js';
import { indexWorld } from '../../src/core/world-index.js';
import type { ResolvedDelta } from '../../src/domain/delta.js';
import type { World } from '../../src/domain/world.js';
import { smallWorld, witnessFlip } from './fixture.js';

const prov = () => ({ episode: 's01e01', scene: 'SC01', event: 'e1', operator: null });

describe('ledger invariants', () => {
  it('flags negative, fractional and non-numeric balances with a pointer', () => {
    const w = smallWorld();
    expect(checkLedger(w)).toEqual([]);
    w.assets.cash_ledger[1]!.denarii = -5;
    w.assets.cash_ledger[2]!.denarii = 1.5;
    const d = checkLedger(w);
    expect(d.map((x) => [x.code, x.pointer])).toEqual([['AUR2050', '/cash_ledger/1/denarii'], ['AUR2050', '/cash_ledger/2/denarii']]);
    expect(d[0]!.file).toBe('world/assets.json');
  });
  it('accepts transfers, counts mints and burns, and catches a total that changed otherwise', () => {
    const w = smallWorld();
    const deltas: ResolvedDelta[] = [
      { path: 'assets.cash_ledger', op: 'transfer', from: 'crassus', to: 'clodius', amount: 700 },
      { path: 'assets.cash_ledger.aerarium', op: 'add', value: 300 },
      { path: 'assets.cash_ledger.cicero', op: 'subtract', value: 100 },
    ];
    expect(mintedBy(deltas)).toBe(200);
    const r = applyDeltas(w, deltas, prov);
    if (!r.ok) throw new Error('apply failed');
    expect(checkLedgerConservation(w, r.world, deltas)).toEqual([]);
    // A hand-edited state that created money without a mint.
    const forged: World = { ...r.world, assets: { ...r.world.assets, cash_ledger: r.world.assets.cash_ledger.map((a) => (a.id === 'cicero' ? { ...a, denarii: a.denarii + 1 } : a)) } };
    const d = checkLedgerConservation(w, forged, deltas);
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ code: 'AUR2051' });
    expect(d[0]!.message).toContain('152700');
  });
});

describe('actors and travel', () => {
  const ix = indexWorld(smallWorld());
  it('dead, exiled or unknown characters cannot act', () => {
    expect(checkActorsAlive(ix, ['crassus', 'cicero'])).toEqual([]);
    const d = checkActorsAlive(ix, ['sulla', 'nobody', 'sulla']);
    expect(d.map((x) => x.code)).toEqual(['AUR2052', 'AUR2059']);
    expect(d[0]!.message).toContain('dead');
  });
  it('computes reachability from the shortest travel time', () => {
    expect(canReach(ix, 'crassus', 'rome_senate', 0)).toBe(true);
    expect(canReach(ix, 'crassus', 'ostia', 0)).toBe(false);
    expect(canReach(ix, 'crassus', 'ostia', 1)).toBe(true);
    expect(canReach(ix, 'crassus', 'capua', 3)).toBe(false);
    expect(canReach(ix, 'crassus', 'capua', 4)).toBe(true);
    expect(canReach(ix, 'crassus', 'island', 100)).toBe(false);
    expect(canReach(ix, 'nobody', 'ostia', 100)).toBe(false);
    expect(checkReach(ix, 'clodius', 'rome_forum', 1)).toBeNull();
    const d = checkReach(ix, 'clodius', 'capua', 2, 'rome_forum');
    expect(d).toMatchObject({ code: 'AUR2053' });
    expect(d!.message).toContain('4 day(s)');
    expect(checkReach(ix, 'clodius', 'island', 9)!.message).toContain('no route');
    expect(checkReach(ix, 'nobody', 'island', 9)!.code).toBe('AUR2059');
  });
  it('reports failing and unevaluable prerequisites', () => {
    expect(checkOperatorPrereqs(witnessFlip(), { actor: 'crassus', target: 'cicero' }, ix)).toEqual([]);
    expect(checkOperatorPrereqs(witnessFlip(), { actor: 'cicero', target: 'crassus' }, ix).map((d) => d.code)).toEqual(['AUR2054']);
    expect(checkOperatorPrereqs(witnessFlip(), { actor: 'cicero' }, ix).map((d) => d.code)).toEqual(['AUR2055', 'AUR2055']);
  });
});

describe('constraints', () => {
  it('evaluates hard and soft constraints separately', () => {
    const w = smallWorld();
    expect(checkHardConstraints(w)).toEqual([]);
    expect(checkSoftConstraints(w)).toEqual([]);
    const r = applyDeltas(w, [{ path: 'characters.cicero.status', op: 'set', value: 'dead' }], prov);
    if (!r.ok) throw new Error();
    expect(checkSoftConstraints(r.world).map((d) => [d.code, d.severity, d.pointer])).toEqual([['AUR2058', 'warning', '/constraints/1/expr']]);
    expect(checkHardConstraints(indexWorld(r.world))).toEqual([]);
  });
  it('reports a violated or broken hard constraint', () => {
    const w = smallWorld();
    w.constraints.constraints.push({ id: 'c_calm', kind: 'hard', expr: 'world.global.unrest < 3', message: 'Rome must stay calm' });
    w.constraints.constraints.push({ id: 'c_broken', kind: 'hard', expr: 'nope()', message: 'x' });
    const d = checkHardConstraints(w);
    expect(d.map((x) => x.code)).toEqual(['AUR2056', 'AUR2057']);
    expect(d[0]!.message).toContain('Rome must stay calm');
    expect(checkStateInvariants(w).map((x) => x.code)).toEqual(['AUR2056', 'AUR2057']);
  });
  it('reads the index of a projected state as an index, whatever kind of map its characters are', () => {
    // A projected state's index derives its character map from the state before (issue 18): it is
    // not a plain Map, and must not be mistaken for a world without constraints.
    const w = smallWorld();
    w.constraints.constraints.push({ id: 'c_calm', kind: 'hard', expr: 'world.global.unrest < 3', message: 'Rome must stay calm' });
    indexWorld(w);
    const r = applyDeltas(w, [{ path: 'characters.cicero.status', op: 'set', value: 'dead' }, { path: 'world.global.unrest', op: 'set', value: 5 }], prov);
    if (!r.ok) throw new Error();
    const ix = indexWorld(r.world);
    expect(ix.characters.get('cicero')?.status).toBe('dead');
    expect(checkHardConstraints(ix).map((x) => x.code)).toEqual(['AUR2056']);
    expect(checkHardConstraints(r.world).map((x) => x.code)).toEqual(['AUR2056']);
  });
});

describe('sequences', () => {
  it('checks movements scene by scene against travel days', () => {
    const ix = indexWorld(smallWorld());
    const r = checkMovements(ix, [
      { id: 'SC01', location: 'rome_senate', day: 0, cast: ['crassus', 'cicero'] },
      { id: 'SC02', location: 'ostia', day: 0, cast: ['crassus', 'clodius'] }, // crassus needs 1 day
      { id: 'SC03', location: 'ostia', day: 1, cast: ['cicero'] },
      { id: 'SC04', location: 'capua', day: 3, cast: ['cicero', 'sulla', 'nobody'] }, // cicero ostia->capua needs 3, has 2
    ], { requireAlive: true });
    expect(r.map((x) => [x.scene, x.diagnostic.code])).toEqual([
      ['SC02', 'AUR2053'],
      ['SC04', 'AUR2053'],
      ['SC04', 'AUR2052'],
      ['SC04', 'AUR2059'],
    ]);
    expect(r[0]!.diagnostic.message).toContain("'crassus' cannot reach ostia from rome_senate in 0 day(s)");
  });
  it('checks prerequisites on the state each application starts from', () => {
    const w = smallWorld();
    const op = witnessFlip();
    const pay: ResolvedDelta[] = [{ path: 'characters.cicero.stats.wealth', op: 'add', value: 5 }];
    const steps = [
      { id: 'a01', operator: op, bindings: { actor: 'crassus', target: 'cicero' }, deltas: pay },
      // cicero is now at wealth 13: 95 > 130 fails.
      { id: 'a02', operator: op, bindings: { actor: 'crassus', target: 'cicero' }, deltas: [] },
      { id: 'a03', operator: op, bindings: { actor: 'sulla', target: 'cicero' }, deltas: [{ path: 'assets.cash_ledger', op: 'transfer', from: 'cicero', to: 'crassus', amount: 1e6 }] as ResolvedDelta[] },
      { id: 'a04', operator: op, bindings: { actor: 'crassus', target: 'cicero' }, deltas: [] },
    ];
    const r = checkApplicationSequence(w, steps);
    expect(r.map((x) => [x.application, x.diagnostic.code])).toEqual([
      ['a02', 'AUR2054'],
      ['a03', 'AUR2052'],
      ['a03', 'AUR2054'],
      ['a03', 'AUR2054'],
      ['a03', 'AUR2025'],
    ]);
  });
});
