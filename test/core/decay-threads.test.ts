import { describe, expect, it } from 'vitest';
import { applyDeltas } from '../../src/core/deltas/index.js';
import { decayDeltas, decayFactor, INERT_THRESHOLD, isRetrievable } from '../../src/core/decay.js';
import { overdueThreads, threadProgress, threadProgressDeltas } from '../../src/core/threads.js';
import type { World } from '../../src/domain/world.js';
import { smallWorld } from './fixture.js';

const prov = () => ({ episode: 's01e01', scene: 'decay', event: 'decay', operator: null });
function decayOnce(w: World): World {
  const r = applyDeltas(w, decayDeltas(w), prov);
  if (!r.ok) throw new Error(r.diagnostics[0]!.message);
  return r.world;
}

describe('decay', () => {
  it('uses factor = 0.5 ^ (1 / half_life_episodes)', () => {
    expect(decayFactor(1)).toBe(0.5);
    expect(decayFactor(4)).toBeCloseTo(Math.pow(0.5, 0.25), 12);
    expect(decayFactor(0)).toBe(1);
    expect(decayFactor(Number.NaN)).toBe(1);
  });
  it('halves a secret over its half-life', () => {
    let w = smallWorld();
    for (let i = 0; i < 4; i++) w = decayOnce(w);
    const s = w.secrets.secrets[0]!;
    expect(s.legal_value).toBeCloseTo(0.4, 3);
    expect(s.public_damage).toBeCloseTo(0.3, 3);
    expect(s.status).toBe('hidden');
  });
  it('makes a secret inert when both values fall below 0.15, and excludes it from retrieval', () => {
    const w = smallWorld();
    const d = decayDeltas(w);
    expect(d).toContainEqual({ path: 'secrets.sec_old.legal_value', op: 'set', value: 0.08 });
    expect(d).toContainEqual({ path: 'secrets.sec_old.public_damage', op: 'set', value: 0.1 });
    expect(d).toContainEqual({ path: 'secrets.sec_old.status', op: 'set', value: 'inert' });
    const after = decayOnce(w);
    const old = after.secrets.secrets[1]!;
    expect(old.status).toBe('inert');
    expect(isRetrievable(old)).toBe(false);
    expect(isRetrievable(after.secrets.secrets[0]!)).toBe(true);
    // Inert secrets no longer decay.
    expect(decayDeltas(after).some((x) => x.path.startsWith('secrets.sec_old'))).toBe(false);
    expect(isRetrievable({ status: 'hidden', legal_value: 0.1, public_damage: 0.1 })).toBe(false);
    expect(isRetrievable({ status: 'hidden', legal_value: 0.1, public_damage: INERT_THRESHOLD })).toBe(true);
  });
});

describe('threads', () => {
  it('tracks thread_progress after an episode', () => {
    const w = smallWorld();
    expect(threadProgress(w, 3, ['thr_grain'])).toEqual({
      thr_grain: { advanced: true, last_episode: 3, episodes_since_progress: 0 },
      thr_love: { advanced: false, last_episode: 1, episodes_since_progress: 2 },
    });
    expect(threadProgressDeltas(w, 3, ['thr_grain'])).toEqual([{ path: 'threads.thr_grain.last_progress_episode', op: 'set', value: 3 }]);
  });
  it('lists open threads past their cadence, most urgent first', () => {
    const w = smallWorld();
    expect(overdueThreads(w, 2).map((o) => o.thread.id)).toEqual([]); // grain 2 <= 2; love 1 <= 1
    expect(overdueThreads(w, 3).map((o) => [o.thread.id, o.overdue_by])).toEqual([['thr_grain', 1], ['thr_love', 1]]);
    // Same overdue_by: the higher priority (grain, 4) comes first.
    expect(overdueThreads(w, 5).map((o) => [o.thread.id, o.overdue_by])).toEqual([['thr_grain', 3], ['thr_love', 3]]);
    expect(overdueThreads(w, 6).map((o) => [o.thread.id, o.overdue_by])).toEqual([['thr_grain', 4], ['thr_love', 4]]);
    w.threads.threads[1]!.cadence = 0;
    expect(overdueThreads(w, 6).map((o) => o.thread.id)).toEqual(['thr_love', 'thr_grain']);
    w.threads.threads[0]!.status = 'resolved';
    expect(overdueThreads(w, 5).map((o) => o.thread.id)).toEqual(['thr_love']);
  });
});
