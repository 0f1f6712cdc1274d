import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Relationship, World } from '../../src/domain/world.js';
import type { ResolvedDelta } from '../../src/domain/delta.js';
import { applyDeltas } from '../../src/core/deltas/index.js';
import { edgeOf, edgesByKey, entitiesById, indexWorld } from '../../src/core/world-index.js';
import { noteCopy } from '../../src/core/finished-lists.js';
import { loadWorld } from '../../src/store/load.js';
import { threatToGoals } from '../../src/core/tension.js';
import { smallWorld } from './fixture.js';
import { evaluate, makeEvalContext } from '../../src/core/expr/index.js';

/**
 * Lookups over a copy-on-write list are derived from the original's (issue 18) instead of rebuilt.
 * Whatever was replaced or appended, they must say exactly what a lookup built from scratch says:
 * the same entries, the same values (by identity), in the same iteration order.
 */
type Item = { id: string; v: number };
const edge = (from: string, to: string, v: number): Relationship => ({ from, to, weights: { loyalty: v, fear: 0, debt: 0, affection: 0, rivalry: 0, trust: 0 }, flags: [] });

/** A fresh build: a copy of the list that no lineage points to. */
const fresh = (w: World) => indexWorld({
  characters: { ...w.characters, characters: w.characters.characters.slice() },
  relationships: { ...w.relationships, relationships: w.relationships.relationships.slice() },
} as unknown as World);

const entries = <V>(m: ReadonlyMap<string, V>) => [...m.entries()];

function expectSameIndex(a: ReturnType<typeof indexWorld>, b: ReturnType<typeof indexWorld>): void {
  expect(entries(a.characters)).toEqual(entries(b.characters));
  for (const [k, v] of b.characters) expect(a.characters.get(k)).toBe(v);
  expect(a.characters.size).toBe(b.characters.size);
  expect(entries(a.edgesFrom)).toEqual(entries(b.edgesFrom));
  expect(entries(a.edgesTo)).toEqual(entries(b.edgesTo));
  for (const [k, l] of b.edgesFrom) expect(a.edgesFrom.get(k)!.every((r, i) => r === l[i])).toBe(true);
  expect([...a.edgesTo.keys()]).toEqual([...b.edgesTo.keys()]);
  expectFirstEdges(a);
}

/**
 * What a map keyed `${from}>${to}` built over the list held (the index had one until issue 18's
 * eighteenth pass): the first relationship of each pair, in list order. edgeOf must find exactly it,
 * and the lists by `from` hold exactly those, in list order.
 */
function expectFirstEdges(index: ReturnType<typeof indexWorld>): void {
  const first = new Map<string, Relationship>();
  for (const r of index.world.relationships.relationships) if (!first.has(`${r.from}>${r.to}`)) first.set(`${r.from}>${r.to}`, r);
  for (const r of index.world.relationships.relationships) expect(edgeOf(index, r.from, r.to)).toBe(first.get(`${r.from}>${r.to}`));
  expect(edgeOf(index, 'c0', 'nobody')).toBeUndefined();
  expect(edgeOf(index, 'nobody', 'c0')).toBeUndefined();
  expect([...index.edgesFrom.values()].flat().sort((x, y) => x.from.localeCompare(y.from))).toEqual([...first.values()].sort((x, y) => x.from.localeCompare(y.from)));
  for (const l of index.edgesFrom.values()) expect(l.every((r) => first.get(`${r.from}>${r.to}`) === r)).toBe(true);
}

describe('lookups derived over copy-on-write lists', () => {
  it('equal a fresh build after any sequence of replacements and appends', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), v: fc.integer() }),
      fc.record({ kind: fc.constant('append' as const), id: fc.integer({ min: 0, max: 40 }), to: fc.integer({ min: 0, max: 40 }), v: fc.integer() }),
    );
    fc.assert(fc.property(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 45 }), fc.array(fc.array(op, { maxLength: 6 }), { maxLength: 8 }), (n, hub, steps) => {
      let chars: Item[] = Array.from({ length: n }, (_, i) => ({ id: `c${i % 25}`, v: i })); // some duplicate ids
      let rels: Relationship[] = Array.from({ length: n }, (_, i) => edge(`c${i % 7}`, `c${(i * 3) % 11}`, i));
      // c0 with up to 30 edges out (past edgeOf's scan length), repeated past 30.
      for (let i = 0; i < hub; i++) rels.splice((i * 5) % (rels.length + 1), 0, edge('c0', `c${100 + (i % 30)}`, -i));
      const world = (): World => ({ characters: { characters: chars }, relationships: { relationships: rels } }) as unknown as World;
      expectSameIndex(indexWorld(world()), fresh(world()));
      for (const batch of steps) {
        const c2 = chars.slice();
        const r2 = rels.slice();
        noteCopy(c2, chars);
        noteCopy(r2, rels);
        for (const o of batch) {
          if (o.kind === 'replace') {
            if (c2.length) c2[o.at % c2.length] = { ...c2[o.at % c2.length]!, v: o.v };
            if (r2.length) r2[o.at % r2.length] = { ...r2[o.at % r2.length]!, weights: { ...r2[o.at % r2.length]!.weights, fear: o.v } };
          } else {
            c2.push({ id: `c${o.id}`, v: o.v });
            r2.push(edge(`c${o.id}`, `c${o.to}`, o.v));
          }
        }
        chars = c2;
        rels = r2;
        expectSameIndex(indexWorld(world()), fresh(world()));
        // The delta engine's lookups (core/deltas/draft.ts) are indexWorld's maps of the same list.
        expect(entitiesById(chars)).toBe(indexWorld(world()).characters);
        const byKey = edgesByKey(rels);
        for (const l of indexWorld(world()).edgesFrom.values()) for (const r of l) expect(byKey.get(`${r.from}>${r.to}`)).toBe(r);
      }
    }), { numRuns: 150 });
  });

  it('index the delta engine\'s results as a fresh build does, batch after batch', () => {
    let w = smallWorld();
    indexWorld(w);
    const ids = w.characters.characters.map((c) => c.id);
    const threats: [number, number][] = [];
    const batches: ResolvedDelta[][] = [
      [{ op: 'add', path: `characters.${ids[0]}.stats.wealth`, value: 5 }],
      [{ op: 'add', path: `relationships.${ids[0]}.${ids[1]}.fear`, value: 0.1 }, { op: 'set', path: `characters.${ids[1]}.status`, value: 'dead' }],
      [{ op: 'add', path: `relationships.${ids[1]}.${ids[0]}.trust`, value: 0.2 }],
      // The enmity and exposure maps: a rival's rivalry lowered (the max it held must be recomputed), then raised.
      [{ op: 'add', path: 'relationships.cicero.crassus.rivalry', value: -0.5 }],
      [{ op: 'add', path: 'relationships.cicero.crassus.rivalry', value: 0.8 }, { op: 'add', path: 'relationships.tiro.cicero.rivalry', value: 0.3 }],
      [{ op: 'set', path: `secrets.${w.secrets.secrets[0]!.id}.status`, value: 'revealed' }],
      [{ op: 'set', path: `secrets.${w.secrets.secrets[0]!.id}.status`, value: 'inert' }],
    ];
    for (const deltas of batches) {
      const r = applyDeltas(w, deltas, (_d, i) => ({ episode: 's01e01', scene: 'SC01', event: `e${i}`, operator: null }));
      if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
      const was = threatToGoals(w);
      w = r.world;
      expectSameIndex(indexWorld(w), fresh(w));
      const copy = { ...w, characters: { ...w.characters, characters: w.characters.characters.slice() }, secrets: { ...w.secrets, secrets: w.secrets.secrets.slice() }, relationships: { ...w.relationships, relationships: w.relationships.relationships.slice() } };
      expect(threatToGoals(w)).toBe(threatToGoals(copy));
      threats.push([was, threatToGoals(w)]);
    }
    // The rivalry and secret batches moved the threat (so the derived maps were exercised, not skipped).
    expect(threats.slice(3).some(([a, b]) => a !== b)).toBe(true);
  });
});

type Pick = { who: number; to: number; v: number; kind: 'stat' | 'edge' | 'status' };
const pick = fc.record({ who: fc.nat(), to: fc.nat(), v: fc.integer({ min: 1, max: 9 }), kind: fc.constantFrom('stat' as const, 'edge' as const, 'status' as const) });

/**
 * Applies the batches from w0 (indexed first), indexing only every `every`-th state: the others are
 * copies the next index derives across. Each index must equal a fresh build.
 */
function indexAcross(w0: World, batches: Pick[][], every: number): void {
  let w = w0;
  expectSameIndex(indexWorld(w), fresh(w));
  const ids = w0.characters.characters.map((c) => c.id);
  batches.forEach((batch, n) => {
    const deltas: ResolvedDelta[] = batch.map((p) => {
      const a = ids[p.who % ids.length]!;
      const b = ids[(p.who + 1 + (p.to % (ids.length - 1))) % ids.length]!;
      if (p.kind === 'stat') return { op: 'add', path: `characters.${a}.stats.wealth`, value: p.v };
      if (p.kind === 'status') return { op: 'set', path: `characters.${a}.status`, value: p.v % 2 ? 'alive' : 'exiled' };
      return { op: 'add', path: `relationships.${a}.${b}.rivalry`, value: p.v / 10 };
    });
    const r = applyDeltas(w, deltas, (_d, i) => ({ episode: 's01e01', scene: 'SC01', event: `e${i}`, operator: null }));
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
    w = r.world;
    if ((n + 1) % every === 0) {
      expectSameIndex(indexWorld(w), fresh(w));
      const copy = { ...w, characters: { ...w.characters, characters: w.characters.characters.slice() }, relationships: { ...w.relationships, relationships: w.relationships.relationships.slice() } };
      expect(threatToGoals(w)).toBe(threatToGoals(copy));
    }
  });
}

describe('lookups derived over several batches at once', () => {
  it('equal a fresh build when the states between were never indexed (the sealed lists\' noted changes, united)', () => {
    const w0 = smallWorld();
    fc.assert(fc.property(fc.array(fc.array(pick, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 9 }), fc.integer({ min: 1, max: 4 }), (batches, every) => {
      indexAcross(w0, batches, every);
    }), { numRuns: 150 });
  });

  it('equal a fresh build from a loaded world: its lists are finished, so the copies\' noted changes are all that differs', async () => {
    // A loaded list is never compared element by element (core/finished-lists.ts): deriving across
    // the delta engine's copies up to it unites their noted positions. A fresh load per run, so the
    // first state indexed is the loaded one.
    const root = path.resolve(import.meta.dirname, '../fixtures/worlds/planning-base');
    await fc.assert(fc.asyncProperty(fc.array(fc.array(pick, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 4 }), async (batches, every) => {
      indexAcross((await loadWorld(root)).world!, batches, every);
    }), { numRuns: 40 });
  });
});

describe('count_alive() over copy-on-write character maps', () => {
  type Who = { id: string; principal: boolean; status: string };
  const STATUSES = ['alive', 'dead', 'exiled'];
  const countAlive = (index: ReturnType<typeof indexWorld>): unknown => {
    const r = evaluate('count_alive()', makeEvalContext(index, {}));
    return r.ok ? r.value : r.diagnostic.message;
  };
  /** What the definition says: living principals among the index's characters (first of each id). */
  const byDefinition = (index: ReturnType<typeof indexWorld>): number => [...index.characters.values()].filter((c) => c.principal && c.status === 'alive').length;

  it('counts exactly the living principals, whatever was replaced or appended (derived maps are overlays)', () => {
    const op = fc.record({ at: fc.nat(), id: fc.integer({ min: 0, max: 60 }), principal: fc.boolean(), status: fc.constantFrom(...STATUSES), append: fc.boolean() });
    fc.assert(fc.property(fc.integer({ min: 0, max: 40 }), fc.array(fc.array(op, { maxLength: 5 }), { maxLength: 8 }), (n, steps) => {
      let chars: Who[] = Array.from({ length: n }, (_, i) => ({ id: `c${i % 35}`, principal: i % 3 !== 0, status: STATUSES[i % 3]! })); // some duplicate ids
      const world = (): World => ({ characters: { characters: chars }, relationships: { relationships: [] } }) as unknown as World;
      let index = indexWorld(world());
      expect(countAlive(index)).toBe(byDefinition(fresh(world())));
      for (const batch of steps) {
        const c2 = chars.slice();
        noteCopy(c2, chars);
        for (const o of batch) {
          if (o.append || !c2.length) c2.push({ id: `c${o.id}`, principal: o.principal, status: o.status });
          else c2[o.at % c2.length] = { ...c2[o.at % c2.length]!, principal: o.principal, status: o.status };
        }
        chars = c2;
        index = indexWorld(world());
        expect(countAlive(index)).toBe(byDefinition(fresh(world())));
      }
    }));
  });
});
