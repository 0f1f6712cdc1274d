import { describe, expect, it } from 'vitest';
import type { Provenance, ResolvedDelta } from '../../src/domain/delta.js';
import type { World } from '../../src/domain/world.js';
import { applyDeltas, expandRolePath, parsePath, resolveEffects } from '../../src/core/deltas/index.js';
import { stableStringify } from '../../src/core/json.js';
import { edgeOf, indexWorld } from '../../src/core/world-index.js';
import { smallWorld, witnessFlip } from './fixture.js';

const prov = (d: ResolvedDelta, i: number): Provenance => ({ episode: 's01e01', scene: 'SC01', event: `e${i + 1}`, operator: 'op_test' });

function apply(world: World, deltas: ResolvedDelta[]) {
  const r = applyDeltas(world, deltas, prov);
  if (!r.ok) throw new Error(`${r.failedIndex}: ${r.diagnostics.map((d) => `${d.code} ${d.message}`).join('; ')}`);
  return r;
}
function rejects(world: World, deltas: ResolvedDelta[]) {
  const before = stableStringify(world);
  const r = applyDeltas(world, deltas, prov);
  expect(stableStringify(world)).toBe(before);
  if (r.ok) throw new Error('batch unexpectedly applied');
  return r;
}
const ch = (w: World, id: string) => w.characters.characters.find((c) => c.id === id)!;
const acct = (w: World, id: string) => w.assets.cash_ledger.find((a) => a.id === id)!.denarii;

describe('path grammar', () => {
  it('parses every documented resolved form', () => {
    const forms: [string, string][] = [
      ['world.global.unrest', 'global'],
      ['characters.cicero.stats.wealth', 'stat'],
      ['characters.cicero.status', 'char_status'],
      ['characters.cicero.location', 'char_location'],
      ['characters.cicero.bdi.beliefs', 'bdi'],
      ['characters.cicero.bdi.intentions', 'bdi'],
      ['relationships.cicero.crassus.fear', 'weight'],
      ['relationships.cicero.crassus.flags', 'edge_flags'],
      ['secrets.sec_debts.status', 'secret_status'],
      ['secrets.sec_debts.legal_value', 'secret_value'],
      ['secrets.sec_debts.public_damage', 'secret_value'],
      ['secrets.sec_debts.holders', 'secret_holders'],
      ['threads.thr_grain.progress', 'thread_progress'],
      ['threads.thr_grain.status', 'thread_status'],
      ['threads.thr_grain.last_progress_episode', 'thread_last_progress'],
      ['assets.cash_ledger', 'ledger'],
      ['assets.cash_ledger.crassus', 'account'],
    ];
    for (const [p, kind] of forms) {
      const r = parsePath(p);
      expect(r.ok && r.target.kind, p).toBe(kind);
    }
  });
  it('rejects anything else', () => {
    for (const p of ['world.global', 'world.date', 'world.date.hour', 'characters.cicero.stats.charm', 'characters.cicero.bdi.desires', 'characters.__proto__.status',
      'characters.Cicero.status', 'relationships.a.b.love', 'secrets.s.text', 'assets.goods', 'constructor', 'world..global.x', 'world.global.unrest.value', '']) {
      expect(parsePath(p).ok, p).toBe(false);
    }
  });
  it('expands role-relative forms', () => {
    const roles = new Map([
      ['actor', { kind: 'character' as const, id: 'crassus' }],
      ['target', { kind: 'character' as const, id: 'cicero' }],
      ['secret', { kind: 'secret' as const, id: 'sec_debts' }],
      ['thr', { kind: 'thread' as const, id: 'thr_grain' }],
      ['place', { kind: 'location' as const, id: 'ostia' }],
    ]);
    const x = (p: string) => { const r = expandRolePath(p, roles); return r.ok ? r.path : r.diagnostic.code; };
    expect(x('actor.wealth')).toBe('characters.crassus.stats.wealth');
    expect(x('actor.stats.wealth')).toBe('characters.crassus.stats.wealth');
    expect(x('target.bdi.intentions')).toBe('characters.cicero.bdi.intentions');
    expect(x('target.status')).toBe('characters.cicero.status');
    expect(x('secret.status')).toBe('secrets.sec_debts.status');
    expect(x('thr.progress')).toBe('threads.thr_grain.progress');
    expect(x('relationships.target.actor.fear')).toBe('relationships.cicero.crassus.fear');
    expect(x('world.global.unrest')).toBe('world.global.unrest');
    expect(x('rival.wealth')).toBe('AUR2024');
    expect(x('place.name')).toBe('AUR2020');
  });
});

describe('applyDeltas: every operation', () => {
  it('adds, subtracts, sets and multiplies globals, clamped to the declared range', () => {
    const w = smallWorld();
    const r = apply(w, [
      { path: 'world.global.unrest', op: 'add', value: 2 },
      { path: 'world.global.scandal_temp', op: 'subtract', value: 5 },
      { path: 'world.global.grain_index', op: 'multiply', value: 1.5 },
    ]);
    expect(r.world.world.global.unrest.value).toBe(6);
    expect(r.world.world.global.scandal_temp.value).toBe(0); // clamped at min
    expect(r.world.world.global.grain_index.value).toBe(150);
    expect(apply(r.world, [{ path: 'world.global.grain_index', op: 'multiply', value: 10 }]).world.world.global.grain_index.value).toBe(200);
    expect(apply(w, [{ path: 'world.global.unrest', op: 'set', value: 7.123456 }]).world.world.global.unrest.value).toBe(7.1235);
    expect(r.applied.map((a) => [a.before, a.after])).toEqual([[4, 6], [3, 0], [100, 150]]);
    expect(r.applied[0]!.provenance).toEqual({ episode: 's01e01', scene: 'SC01', event: 'e1', operator: 'op_test' });
    expect(w.world.global.unrest.value).toBe(4); // input untouched
  });
  it('changes stats clamped to 0..100', () => {
    const w = smallWorld();
    const r = apply(w, [
      { path: 'characters.crassus.stats.wealth', op: 'add', value: 20 },
      { path: 'characters.cicero.stats.wealth', op: 'subtract', value: 20 },
      { path: 'characters.clodius.stats.fama', op: 'multiply', value: 0.5 },
      { path: 'characters.clodius.stats.courage', op: 'set', value: 77 },
    ]);
    expect(ch(r.world, 'crassus').stats.wealth).toBe(100);
    expect(ch(r.world, 'cicero').stats.wealth).toBe(0);
    expect(ch(r.world, 'clodius').stats.fama).toBe(25);
    expect(ch(r.world, 'clodius').stats.courage).toBe(77);
  });
  it('sets status and location', () => {
    const r = apply(smallWorld(), [
      { path: 'characters.clodius.status', op: 'set', value: 'exiled' },
      { path: 'characters.clodius.location', op: 'set', value: 'capua' },
    ]);
    expect(ch(r.world, 'clodius').status).toBe('exiled');
    expect(ch(r.world, 'clodius').location).toBe('capua');
    rejects(smallWorld(), [{ path: 'characters.clodius.status', op: 'set', value: 'sleeping' }]);
    rejects(smallWorld(), [{ path: 'characters.clodius.location', op: 'set', value: 'athens' }]);
    rejects(smallWorld(), [{ path: 'characters.clodius.status', op: 'add', value: 'dead' }]);
  });
  it('treats BDI lists, edge flags and holders as sets', () => {
    const r = apply(smallWorld(), [
      { path: 'characters.cicero.bdi.intentions', op: 'add', value: 'FLEE' },
      { path: 'characters.cicero.bdi.intentions', op: 'add', value: 'FLEE' },
      { path: 'characters.cicero.bdi.intentions', op: 'subtract', value: 'TESTIFY' },
      { path: 'characters.cicero.bdi.beliefs', op: 'subtract', value: 'not there' },
      { path: 'relationships.cicero.crassus.flags', op: 'add', value: 'debtor' },
      { path: 'relationships.cicero.crassus.flags', op: 'subtract', value: 'rival' },
      { path: 'secrets.sec_debts.holders', op: 'add', value: 'crassus' },
      { path: 'secrets.sec_debts.holders', op: 'add', value: 'crassus' },
      { path: 'secrets.sec_debts.holders', op: 'subtract', value: 'cicero' },
    ]);
    expect(ch(r.world, 'cicero').bdi.intentions).toEqual(['FLEE']);
    expect(ch(r.world, 'cicero').bdi.beliefs).toEqual(['KNOWS:sec_debts']);
    expect(r.world.relationships.relationships[0]!.flags).toEqual(['debtor']);
    expect(r.world.secrets.secrets[0]!.holders).toEqual(['crassus']);
    rejects(smallWorld(), [{ path: 'secrets.sec_debts.holders', op: 'add', value: 'nobody' }]);
    rejects(smallWorld(), [{ path: 'characters.cicero.bdi.beliefs', op: 'add', value: 3 }]);
  });
  it('changes relationship weights clamped to 0..1 and creates a missing edge with zero weights', () => {
    const w = smallWorld();
    const r = apply(w, [
      { path: 'relationships.cicero.crassus.fear', op: 'add', value: 0.9 },
      { path: 'relationships.clodius.cicero.rivalry', op: 'add', value: 0.4 },
      { path: 'relationships.clodius.cicero.flags', op: 'add', value: 'enemy' },
    ]);
    expect(r.world.relationships.relationships[0]!.weights.fear).toBe(1);
    const created = r.world.relationships.relationships.find((e) => e.from === 'clodius' && e.to === 'cicero')!;
    expect(created.weights).toEqual({ loyalty: 0, fear: 0, debt: 0, affection: 0, rivalry: 0.4, trust: 0 });
    expect(created.flags).toEqual(['enemy']);
    expect(w.relationships.relationships).toHaveLength(3);
    expect(r.world.relationships.relationships).toHaveLength(4);
    rejects(w, [{ path: 'relationships.clodius.nobody.fear', op: 'add', value: 0.1 }]);
    rejects(w, [{ path: 'relationships.clodius.clodius.fear', op: 'add', value: 0.1 }]);
  });
  it('a batch whose first relationship change creates an edge appends it to its own copy, and later batches find it', () => {
    const w = smallWorld();
    const before = w.relationships.relationships.slice();
    const r = apply(w, [
      { path: 'relationships.clodius.cicero.rivalry', op: 'add', value: 0.4 },
      { path: 'relationships.clodius.cicero.trust', op: 'add', value: 0.2 },
      { path: 'relationships.crassus.clodius.debt', op: 'add', value: 0.3 },
      { path: 'relationships.cicero.crassus.fear', op: 'add', value: 0.1 },
    ]);
    expect(w.relationships.relationships).toEqual(before);
    expect(w.relationships.relationships.every((e, i) => e === before[i])).toBe(true);
    const after = r.world.relationships.relationships;
    expect(after.map((e) => `${e.from}>${e.to}`)).toEqual([...before.map((e) => `${e.from}>${e.to}`), 'clodius>cicero', 'crassus>clodius']);
    expect(after[3]!.weights).toMatchObject({ rivalry: 0.4, trust: 0.2 });
    expect(edgeOf(indexWorld(r.world), 'crassus', 'clodius')!.weights.debt).toBe(0.3);
    const r2 = apply(r.world, [{ path: 'relationships.clodius.cicero.rivalry', op: 'add', value: 0.1 }, { path: 'relationships.cicero.clodius.trust', op: 'add', value: 0.5 }]);
    expect(r2.world.relationships.relationships).toHaveLength(after.length + 1);
    expect(edgeOf(indexWorld(r2.world), 'clodius', 'cicero')!.weights.rivalry).toBeCloseTo(0.5);
    expect(after[3]!.weights.rivalry).toBe(0.4);
  });
  it('edits the first entity of a repeated id or edge in place, batch after batch (drafts find entities through the index)', () => {
    const w = smallWorld();
    const cs = w.characters.characters;
    const i = cs.findIndex((c) => c.id === 'cicero');
    const e = w.relationships.relationships[0]!;
    const world: World = {
      ...w,
      characters: { ...w.characters, characters: [...cs, { ...cs[i]!, stats: { ...cs[i]!.stats } }] },
      relationships: { ...w.relationships, relationships: [...w.relationships.relationships, { ...e, weights: { ...e.weights } }] },
    };
    const key = `relationships.${e.from}.${e.to}.fear`;
    let cur = world;
    for (let step = 1; step <= 3; step++) {
      cur = apply(cur, [{ path: 'characters.cicero.stats.wealth', op: 'add', value: 1 }, { path: key, op: 'set', value: step / 10 }]).world;
      const chars = cur.characters.characters;
      expect(chars).toHaveLength(cs.length + 1);
      expect(chars[i]!.stats.wealth).toBe(cs[i]!.stats.wealth + step);
      expect(chars[cs.length]!.stats.wealth).toBe(cs[i]!.stats.wealth); // the repeat is not the one edited
      const rels = cur.relationships.relationships;
      expect(rels[0]!.weights.fear).toBe(step / 10);
      expect(rels[rels.length - 1]!.weights.fear).toBe(e.weights.fear);
    }
  });
  it('changes secrets and threads', () => {
    const r = apply(smallWorld(), [
      { path: 'secrets.sec_debts.status', op: 'set', value: 'revealed' },
      { path: 'secrets.sec_debts.legal_value', op: 'add', value: 0.5 },
      { path: 'secrets.sec_debts.public_damage', op: 'multiply', value: 0.5 },
      { path: 'threads.thr_grain.progress', op: 'add', value: 0.3 },
      { path: 'threads.thr_love.progress', op: 'subtract', value: 0.9 },
      { path: 'threads.thr_grain.status', op: 'set', value: 'dormant' },
      { path: 'threads.thr_grain.last_progress_episode', op: 'set', value: 2 },
    ]);
    const s = r.world.secrets.secrets[0]!;
    expect([s.status, s.legal_value, s.public_damage]).toEqual(['revealed', 1, 0.3]);
    const [g, l] = r.world.threads.threads;
    expect([g!.progress, g!.status, g!.last_progress_episode, l!.progress]).toEqual([0.5, 'dormant', 2, 0]);
    rejects(smallWorld(), [{ path: 'threads.thr_grain.progress', op: 'multiply', value: 2 }]);
    rejects(smallWorld(), [{ path: 'threads.thr_grain.last_progress_episode', op: 'set', value: 1.5 }]);
    rejects(smallWorld(), [{ path: 'secrets.sec_debts.status', op: 'set', value: 'forgotten' }]);
    rejects(smallWorld(), [{ path: 'secrets.nope.status', op: 'set', value: 'revealed' }]);
  });
  it('transfers conserve the ledger and overdraws fail the batch', () => {
    const w = smallWorld();
    const r = apply(w, [{ path: 'assets.cash_ledger', op: 'transfer', from: 'crassus', to: 'cicero', amount: 5000 }]);
    expect([acct(r.world, 'crassus'), acct(r.world, 'cicero')]).toEqual([95000, 5500]);
    expect(r.applied[0]!.before).toEqual({ crassus: 100000, cicero: 500 });
    expect(r.applied[0]!.after).toEqual({ crassus: 95000, cicero: 5500 });
    const bad = rejects(w, [
      { path: 'world.global.unrest', op: 'add', value: 1 },
      { path: 'assets.cash_ledger', op: 'transfer', from: 'cicero', to: 'crassus', amount: 501 },
    ]);
    expect(bad.failedIndex).toBe(1);
    expect(bad.diagnostics[0]!.code).toBe('AUR2025');
    // The sums as a reader writes them (core/readable.ts).
    expect(rejects(w, [{ path: 'assets.cash_ledger', op: 'transfer', from: 'crassus', to: 'cicero', amount: 150000 }]).diagnostics[0]!.message).toBe(
      "transfer of 150,000 denarii from 'crassus' overdraws the account (balance 100,000)",
    );
    rejects(w, [{ path: 'assets.cash_ledger', op: 'transfer', from: 'cicero', to: 'cicero', amount: 1 }]);
    rejects(w, [{ path: 'assets.cash_ledger', op: 'transfer', from: 'cicero', to: 'nobody', amount: 1 }]);
    rejects(w, [{ path: 'assets.cash_ledger', op: 'transfer', from: 'crassus', to: 'cicero', amount: 1.5 }]);
    rejects(w, [{ path: 'assets.cash_ledger', op: 'transfer', from: 'crassus', to: 'cicero', amount: -1 }]);
    rejects(w, [{ path: 'assets.cash_ledger', op: 'add', value: 1 }]);
  });
  it('mints and burns only through add/subtract on an account', () => {
    const w = smallWorld();
    const r = apply(w, [
      { path: 'assets.cash_ledger.aerarium', op: 'add', value: 1000 },
      { path: 'assets.cash_ledger.cicero', op: 'subtract', value: 500 },
    ]);
    expect([acct(r.world, 'aerarium'), acct(r.world, 'cicero')]).toEqual([51000, 0]);
    expect(rejects(w, [{ path: 'assets.cash_ledger.cicero', op: 'subtract', value: 501 }]).diagnostics[0]!.code).toBe('AUR2026');
    expect(rejects(w, [{ path: 'assets.cash_ledger.aerarium', op: 'subtract', value: 50001 }]).diagnostics[0]!.message).toBe(
      "burning 50,001 denarii from 'aerarium' would make it negative (balance 50,000)",
    );
    rejects(w, [{ path: 'assets.cash_ledger.cicero', op: 'multiply', value: 2 }]);
    rejects(w, [{ path: 'assets.cash_ledger.cicero', op: 'set', value: 2 }]);
    rejects(w, [{ path: 'assets.cash_ledger.nobody', op: 'add', value: 2 }]);
  });
  it('rejects unknown paths, bad values and non-finite numbers', () => {
    const w = smallWorld();
    expect(rejects(w, [{ path: 'world.global.nope', op: 'add', value: 1 }]).diagnostics[0]!.code).toBe('AUR2023');
    expect(rejects(w, [{ path: 'world.date.hour', op: 'set', value: 1 }]).diagnostics[0]!.code).toBe('AUR2020');
    // The calendar is set field by field (stage H does the carries), never added to.
    expect(rejects(w, [{ path: 'world.date.day', op: 'add', value: 1 }]).diagnostics[0]!.code).toBe('AUR2021');
    expect(rejects(w, [{ path: 'world.global.unrest', op: 'transfer', value: 1 }]).diagnostics[0]!.code).toBe('AUR2021');
    expect(rejects(w, [{ path: 'world.global.unrest', op: 'add', value: 'x' }]).diagnostics[0]!.code).toBe('AUR2022');
    rejects(w, [{ path: 'world.global.unrest', op: 'add', value: Number.NaN }]);
    rejects(w, [{ path: 'world.global.unrest', op: 'add', value: Number.POSITIVE_INFINITY }]);
    rejects(w, [{ path: 'world.global.unrest', op: 'multiply', value: 1e308 }, { path: 'world.global.grain_index', op: 'multiply', value: 1e308 }, { path: 'world.global.grain_index', op: 'multiply', value: 1e308 }]);
    rejects(w, [null as unknown as ResolvedDelta]);
  });
});

describe('applyDeltas: immutability and structural sharing', () => {
  it('never mutates the input and shares untouched parts', () => {
    const w = smallWorld();
    const frozen = JSON.parse(JSON.stringify(w)) as World;
    deepFreeze(frozen);
    const r = apply(frozen, [
      { path: 'characters.cicero.stats.wealth', op: 'add', value: 1 },
      { path: 'characters.cicero.bdi.intentions', op: 'add', value: 'X' },
      { path: 'characters.cicero.stats.fama', op: 'add', value: 1 },
    ]);
    expect(r.world).not.toBe(frozen);
    expect(r.world.secrets).toBe(frozen.secrets);
    expect(r.world.world).toBe(frozen.world);
    expect(r.world.characters).not.toBe(frozen.characters);
    const [a, b] = [r.world.characters.characters, frozen.characters.characters];
    expect(a[0]).toBe(b[0]); // crassus untouched
    expect(a[1]).not.toBe(b[1]);
    expect(a[1]!.voice).toBe(b[1]!.voice);
  });
  it('resolves an operator and applies it end to end', () => {
    const w = smallWorld();
    const ix = indexWorld(w);
    const res = resolveEffects(witnessFlip().effects, { actor: 'crassus', target: 'cicero' }, ix);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.deltas).toEqual([
      { path: 'characters.cicero.bdi.intentions', op: 'subtract', value: 'TESTIFY' },
      { path: 'relationships.cicero.crassus.debt', op: 'add', value: 0.3 },
      { path: 'assets.cash_ledger', op: 'transfer', from: 'crassus', to: 'cicero', amount: 1000 },
      { path: 'world.global.scandal_temp', op: 'add', value: 1 },
    ]);
    const r = apply(w, res.deltas);
    expect(ch(r.world, 'cicero').bdi.intentions).toEqual([]);
    expect(acct(r.world, 'cicero')).toBe(1500);
  });
  it('collects every resolution problem', () => {
    const ix = indexWorld(smallWorld());
    const res = resolveEffects([
      { path: 'rival.wealth', op: 'add', value: 1 },
      { path: 'actor.wealth', op: 'transfer', value: 1 },
      { path: 'actor.wealth', op: 'add', value: { expr: 'nope(1)' } },
      { path: 'actor.wealth', op: 'add', value: { expr: 'actor.bdi' } },
      { path: 'actor.wealth', op: 'add' },
      { path: 'assets.cash_ledger', op: 'transfer', from: 'actor', to: 'target', amount: { expr: '0 - 5' } },
      { path: 'actor.charm', op: 'add', value: 1 },
    ], { actor: 'crassus', target: 'cicero' }, ix);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.diagnostics.map((d) => d.code)).toEqual(['AUR2024', 'AUR2021', 'AUR2027', 'AUR2027', 'AUR2022', 'AUR2022', 'AUR2020']);
  });
  it('rounds evaluated ledger amounts to whole denarii', () => {
    const ix = indexWorld(smallWorld());
    const res = resolveEffects([
      { path: 'assets.cash_ledger', op: 'transfer', from: 'actor', to: 'target', amount: { expr: 'balance(target) / 3' } },
      { path: 'assets.cash_ledger.actor', op: 'add', value: { expr: '10 / 4' } },
    ], { actor: 'crassus', target: 'cicero' }, ix);
    expect(res.ok && res.deltas.map((d) => d.amount ?? d.value)).toEqual([167, 3]);
    // An account segment that is a role name is replaced by the bound id.
    expect(res.ok && res.deltas[1]!.path).toBe('assets.cash_ledger.crassus');
  });
});

function deepFreeze(o: unknown): void {
  if (o && typeof o === 'object') {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
}
