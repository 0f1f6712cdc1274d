import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stableStringify } from '../../src/core/json.js';
import {
  actMetrics,
  computeEpisodeMetrics,
  deferResponses,
  globalOn10,
  isMeaningful,
  pacingResponses,
  sceneMetrics,
  tension,
  tensionPlateauResponses,
  threadsToDefer,
  threatToGoals,
  type SceneMetrics,
} from '../../src/core/metrics.js';
import { projectScenes, stateHash } from '../../src/core/projection.js';
import { applyDeltas } from '../../src/core/deltas/index.js';
import type { AppliedDelta, ResolvedDelta } from '../../src/domain/delta.js';
import { smallWorld } from './fixture.js';

const prov = () => ({ episode: 's01e01', scene: 'SC01', event: 'e1', operator: null });

describe('tension inputs', () => {
  it('maps globals to 0..10 and computes threat_to_goals from exposure and enmity', () => {
    const w = smallWorld();
    expect(globalOn10(w, 'unrest')).toBe(4);
    expect(globalOn10(w, 'grain_index')).toBe(5);
    expect(globalOn10(w, 'missing')).toBe(0);
    // principals alive: crassus (exposure (0.8+0.6)/2*0.5 = 0.35, enmity 0.6 -> 0.6),
    // cicero (enmity 0.5), clodius (secret sec_old rumored: (0.16+0.2)/2*0.75 = 0.135)
    expect(threatToGoals(w)).toBeCloseTo((10 * (0.6 + 0.5 + 0.135)) / 3, 10);
    expect(tension(w)).toBe(Number((((10 * 1.235) / 3 + 3 + 4) / 3).toFixed(2)));
  });

  it('reads enmity as the max rivalry of the edges into a principal, whatever their sign (no secrets)', () => {
    const base = smallWorld();
    const ids = base.characters.characters.filter((c) => c.principal && c.status === 'alive').map((c) => c.id);
    const edges = fc.array(fc.record({ to: fc.nat(), rivalry: fc.oneof(fc.constantFrom(0, -0, 0.3, 1), fc.double({ min: -1, max: 1, noNaN: true })) }), { maxLength: 12 });
    fc.assert(fc.property(edges, (es) => {
      const rels = es.map((e, i) => ({ from: `x${i}`, to: ids[e.to % ids.length]!, flags: [], weights: { affection: 0, debt: 0, fear: 0, loyalty: 0, trust: 0, rivalry: e.rivalry } }));
      const w = { ...base, secrets: { ...base.secrets, secrets: [] }, relationships: { ...base.relationships, relationships: rels } };
      // The definition: threat(p) = max(exposure 0, enmity max over edges x->p) in 0..1; mean over living principals, x10.
      const enmity = ids.map((p) => Math.min(1, Math.max(0, ...rels.filter((r) => r.to === p).map((r) => r.weights.rivalry))));
      expect(threatToGoals(w)).toBe(Math.min(10, Math.max(0, (enmity.reduce((a, b) => a + b, 0) / ids.length) * 10)));
    }));
  });
});

describe('meaningful deltas', () => {
  const w = smallWorld();
  const ap = (d: ResolvedDelta): AppliedDelta => {
    const r = applyDeltas(w, [d], prov);
    if (!r.ok) throw new Error(r.diagnostics[0]!.message);
    return r.applied[0]!;
  };
  it('counts numeric changes of at least 5% of the range, real set/list changes and ledger moves', () => {
    expect(isMeaningful(ap({ path: 'world.global.unrest', op: 'add', value: 0.5 }), w)).toBe(true);
    expect(isMeaningful(ap({ path: 'world.global.unrest', op: 'add', value: 0.4 }), w)).toBe(false);
    expect(isMeaningful(ap({ path: 'characters.crassus.stats.wealth', op: 'add', value: 5 }), w)).toBe(true); // 95->100: exactly 5% of 0..100
    expect(isMeaningful(ap({ path: 'characters.cicero.stats.wealth', op: 'add', value: 4 }), w)).toBe(false);
    expect(isMeaningful(ap({ path: 'relationships.cicero.crassus.trust', op: 'subtract', value: 0.05 }), w)).toBe(true);
    expect(isMeaningful(ap({ path: 'characters.cicero.status', op: 'set', value: 'alive' }), w)).toBe(false);
    expect(isMeaningful(ap({ path: 'characters.cicero.status', op: 'set', value: 'exiled' }), w)).toBe(true);
    expect(isMeaningful(ap({ path: 'characters.cicero.bdi.intentions', op: 'add', value: 'TESTIFY' }), w)).toBe(false);
    expect(isMeaningful(ap({ path: 'characters.cicero.bdi.intentions', op: 'add', value: 'FLEE' }), w)).toBe(true);
    expect(isMeaningful(ap({ path: 'assets.cash_ledger', op: 'transfer', from: 'crassus', to: 'cicero', amount: 1 }), w)).toBe(true);
    expect(isMeaningful(ap({ path: 'threads.thr_grain.last_progress_episode', op: 'set', value: 4 }), w)).toBe(false);
  });
});

describe('scene and act metrics', () => {
  it('detects swings, betrayals and reversals in a scene', () => {
    const w = smallWorld();
    const deltas: ResolvedDelta[] = [
      { path: 'world.global.unrest', op: 'add', value: 6 },
      { path: 'world.global.scandal_temp', op: 'add', value: 4 },
      { path: 'relationships.tiro.cicero.loyalty', op: 'subtract', value: 0.1 },
      { path: 'relationships.tiro.cicero.loyalty', op: 'subtract', value: 0.15 },
      { path: 'relationships.tiro.cicero.trust', op: 'subtract', value: 0.3 },
      { path: 'relationships.cicero.crassus.trust', op: 'subtract', value: 0.1 },
      { path: 'secrets.sec_debts.status', op: 'set', value: 'revealed' },
      { path: 'threads.thr_love.progress', op: 'subtract', value: 0.2 },
    ];
    const r = applyDeltas(w, deltas, prov);
    if (!r.ok) throw new Error();
    const m = sceneMetrics({ scene: 'SC01', act: 1, before: w, after: r.world, applied: r.applied, tags: ['reversal', 'confrontation'] });
    expect(m.swing).toBe(true);
    expect(m.tension - m.tension_before).toBeGreaterThanOrEqual(2);
    expect(m.betrayals).toBe(1); // tiro->cicero (loyalty and trust count once per edge); cicero->crassus fell only 0.1
    expect(m.reversals).toBe(3); // tag + revealed secret + thread set back
    expect(m.meaningful_deltas).toBe(8);
  });
  it('computes pacing and volatility per act', () => {
    const scenes: SceneMetrics[] = [
      { scene: 'SC01', act: 1, tension_before: 3, tension: 3, meaningful_deltas: 4, swing: false, betrayals: 0, reversals: 0 },
      { scene: 'SC02', act: 1, tension_before: 3, tension: 5.5, meaningful_deltas: 6, swing: true, betrayals: 1, reversals: 0 },
      { scene: 'SC03', act: 2, tension_before: 5.5, tension: 5.5, meaningful_deltas: 1, swing: false, betrayals: 0, reversals: 1 },
    ];
    const acts = actMetrics(scenes, { expectedDeltasPerAct: 8 });
    expect(acts.map((a) => [a.act, a.pacing, a.volatility, a.tension, a.tension_peak])).toEqual([
      [1, 10, 2, 4.25, 5.5],
      [2, 1.25, 1, 5.5, 5.5],
    ]);
  });
});

describe('Director responses', () => {
  const act = (n: number, pacing: number) => ({ act: n, scenes: 5, tension: 5, tension_peak: 5, meaningful_deltas: 0, pacing, expected_deltas: 20, narrative_swings: 0, betrayals: 0, reversals: 0, volatility: 0 });
  it('injects a complication after two acts of pacing below 4', () => {
    expect(pacingResponses([act(1, 3), act(2, 5), act(3, 3.9)])).toEqual([]);
    const r = pacingResponses([act(1, 3), act(2, 3.9), act(3, 2), act(4, 1)]);
    expect(r.map((x) => [x.action, x.at])).toEqual([['inject_complication', 'act 2'], ['inject_complication', 'act 4']]);
  });
  it('schedules a confrontation when tension is flat for 3+ scenes', () => {
    const s = (scene: string, t: number) => ({ scene, tension: t });
    expect(tensionPlateauResponses([s('SC01', 4), s('SC02', 4.01), s('SC03', 5), s('SC04', 5)])).toEqual([]);
    const r = tensionPlateauResponses([s('SC01', 4), s('SC02', 4.02), s('SC03', 3.98), s('SC04', 4), s('SC05', 6), s('SC06', 6), s('SC07', 6)]);
    expect(r.map((x) => [x.action, x.at])).toEqual([['schedule_confrontation', 'SC03'], ['schedule_confrontation', 'SC07']]);
  });
  it('defers the least pressing threads when more than 2 are near resolution', () => {
    const w = smallWorld();
    const t = (id: string, priority: number, progress: number, major = false) => ({ ...w.threads.threads[0]!, id, priority, progress, major });
    w.threads.threads = [t('a', 5, 0.9, true), t('b', 1, 0.95), t('c', 3, 0.8), t('d', 1, 0.85), t('e', 5, 0.5)];
    expect(threadsToDefer(w).map((x) => x.id)).toEqual(['d', 'b']);
    expect(deferResponses(w).map((x) => [x.action, x.at])).toEqual([['defer_resolution', 'd'], ['defer_resolution', 'b']]);
    w.threads.threads = w.threads.threads.slice(0, 2);
    expect(threadsToDefer(w)).toEqual([]);
  });
});

describe('projection', () => {
  const scenes = [
    { scene: 'SC01', deltas: [{ path: 'world.global.unrest', op: 'add', value: 1 }] as ResolvedDelta[] },
    { scene: 'SC02', deltas: [{ path: 'characters.cicero.location', op: 'set', value: 'ostia' }] as ResolvedDelta[] },
    { scene: 'SC03', deltas: [] as ResolvedDelta[] },
  ];
  it('gives the state before and after each scene, sharing structure', () => {
    const w = smallWorld();
    const p = projectScenes(w, scenes, { episode: 's01e01' });
    if (!p.ok) throw new Error();
    expect(p.before[0]).toBe(w);
    expect(p.after[0]).toBe(p.before[1]);
    expect(p.after[0]!.world.global.unrest.value).toBe(5);
    expect(p.before[0]!.world.global.unrest.value).toBe(4);
    expect(p.after[1]!.characters.characters[1]!.location).toBe('ostia');
    expect(p.after[1]!.world).toBe(p.after[0]!.world); // untouched file shared
    expect(p.after[0]!.characters).toBe(w.characters);
    expect(p.applied[1]![0]!.provenance).toEqual({ episode: 's01e01', scene: 'SC02', event: 'd1', operator: null });
    expect(p.hashes).toHaveLength(4);
    expect(p.hashes[0]).toBe(stateHash(w));
    expect(p.hashes[3]).toBe(p.hashes[2]); // SC03 changed nothing
    expect(p.hashes[1]).not.toBe(p.hashes[0]);
  });
  it('reports the failing scene and delta, leaving the input untouched', () => {
    const w = smallWorld();
    const before = stableStringify(w);
    const p = projectScenes(w, [...scenes, { scene: 'SC04', deltas: [{ path: 'assets.cash_ledger', op: 'transfer', from: 'cicero', to: 'crassus', amount: 10_000 }] }]);
    expect(p).toMatchObject({ ok: false, scene: 'SC04', sceneIndex: 3, failedIndex: 0 });
    expect(stableStringify(w)).toBe(before);
  });
  it('computes whole-episode metrics with a tension curve', () => {
    const w = smallWorld();
    const r = computeEpisodeMetrics(w, scenes.map((s, i) => ({ ...s, act: i < 2 ? 1 : 2 })));
    if (!r.ok) throw new Error();
    expect(r.metrics.tension_curve.map((x) => x.scene)).toEqual(['SC01', 'SC02', 'SC03']);
    expect(r.metrics.acts.map((a) => a.meaningful_deltas)).toEqual([2, 0]);
    expect(r.metrics.episode.act_count).toBe(2);
    // Acts 1 and 2 are both below pacing 4; SC01-SC03 all end at the same tension.
    expect(r.metrics.responses.map((x) => [x.condition, x.at])).toEqual([['pacing_low', 'act 2'], ['tension_plateau', 'SC03']]);
    expect(stableStringify(r.metrics)).toBe(stableStringify((computeEpisodeMetrics(smallWorld(), scenes.map((s, i) => ({ ...s, act: i < 2 ? 1 : 2 }))) as { metrics: unknown }).metrics));
  });
});
