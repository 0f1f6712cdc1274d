import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng.js';
import type { ScenePacket } from '../../../src/domain/packet.js';
import { buildPackets } from '../../../src/stages/d-packets/index.js';
import { edgeFacts, ItemLengths, ModelPacketSize } from '../../../src/stages/d-packets/measure.js';
import { packetJson, packetTokens, withoutEmpties } from '../../../src/stages/d-packets/wire.js';
import { compactLength } from '../../../src/core/json.js';
import { planScenario, scenario, hasStarter, STARTER } from './helpers.js';

/**
 * Removes random items from a packet one at a time, as pruning does (any list, in any order, the
 * cast's own edges and characters included), and checks after every removal that the kept size is
 * exactly the length of the text a full serialisation gives.
 */
function removeAtRandom(p: ScenePacket, size: ModelPacketSize, rng: Rng): number {
  const g = p.retrieved_subgraph;
  const ff = p.constraints.forbidden_facts;
  let steps = 0;
  const take = <T>(xs: T[]): T => xs.splice(rng.int(xs.length), 1)[0]!;
  for (;;) {
    const kinds = (['edges', 'secrets', 'threads', 'accounts', 'characters', 'facts', 'dead'] as const).filter((k) =>
      k === 'facts' ? ff.length > 0 : k === 'dead' ? p.dead.length > 0 : g[k].length > 0);
    if (kinds.length === 0) return steps;
    const k = rng.pick(kinds);
    if (k === 'edges') size.removedEdge(take(g.edges));
    else if (k === 'characters') size.removedCharacter(take(g.characters));
    else if (k === 'facts') size.removedFact(take(ff));
    else if (k === 'dead') size.removedDead(take(p.dead));
    else size.removedItem(k, take(g[k] as object[]));
    steps++;
    expect(size.length, `after removing from ${k} (step ${steps})`).toBe(packetJson(p).length);
  }
}

describe('a packet measured incrementally while pruning (d-packets/measure.ts)', () => {
  let packets: ScenePacket[] = [];
  beforeAll(async () => {
    for (const s of [scenario('planning-base'), ...(hasStarter ? [STARTER] : [])]) {
      const a = await planScenario(s);
      packets.push(...buildPackets(a.plan, a.world, a.context, { tokenBudget: 1_000_000 }));
    }
  });

  it('gives the length of the full serialisation after every removal, whatever the order', () => {
    let steps = 0;
    packets.forEach((orig, i) => {
      for (const seed of ['a', 'b']) {
        const p = structuredClone(orig);
        const rng = new Rng(`${seed}${i}`);
        // Strings a model-style text can hold: quotes (a JSON text splits them into odd pieces at its
        // quotes, and `mentionsIn` reads those pieces), backslashes, an off-stage id in a sentence.
        const off = p.retrieved_subgraph.characters.find((c) => !p.cast.some((m) => m.id === c.id));
        if (off) p.constraints.forbidden_facts.push(`said "${off.id}`, `x\\${off.id}`, `the "${off.id}" affair`);
        const size = ModelPacketSize.of(p)!;
        expect(size.length).toBe(packetJson(p).length);
        steps += removeAtRandom(p, size, rng);
      }
    });
    expect(steps).toBeGreaterThan(100);
  });

  it('follows the off-stage characters the model reads: one goes when the last string naming them goes', () => {
    const p = structuredClone(packets.find((x) => x.retrieved_subgraph.characters.some((c) => !x.cast.some((m) => m.id === c.id)))!);
    const off = p.retrieved_subgraph.characters.find((c) => !p.cast.some((m) => m.id === c.id))!;
    // A quoted id after an escaped quote is a piece of its own in the JSON text: it mentions them.
    p.constraints.forbidden_facts.push(`x"${off.id}`);
    const size = ModelPacketSize.of(p)!;
    expect(packetJson(p)).toContain(`"name":${JSON.stringify(off.name)}`);
    // Remove everything that names them but the fact: they stay while the fact does.
    const g = p.retrieved_subgraph;
    for (const e of g.edges.filter((x) => x.from === off.id || x.to === off.id)) (g.edges.splice(g.edges.indexOf(e), 1), size.removedEdge(e));
    expect(size.length).toBe(packetJson(p).length);
    const ff = p.constraints.forbidden_facts;
    ff.splice(ff.indexOf(`x"${off.id}`), 1);
    size.removedFact(`x"${off.id}`);
    expect(size.length).toBe(packetJson(p).length);
  });

  it('declines an id that could match across strings (the caller then measures in full)', () => {
    const p = structuredClone(packets[0]!);
    p.retrieved_subgraph.characters.push({ ...p.retrieved_subgraph.characters[0]!, id: 'a","b' });
    expect(ModelPacketSize.of(p)).toBeNull();
  });
});

describe('edges measured once per relationship for a whole buildPackets call (d-packets/measure.ts)', () => {
  it('gives every scene\'s edge its own measure, whatever relevance the scene gave it', async () => {
    let shared = 0;
    for (const s of [scenario('planning-base'), ...(hasStarter ? [STARTER] : [])]) {
      const a = await planScenario(s);
      const lengths = new ItemLengths();
      const packets = buildPackets(a.plan, a.world, a.context, { tokenBudget: 1_000_000 }, undefined, lengths);
      const relevances = new Map<string, Set<number>>();
      for (const p of packets) {
        for (const e of p.retrieved_subgraph.edges) {
          expect(lengths.edge(e)).toEqual(edgeFacts(e));
          expect(lengths.edgeFileLength(e)).toBe(compactLength(e));
          const key = `${e.from}>${e.to}`;
          relevances.set(key, (relevances.get(key) ?? new Set()).add(e.relevance));
        }
      }
      // The memo is really shared: one relationship is an edge of several relevances in different scenes.
      shared += [...relevances.values()].filter((r) => r.size > 1).length;
      // Pruned to a small budget, each estimate is still the full measure of what is kept.
      for (const p of buildPackets(a.plan, a.world, a.context, { tokenBudget: 400 })) {
        expect(p.pruned.some((x) => x.kind === 'edge')).toBe(true);
        expect(p.token_estimate).toBe(packetTokens(p));
      }
    }
    expect(shared).toBeGreaterThan(0);
  });
});

describe('withoutEmpties (d-packets/wire.ts)', () => {
  it('drops nulls and empty lists at any depth from a copy, and hands back what has none as it is', () => {
    const clean = { a: [{ b: 1, c: ['x'] }], d: { e: 'f' } };
    expect(withoutEmpties(clean)).toBe(clean);
    const deep = { a: [{ b: 1, c: [] }, { g: null, h: [[]] }], d: { e: 'f', n: null }, k: clean };
    const before = JSON.stringify(deep);
    const out = withoutEmpties(deep) as typeof deep;
    // Lists keep their elements (an empty list inside a list stays); objects lose their empties.
    expect(out).toEqual({ a: [{ b: 1 }, { h: [[]] }], d: { e: 'f' }, k: clean });
    expect(out.k).toBe(clean);
    expect(JSON.stringify(deep)).toBe(before);
  });

  it('is its definition on any JSON value, and shares every part without empties', () => {
    // The definition: an object loses its null and empty-list members, every part is walked, lists keep their elements.
    const plain = (v: unknown): unknown => {
      if (v === null || typeof v !== 'object') return v;
      if (Array.isArray(v)) return v.map(plain);
      return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && !(Array.isArray(x) && x.length === 0)).map(([k, x]) => [k, plain(x)]));
    };
    const hasEmpty = (v: unknown): boolean => v !== null && typeof v === 'object' && (Array.isArray(v) ? v.some(hasEmpty) : Object.values(v).some((x) => x === null || (Array.isArray(x) && x.length === 0) || hasEmpty(x)));
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.integer(), fc.string({ maxLength: 3 }), fc.constant([]), tie('arr'), tie('obj')),
      arr: fc.array(tie('value'), { maxLength: 4 }),
      obj: fc.dictionary(fc.string({ maxLength: 3 }), tie('value'), { maxKeys: 4 }),
    }));
    fc.assert(fc.property(json.value, (v) => {
      const before = JSON.stringify(v);
      const out = withoutEmpties(v);
      expect(JSON.stringify(out)).toBe(JSON.stringify(plain(v)));
      expect(JSON.stringify(v)).toBe(before);
      // A part is handed back as it is exactly when nothing under it is dropped.
      expect(out === v).toBe(!hasEmpty(v));
    }), { numRuns: 500 });
  });
});
