import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decayDeltas } from '../../src/core/decay.js';
import { applyDeltas } from '../../src/core/deltas/index.js';
import { evaluate, isView, makeEvalContext, parseExpression } from '../../src/core/expr/index.js';
import { stableStringify } from '../../src/core/json.js';
import { indexWorld, ledgerTotal } from '../../src/core/world-index.js';
import type { ResolvedDelta } from '../../src/domain/delta.js';
import type { World } from '../../src/domain/world.js';
import { smallWorld } from './fixture.js';

const prov = (_d: ResolvedDelta, i: number) => ({ episode: 's01e01', scene: 'SC01', event: `e${i}`, operator: null });
const ACCOUNTS = ['crassus', 'cicero', 'clodius', 'aerarium'];
const RUNS = { numRuns: 150 };

describe('ledger properties', () => {
  it('a random sequence of valid transfers conserves the ledger total', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(3), fc.nat(3), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 30 }),
        (moves) => {
          let w = smallWorld();
          const total = ledgerTotal(w);
          // Build the batch against a running balance, so every transfer is valid.
          const bal = new Map(w.assets.cash_ledger.map((a) => [a.id, a.denarii]));
          const batch: ResolvedDelta[] = [];
          for (const [f, t, frac] of moves) {
            if (f === t) continue;
            const from = ACCOUNTS[f]!;
            const to = ACCOUNTS[t]!;
            const amount = Math.floor(bal.get(from)! * frac);
            bal.set(from, bal.get(from)! - amount);
            bal.set(to, bal.get(to)! + amount);
            batch.push({ path: 'assets.cash_ledger', op: 'transfer', from, to, amount });
          }
          const r = applyDeltas(w, batch, prov);
          expect(r.ok).toBe(true);
          if (!r.ok) return;
          w = r.world;
          expect(ledgerTotal(w)).toBe(total);
          expect(w.assets.cash_ledger.every((a) => a.denarii >= 0)).toBe(true);
        },
      ),
      RUNS,
    );
  });
  it('arbitrary transfers either conserve the total or fail without touching the state', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(3), fc.nat(3), fc.integer({ min: 0, max: 200_000 })), { maxLength: 12 }), (moves) => {
        const w = smallWorld();
        const snapshot = stableStringify(w);
        const batch: ResolvedDelta[] = moves.map(([f, t, amount]) => ({ path: 'assets.cash_ledger', op: 'transfer', from: ACCOUNTS[f], to: ACCOUNTS[t], amount }));
        const r = applyDeltas(w, batch, prov);
        expect(stableStringify(w)).toBe(snapshot);
        if (r.ok) expect(ledgerTotal(r.world)).toBe(ledgerTotal(w));
      }),
      RUNS,
    );
  });
});

/** Deltas drawn from valid and invalid paths, ops and values. */
const anyDelta: fc.Arbitrary<ResolvedDelta> = fc.record({
  path: fc.constantFrom(
    'world.global.unrest', 'world.global.nope', 'characters.cicero.stats.wealth', 'characters.nobody.stats.wealth',
    'characters.crassus.status', 'characters.clodius.location', 'characters.cicero.bdi.intentions', 'relationships.cicero.crassus.fear',
    'relationships.clodius.tiro.trust', 'relationships.tiro.cicero.flags', 'secrets.sec_debts.status', 'secrets.sec_old.legal_value',
    'secrets.sec_debts.holders', 'threads.thr_grain.progress', 'threads.thr_love.status', 'threads.thr_grain.last_progress_episode',
    'assets.cash_ledger', 'assets.cash_ledger.cicero', 'world.date.day', 'characters.__proto__.status',
  ),
  op: fc.constantFrom('add', 'subtract', 'set', 'multiply', 'transfer') as fc.Arbitrary<ResolvedDelta['op']>,
  value: fc.oneof(
    fc.double({ min: -1000, max: 1000, noNaN: true }),
    fc.integer({ min: -5, max: 2000 }),
    fc.constantFrom('alive', 'dead', 'ostia', 'TESTIFY', 'crassus', 'revealed', 'resolved', '', 'x'),
    fc.constant(Number.NaN),
    fc.boolean(),
  ),
  from: fc.constantFrom(...ACCOUNTS, 'nobody'),
  to: fc.constantFrom(...ACCOUNTS),
  amount: fc.oneof(fc.integer({ min: -10, max: 150_000 }), fc.double({ noNaN: false })),
});

describe('transactional application', () => {
  it('a batch that fails leaves the state byte-identical; one that applies never mutates its input', () => {
    fc.assert(
      fc.property(fc.array(anyDelta, { maxLength: 15 }), (batch) => {
        const w = smallWorld();
        const snapshot = stableStringify(w);
        const r = applyDeltas(w, batch, prov);
        expect(stableStringify(w)).toBe(snapshot);
        if (!r.ok) {
          expect(r.failedIndex).toBeGreaterThanOrEqual(0);
          expect(r.failedIndex).toBeLessThan(batch.length);
          expect(r.diagnostics[0]!.code).toMatch(/^AUR20[2-3]\d$/);
          expect(`${r.diagnostics[0]!.message} ${r.diagnostics[0]!.hint ?? ''}`).not.toMatch(/\{\w+\}/);
        } else {
          expect(r.applied).toHaveLength(batch.length);
          // Every value stays inside its declared range.
          const g = r.world.world.global.unrest;
          expect(g.value).toBeGreaterThanOrEqual(g.min);
          expect(g.value).toBeLessThanOrEqual(g.max);
          for (const c of r.world.characters.characters) for (const v of Object.values(c.stats)) expect(v >= 0 && v <= 100).toBe(true);
          for (const e of r.world.relationships.relationships) for (const v of Object.values(e.weights)) expect(v >= 0 && v <= 1).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
  it('is deterministic: the same batch gives byte-identical output', () => {
    fc.assert(
      fc.property(fc.array(anyDelta, { maxLength: 10 }), (batch) => {
        const a = applyDeltas(smallWorld(), batch, prov);
        const b = applyDeltas(smallWorld(), batch, prov);
        expect(stableStringify(a.ok ? { w: a.world, x: a.applied } : a)).toBe(stableStringify(b.ok ? { w: b.world, x: b.applied } : b));
      }),
      // fast-check's counterexample (CI, 2026-11-27): an amount of Infinity on an `add` was kept in the
      // applied record, which canonical JSON cannot write.
      // Another (full suite, 2026-11-29, seed 932316384): a value of NaN on a transfer, which reads only its amount.
      { ...RUNS, examples: [[[{ path: 'world.global.unrest', op: 'add', value: 0, from: 'crassus', to: 'crassus', amount: Number.POSITIVE_INFINITY }]], [[{ path: 'assets.cash_ledger', op: 'transfer', value: Number.NaN, from: 'crassus', to: 'aerarium', amount: 0 }]]] },
    );
  });
});

describe('decay properties', () => {
  it('is monotone and reaches inert', () => {
    // A value below the rounding step once rounded up (5.1e-5 -> 0.0001): pinned as an example.
    const examples: [number, number, number][] = [[5.1e-5, 0.9, 3], [0.00005, 0.00004, 1]];
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 40 }),
        (legal, damage, h) => {
          let w: World = smallWorld();
          w.secrets.secrets = [{ ...w.secrets.secrets[0]!, legal_value: legal, public_damage: damage, half_life_episodes: h, status: 'hidden' }];
          let prev = w.secrets.secrets[0]!;
          for (let step = 0; step < 4 * h + 10 && prev.status !== 'inert'; step++) {
            const r = applyDeltas(w, decayDeltas(w), prov);
            if (!r.ok) throw new Error(r.diagnostics[0]!.message);
            w = r.world;
            const cur = w.secrets.secrets[0]!;
            expect(cur.legal_value).toBeLessThanOrEqual(prev.legal_value);
            expect(cur.public_damage).toBeLessThanOrEqual(prev.public_damage);
            prev = cur;
          }
          expect(prev.status).toBe('inert');
        },
      ),
      { ...RUNS, examples },
    );
  });
});

const HOSTILE = ['constructor', '__proto__', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'process', 'globalThis', 'require',
  'eval', 'Function', 'this', 'module', 'import', '__defineGetter__', 'isPrototypeOf', 'length', 'call', 'apply', 'bind', 'Symbol'];

describe('evaluator safety', () => {
  const ix = indexWorld(smallWorld());
  const ctx = makeEvalContext(ix, { actor: 'crassus', target: 'cicero', s: 'sec_debts' });
  const isModelValue = (v: unknown): boolean =>
    v === null || ['number', 'string', 'boolean'].includes(typeof v) || (Array.isArray(v) && v.every(isModelValue)) || isView(v);

  function safe(src: string) {
    const r = evaluate(src, ctx);
    expect(typeof r.ok).toBe('boolean');
    if (r.ok) {
      expect(isModelValue(r.value)).toBe(true);
      expect(typeof r.value).not.toBe('function');
      if (typeof r.value === 'number') expect(Number.isFinite(r.value)).toBe(true);
    } else {
      expect(r.diagnostic.code).toMatch(/^AUR20\d\d$/);
      // Every placeholder of the catalog template was filled. A `{name}` the input itself contains
      // is echoed legitimately (fast-check found `"{0}`), so only placeholders absent from the input count.
      const left = `${r.diagnostic.message} ${r.diagnostic.hint ?? ''}`.match(/\{\w+\}/g) ?? [];
      expect(left.filter((p) => !src.includes(p))).toEqual([]);
    }
    return r;
  }

  it('never resolves hostile names, fields or functions', () => {
    for (const h of HOSTILE) {
      for (const src of [h, `actor.${h}`, `actor.stats.${h}`, `actor.bdi.${h}`, `world.${h}`, `world.global.${h}`, `rel(actor, target).${h}`,
        `${h}()`, `${h}(actor)`, `actor.${h}.${h}`, `s.holders.${h}`, `'x'.${h}`, `(1).${h}`, `[1, 2].${h}`, `actor.${h}()`, `actor.${h} == null`]) {
        const r = safe(src);
        // 'this' is rejected by the parser; everything else must fail as an unknown name/field/function.
        expect(r.ok, src).toBe(false);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it('never throws on random input', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => { safe(s); }), { numRuns: 500 });
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (s) => { safe(s); }), { numRuns: 200 });
  });
  it('never throws on random token soup', () => {
    const token = fc.oneof(
      fc.constantFrom(...HOSTILE, 'actor', 'target', 's', 'world', 'global', 'stats', 'bdi', 'wealth', 'unrest', 'rel', 'char', 'balance',
        'min', 'max', 'abs', 'len', 'in', '.', ',', '(', ')', '[', ']', '+', '-', '*', '/', '%', '==', '!=', '<', '<=', '>', '>=', '&&', '||',
        '!', '?', ':', '=', ';', '\'a\'', '"b"', 'true', 'false', 'null', '1e308', '1e309', '-0', '0x10', '9007199254740993', '\u202e', 'é', '𝔁'),
      fc.double().map(String),
    );
    fc.assert(fc.property(fc.array(token, { maxLength: 25 }), (toks) => { safe(toks.join(' ')); safe(toks.join('')); }), { numRuns: 800 });
  });
  it('survives deep nesting and huge inputs', () => {
    for (const src of ['('.repeat(5000) + '1' + ')'.repeat(5000), '!'.repeat(5000) + 'true', '-'.repeat(3000) + '1',
      'actor' + '.stats'.repeat(500), '1+'.repeat(999) + '1', `'${'x'.repeat(1990)}'`, '[' .repeat(100) + ']'.repeat(100),
      '9'.repeat(400), '1e308 * 1e308', '0.1 + 0.2']) {
      safe(src);
    }
    expect(parseExpression('!'.repeat(40) + 'true').ok).toBe(true);
    expect(evaluate('!'.repeat(40) + 'true', ctx)).toEqual({ ok: true, value: true });
  });
  it('is deterministic', () => {
    fc.assert(
      fc.property(fc.constantFrom('actor.wealth * 2 + balance(target)', "rel(actor, target).trust < 0.5 && 'TESTIFY' in target.bdi.intentions", 'min(1, 2, actor.fama)'), (src) => {
        const a = evaluate(src, makeEvalContext(indexWorld(smallWorld()), { actor: 'crassus', target: 'cicero' }));
        const b = evaluate(src, makeEvalContext(indexWorld(smallWorld()), { actor: 'crassus', target: 'cicero' }));
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
      }),
      { numRuns: 20 },
    );
  });
});
