import { describe, expect, it } from 'vitest';
import type { Provenance, ResolvedDelta } from '../../src/domain/delta.js';
import type { World } from '../../src/domain/world.js';
import { applyDeltas } from '../../src/core/deltas/index.js';
import { edgeOf, indexWorld } from '../../src/core/world-index.js';
import { smallWorld } from './fixture.js';

// The delta engine takes an earlier batch's finished list when a batch makes the same changes to the
// same list (core/deltas/draft.ts `finished`: the acceptance replay re-applies the Director's moves).
// These tests pin both halves: the list is shared, and the state is exactly the one a fresh copy gives.

const prov = (_d: ResolvedDelta, i: number): Provenance => ({ episode: 's01e01', scene: 'SC01', event: `e${i + 1}`, operator: 'op_test' });
function apply(world: World, deltas: ResolvedDelta[]): World {
  const r = applyDeltas(world, deltas, prov);
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
  return r.world;
}
/** The same world as new objects: no list or entity of it was ever seen by the engine. */
const fresh = (w: World): World => JSON.parse(JSON.stringify(w)) as World;

const batch: ResolvedDelta[] = [
  { path: 'relationships.cicero.crassus.fear', op: 'add', value: 0.2 },
  { path: 'relationships.tiro.crassus.trust', op: 'add', value: 0.3 },
  { path: 'characters.tiro.stats.wealth', op: 'add', value: 0.1 },
];

describe('applyDeltas: a batch repeated on the same lists', () => {
  it('takes the earlier batch’s lists, holding exactly what a fresh copy would', () => {
    const w = smallWorld();
    const before = JSON.stringify(w);
    const a = apply(w, batch);
    const b = apply(w, batch);
    expect(b.relationships.relationships).toBe(a.relationships.relationships);
    expect(b.characters.characters).toBe(a.characters.characters);
    // Still a new state: the input is untouched and the files are the draft's own.
    expect(JSON.stringify(w)).toBe(before);
    expect(b.relationships).not.toBe(w.relationships);
    expect(b.relationships.relationships).not.toBe(w.relationships.relationships);
    // Byte for byte (key order included) what the batch gives on a world the engine never saw.
    const c = apply(fresh(w), batch);
    expect(JSON.stringify(b)).toBe(JSON.stringify(c));
    expect(b.relationships.relationships).toHaveLength(4);
    // A batch on the shared list goes on from it, and the lookups over it are right.
    const next = apply(b, [{ path: 'relationships.cicero.crassus.fear', op: 'add', value: 0.1 }]);
    expect(edgeOf(indexWorld(next), 'cicero', 'crassus')!.weights.fear).toBeCloseTo(0.7);
    expect(edgeOf(indexWorld(b), 'cicero', 'crassus')!.weights.fear).toBeCloseTo(0.6);
  });

  it('makes its own list when a value differs', () => {
    const w = smallWorld();
    const a = apply(w, [{ path: 'relationships.cicero.crassus.fear', op: 'add', value: 0.2 }]);
    const b = apply(w, [{ path: 'relationships.cicero.crassus.fear', op: 'add', value: 0.3 }]);
    expect(b.relationships.relationships).not.toBe(a.relationships.relationships);
    expect(a.relationships.relationships[0]!.weights.fear).toBeCloseTo(0.6);
    expect(b.relationships.relationships[0]!.weights.fear).toBeCloseTo(0.7);
  });

  it('makes its own list when the same values were written in another key order', () => {
    const w = smallWorld();
    // An edge whose weights lack two keys: each write adds its key, so the order of writes is serialised.
    (w.relationships.relationships[0] as { weights: Record<string, number> }).weights = { loyalty: 0.1 };
    const fearFirst = apply(w, [
      { path: 'relationships.cicero.crassus.fear', op: 'set', value: 0.5 },
      { path: 'relationships.cicero.crassus.trust', op: 'set', value: 0.4 },
    ]);
    const trustFirst = apply(w, [
      { path: 'relationships.cicero.crassus.trust', op: 'set', value: 0.4 },
      { path: 'relationships.cicero.crassus.fear', op: 'set', value: 0.5 },
    ]);
    expect(Object.keys(fearFirst.relationships.relationships[0]!.weights)).toEqual(['loyalty', 'fear', 'trust']);
    expect(Object.keys(trustFirst.relationships.relationships[0]!.weights)).toEqual(['loyalty', 'trust', 'fear']);
    expect(trustFirst.relationships.relationships).not.toBe(fearFirst.relationships.relationships);
  });

  it('adds a file the world lacks in the order the batch first wrote it', () => {
    const w = smallWorld() as Partial<World>;
    delete w.relationships;
    const r = apply(w as World, [
      { path: 'relationships.cicero.crassus.fear', op: 'add', value: 0.2 },
      { path: 'characters.tiro.stats.wealth', op: 'add', value: 0.1 },
    ]);
    expect(Object.keys(r).slice(-1)).toEqual(['relationships']);
    expect(r.relationships.relationships).toHaveLength(1);
  });
});
