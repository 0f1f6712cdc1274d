import { describe, expect, it } from 'vitest';
import type { Provenance, ResolvedDelta } from '../../src/domain/delta.js';
import { applyDeltas, checkOp, parsePath } from '../../src/core/deltas/index.js';
import { stableStringify } from '../../src/core/json.js';
import { smallWorld } from './fixture.js';

/** world.date.<year_bc|month|day> (docs/paths.md): the calendar as a recorded delta path. */
const prov = (): Provenance => ({ episode: 's01e01', scene: 'SC09', event: 'date', operator: null });

describe('world.date paths', () => {
  it('parse for the three fields only, set only', () => {
    for (const f of ['year_bc', 'month', 'day'] as const) {
      const p = parsePath(`world.date.${f}`);
      expect(p.ok && p.target).toEqual({ kind: 'date', field: f });
      if (p.ok) {
        expect(checkOp(`world.date.${f}`, p.target, 'set')).toBeNull();
        expect(checkOp(`world.date.${f}`, p.target, 'add')?.code).toBe('AUR2021');
      }
    }
    for (const bad of ['world.date', 'world.date.hour', 'world.date.day.x', 'world.date.__proto__']) expect(parsePath(bad).ok, bad).toBe(false);
  });

  it('set a field with before/after and provenance, leaving the input world and the other fields alone', () => {
    const w = smallWorld();
    const before = stableStringify(w);
    const r = applyDeltas(w, [{ path: 'world.date.month', op: 'set', value: 11 }, { path: 'world.date.day', op: 'set', value: 2 }], prov);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.world.world.date).toEqual({ year_bc: 63, month: 11, day: 2 });
    expect(r.applied.map((a) => [a.path, a.before, a.after, a.provenance.event])).toEqual([
      ['world.date.month', 10, 11, 'date'],
      ['world.date.day', 21, 2, 'date'],
    ]);
    expect(stableStringify(w)).toBe(before);
    expect(r.world.world.locations).toBe(w.world.locations);
  });

  it('clamps to the schema ranges (day 1..31, month 1..12, year_bc 1..753)', () => {
    const deltas: ResolvedDelta[] = [
      { path: 'world.date.day', op: 'set', value: 40 },
      { path: 'world.date.month', op: 'set', value: 0 },
      { path: 'world.date.year_bc', op: 'set', value: -5 },
    ];
    const r = applyDeltas(smallWorld(), deltas, prov);
    expect(r.ok && r.world.world.date).toEqual({ year_bc: 1, month: 1, day: 31 });
  });

  it('rejects a fractional or non-number value, and the whole batch with it', () => {
    for (const value of [2.5, '3', Number.NaN] as unknown[]) {
      const r = applyDeltas(smallWorld(), [{ path: 'world.global.unrest', op: 'add', value: 1 }, { path: 'world.date.day', op: 'set', value } as ResolvedDelta], prov);
      expect(r.ok).toBe(false);
      if (!r.ok) expect([r.failedIndex, r.diagnostics[0]!.code]).toEqual([1, 'AUR2022']);
    }
  });
});
