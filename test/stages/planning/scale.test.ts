import { describe, expect, it, beforeAll } from 'vitest';
import fc from 'fast-check';
import type { World } from '../../../src/domain/world.js';
import { episodeRef } from '../../../src/domain/context.js';
import { loadStarterKit } from '../../../src/import/kit.js';
import { generateSyntheticWorld } from '../../../src/import/synthetic.js';
import { indexWorld } from '../../../src/core/world-index.js';
import { hashValue, sha256 } from '../../../src/core/hash.js';
import { canonicalCompact, canonicalize } from '../../../src/core/json.js';

/** The canonical text by its definition: a sorted copy, then JSON.stringify. */
const canonicalText = (v: unknown): string => JSON.stringify(canonicalize(v));
import { buildEpisodeContext } from '../../../src/stages/a-snapshot/index.js';
import { invalidMove, proposeSymbolic } from '../../../src/stages/b-proposals/index.js';
import { candidatePool } from '../../../src/stages/b-proposals/pool.js';
import { ACTING_CAP, ACTING_FROM_THREADS, KNOWN_CAP, actingPrincipals, firstInOrder, knownCandidates, knownCharacters } from '../../../src/stages/b-proposals/known.js';
import { canAct, roleKind } from '../../../src/stages/b-proposals/bdi.js';
import { episodesSinceProgress } from '../../../src/stages/a-snapshot/index.js';
import { planSymbolic } from '../../../src/stages/c-director/plan.js';
import { projectPlan } from '../../../src/stages/c-director/checks.js';
import { buildPackets } from '../../../src/stages/d-packets/index.js';
import { CHUNK, StateHasher, stateHash } from '../../../src/core/state-hash.js';
import { REPO, hasStarter } from './helpers.js';
import { applyDeltas } from '../../../src/core/deltas/index.js';
import type { ResolvedDelta } from '../../../src/domain/delta.js';
import { character, smallWorld } from '../../core/fixture.js';

// A world of 1,000 synthetic principals (1,500 characters, ~5,000 edges, 1,000 secrets, ~600
// threads) is planned end to end: planning must scale with what each agent knows, not with the
// world (docs/planning.md "Scaling"). Structure is asserted, never time.
describe.runIf(hasStarter)('planning a 1,000-principal world', () => {
  let world: World;
  beforeAll(async () => {
    world = generateSyntheticWorld({ principals: 1000, seed: 'scale' }, await loadStarterKit(REPO)).world;
  });

  it('acts with at most ACTING_CAP principals, each considering at most KNOWN_CAP characters it knows', () => {
    const index = indexWorld(world);
    const acting = actingPrincipals(world, 1);
    expect(acting.length).toBe(ACTING_CAP);
    expect(acting.map((c) => c.id)).toEqual([...acting.map((c) => c.id)].sort());
    expect(acting.every((c) => c.principal && c.status === 'alive')).toBe(true);
    for (const a of acting) {
      const known = knownCharacters(world, index, a.id);
      expect(known.length).toBeGreaterThan(0);
      expect(known.length).toBeLessThanOrEqual(KNOWN_CAP);
      expect(known).not.toContain(a.id);
      // Someone it has a relationship with is always among those it knows (edges rank first).
      const linked = new Set([...(index.edgesFrom.get(a.id) ?? []).map((r) => r.to), ...(index.edgesTo.get(a.id) ?? []).map((r) => r.from)]);
      if (linked.size) expect(known.some((id) => linked.has(id))).toBe(true);
      // Secrets offered to it concern it or someone it knows.
      const people = new Set([a.id, ...known]);
      for (const id of knownCandidates(world, index, a.id, 'secret')) {
        const s = index.secrets.get(id)!;
        expect(people.has(s.subject) || s.holders.some((h) => people.has(h))).toBe(true);
      }
    }
    // Every pooled binding only names acting principals as actors and known characters in other roles.
    const actingIds = new Set(acting.map((c) => c.id));
    for (const e of candidatePool(world, 1, index)) {
      expect(actingIds.has(e.actor.id)).toBe(true);
      const known = new Set(knownCharacters(world, index, e.actor.id));
      for (const [role, id] of Object.entries(e.bindings)) if (role !== 'actor' && roleKind(e.op, role) === 'character') expect(known.has(id)).toBe(true);
    }
  });

  it('acts with the principals of the definition: the urgent threads\' stakeholders, then the rest by standing (whole sorts)', () => {
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const standing = (c: World['characters']['characters'][number]) => (c.stats.auctoritas ?? 0) + (c.stats.dignitas ?? 0) + (c.stats.gratia ?? 0);
    const definition = (w: World, episode: number) => {
      const all = w.characters.characters.filter((c) => c.principal && canAct(c)).sort(byId);
      const byStanding = [...all].sort((a, b) => standing(b) - standing(a) || (a.id < b.id ? -1 : 1));
      const chosen = new Set<(typeof all)[number]>();
      const threads = w.threads.threads.filter((t) => t.status === 'open')
        .sort((a, b) => Number(episodesSinceProgress(b, episode) > b.cadence) - Number(episodesSinceProgress(a, episode) > a.cadence) || b.priority - a.priority || (a.id < b.id ? -1 : 1));
      for (const t of threads) {
        const stake = all.filter((c) => t.stakeholders.includes(c.id)).sort((a, b) => standing(b) - standing(a) || (a.id < b.id ? -1 : 1));
        for (const c of stake) if (chosen.size < ACTING_FROM_THREADS) chosen.add(c);
      }
      for (const c of byStanding) if (chosen.size < ACTING_CAP) chosen.add(c);
      return [...chosen].sort(byId).map((c) => c.id);
    };
    for (const episode of [1, 4, 9]) expect(actingPrincipals(world, episode).map((c) => c.id)).toEqual(definition(world, episode));
    // Ties in standing are broken by id: a world where every principal stands equal acts with the first ids.
    const level = { ...world, characters: { ...world.characters, characters: world.characters.characters.map((c) => ({ ...c, stats: { ...c.stats, auctoritas: 1, dignitas: 1, gratia: 1 } })) } };
    expect(actingPrincipals(level, 2).map((c) => c.id)).toEqual(definition(level, 2));
  });

  it('puts the first k of a list in order as a whole sort does (firstInOrder)', () => {
    fc.assert(fc.property(fc.uniqueArray(fc.integer({ min: -50, max: 50 }), { maxLength: 60 }), fc.integer({ min: 0, max: 70 }), (xs, k) => {
      const cmp = (a: number, b: number) => Math.abs(b) - Math.abs(a) || a - b;
      expect(firstInOrder(xs, k, cmp)).toEqual([...xs].sort(cmp).slice(0, k));
    }));
  });

  it('proposes valid moves, plans an episode whose acceptance checks all pass, and builds its packets', () => {
    const index = indexWorld(world);
    const { context } = buildEpisodeContext({ world, ref: episodeRef(1, 1), seed: 'scale', previousCliffhanger: null });
    const proposals = proposeSymbolic(world, context);
    expect(proposals.proposals.length).toBe(ACTING_CAP);
    expect(proposals.proposals.filter((p) => p.moves.length >= 2).length).toBeGreaterThan(ACTING_CAP / 2);
    for (const p of proposals.proposals) for (const m of p.moves) expect(invalidMove(world, index, p.character_id, m, 1)).toBeNull();

    const plan = planSymbolic({ world, context, proposals, seed: 'scale' });
    expect(plan.scenes.length).toBeGreaterThanOrEqual(18);
    expect(plan.acceptance_checks.length).toBeGreaterThan(5);
    expect(plan.acceptance_checks.filter((c) => !c.passed)).toEqual([]);
    // Deterministic: the same seed gives the same plan.
    expect(planSymbolic({ world, context, proposals, seed: 'scale' })).toEqual(plan);

    const packets = buildPackets(plan, world, context, { tokenBudget: 6000 });
    expect(packets.map((p) => p.scene_id)).toEqual(plan.scenes.map((s) => s.id));
    const projection = projectPlan(plan, world, context);
    for (const i of [0, packets.length - 1]) expect(packets[i]!.state_hash_before).toBe(referenceStateHash(projection.before[i]!));
    // Forbidden facts name what the scene's subgraph can see, not every secret of the city.
    for (const p of packets) expect(p.constraints.forbidden_facts.length).toBeLessThan(200);
  });
});

/**
 * The state hash's definition (core/state-hash.ts), written plainly: every array reached through
 * objects only becomes the digests of its chunks of CHUNK elements; the result is hashed canonically.
 */
function referenceStateHash(value: unknown): string {
  const t = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      const out: string[] = [];
      for (let i = 0; i < v.length; i += CHUNK) out.push(sha256(canonicalText(v.slice(i, i + CHUNK))));
      return out;
    }
    if (v === null || typeof v !== 'object') return v;
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = t(x);
    // canonicalize drops an own "__proto__" key; the copy above would have made it the prototype.
    return o;
  };
  return sha256(canonicalText(t(value)));
}

describe('StateHasher', () => {
  it('gives the defined hash of every value, sharing chunks and pieces between states', () => {
    const hasher = new StateHasher();
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.string(), tie('arr'), tie('obj')),
      arr: fc.array(fc.oneof(tie('value'), fc.constant(undefined)), { maxLength: 4 }),
      obj: fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(tie('value'), fc.constant(undefined)), { maxKeys: 5 }),
    }));
    fc.assert(fc.property(json.value, (v) => {
      expect(hasher.hash(v)).toBe(referenceStateHash(v));
      // canonicalCompact's fast path (native JSON.stringify of already-canonical parts) is the definition.
      expect(canonicalCompact(v)).toBe(canonicalText(v));
      expect(canonicalCompact({ z: v, a: [v, { y: v, b: 1 }] })).toBe(canonicalText({ z: v, a: [v, { y: v, b: 1 }] }));
      expect(hasher.hash({ again: v, list: [v, v] })).toBe(referenceStateHash({ again: v, list: [v, v] }));
      // hashValue streams the same text into the digest in pieces.
      expect(hashValue(v)).toBe(sha256(canonicalText(v)));
      expect(hashValue({ z: v, a: [v, { y: v, b: 1 }] })).toBe(sha256(canonicalText({ z: v, a: [v, { y: v, b: 1 }] })));
    }), { numRuns: 500 });
    // Pieces over 64 K characters (a whole canonical file) and many small ones (an unsorted object's keys), non-ASCII included.
    const big = { b: Array.from({ length: 3000 }, (_, i) => ({ id: `c${i}`, name: `Gaius — ${i}` })), a: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${3000 - i}`, { z: i, y: 'é' }])) };
    expect(hashValue(big)).toBe(sha256(canonicalText(big)));
    // Index-like keys come first in JSON.stringify's order; an own "__proto__" key is dropped by canonicalize.
    const odd = JSON.parse('{"__proto__":{"a":1},"10":2,"2":[3],"b":{"1":0,"":1},"":null}') as unknown;
    expect(hasher.hash(odd)).toBe(referenceStateHash(odd));
    expect(canonicalCompact(odd)).toBe(canonicalText(odd));
    expect(canonicalCompact({ d: new Date(0), f: () => 1, l: [() => 1, undefined] })).toBe(canonicalText({ d: new Date(0), f: () => 1, l: [() => 1, undefined] }));
    expect(() => canonicalCompact({ x: [Infinity] })).toThrow(/non-finite/);
    expect(() => hasher.hash({ x: [Infinity] })).toThrow(/non-finite/);
  });

  it('takes hashValue on the way to its chunk digests (flatHash), which hash() then reuses', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.string(), tie('arr'), tie('obj')),
      arr: fc.array(fc.oneof(tie('value'), fc.constant(undefined)), { maxLength: 4 }),
      obj: fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(tie('value'), fc.constant(undefined)), { maxKeys: 5 }),
    }));
    fc.assert(fc.property(json.value, (v) => {
      const hasher = new StateHasher();
      const wrapped = { list: Array.from({ length: CHUNK + 3 }, (_, i) => ({ i, v })), v };
      expect(hasher.flatHash(v)).toBe(hashValue(v));
      expect(hasher.flatHash(wrapped)).toBe(hashValue(wrapped));
      expect(hasher.hash(v)).toBe(referenceStateHash(v));
      expect(hasher.hash(wrapped)).toBe(referenceStateHash(wrapped));
    }), { numRuns: 300 });
    // Non-ASCII text, index-like and "__proto__" keys, unsorted keys, undefined and function members.
    const odd = JSON.parse('{"__proto__":{"a":1},"10":2,"2":[3],"b":{"1":0,"":1},"":null,"z":[{"y":"é—","a":[1]},{"b":2,"a":1}]}') as Record<string, unknown>;
    const values = [odd, { ...odd, f: () => 1, u: undefined, l: [() => 1, undefined, { b: 1, a: undefined }] }];
    for (const v of values) {
      const hasher = new StateHasher();
      expect(hasher.flatHash(v)).toBe(hashValue(v));
      expect(hasher.hash(v)).toBe(referenceStateHash(v));
    }
    // Array holes, where canonicalCompact writes nothing and the chunks write null: flatHash is still hashValue.
    // eslint-disable-next-line no-sparse-arrays
    for (const v of [{ top: [, { a: 1 }] }, { top: [{ nested: [1, , 3] }] }, [, 1]]) {
      const hasher = new StateHasher();
      hasher.hash(v); // the nested hole's text is kept from an earlier hash() as well
      expect(hasher.flatHash(v)).toBe(hashValue(v));
    }
    expect(() => new StateHasher().flatHash({ x: [Infinity] })).toThrow(/non-finite/);
  });

  it('follows copy-on-write states: a shared chunk keeps its digest, a changed element changes the hash', () => {
    const people = Array.from({ length: 3 * CHUNK + 5 }, (_, i) => ({ id: `c${i}`, stats: { wealth: i }, tags: ['a', i] }));
    const s0 = { characters: { characters: people }, date: { year: -63 } };
    const hasher = new StateHasher();
    const h0 = hasher.hash(s0);
    expect(h0).toBe(referenceStateHash(s0));
    // A copy-on-write successor: one element replaced, one appended; the rest shared.
    const next = people.slice();
    next[CHUNK + 1] = { ...people[CHUNK + 1]!, stats: { wealth: -1 } };
    next.push({ id: 'new', stats: { wealth: 0 }, tags: [] });
    const s1 = { ...s0, characters: { characters: next } };
    const h1 = hasher.hash(s1);
    expect(h1).not.toBe(h0);
    expect(h1).toBe(referenceStateHash(s1));
    expect(h1).toBe(stateHash(s1));
    // The first state again, after the second: the same hash as at first.
    expect(hasher.hash(s0)).toBe(h0);
    // An element list of the same objects in another order is another state.
    const swapped = people.slice();
    [swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!];
    expect(hasher.hash({ ...s0, characters: { characters: swapped } })).not.toBe(h0);
  });

  it('gives the defined hash along a run of copy-on-write states, each a few elements off the one before', () => {
    // What stage D hashes: each state is the last with a few elements replaced (a chunk's text is the
    // last one's with theirs swapped in), sometimes appended to, shortened or reordered.
    const step = fc.oneof(
      fc.record({ kind: fc.constant('replace' as const), at: fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), text: fc.string({ maxLength: 8 }) }),
      fc.record({ kind: fc.constant('append' as const), n: fc.integer({ min: 1, max: 70 }) }),
      fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('swap' as const), a: fc.nat(), b: fc.nat() }),
      fc.record({ kind: fc.constant('primitive' as const), at: fc.nat(), value: fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.constant(null)) }),
    );
    fc.assert(fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
      const hasher = new StateHasher();
      let list: unknown[] = Array.from({ length: 2 * CHUNK + 7 }, (_, i) => ({ id: `c${i}`, note: 'é'.repeat(i % 3), tags: [i] }));
      let n = 0;
      for (const s of [...steps, ...steps]) {
        list = list.slice();
        if (s.kind === 'replace') for (const at of s.at) list[at % list.length] = { id: `r${n++}`, text: s.text, b: { z: 1, a: [s.text] } };
        else if (s.kind === 'append') for (let i = 0; i < s.n; i++) list.push({ id: `a${n++}` });
        else if (s.kind === 'drop' && list.length > 1) list.splice(s.at % list.length, 1);
        else if (s.kind === 'swap') [list[s.a % list.length], list[s.b % list.length]] = [list[s.b % list.length], list[s.a % list.length]];
        else if (s.kind === 'primitive') list[s.at % list.length] = s.value;
        const state = { characters: { characters: list }, other: { list } };
        expect(hasher.hash(state)).toBe(referenceStateHash(state));
      }
    }), { numRuns: 200 });
  });

  it("takes a sealed list's digests from the list it was copied from, reading only the chunks its noted changes fall in", () => {
    // What stage D hashes: each state a few delta batches on (core/deltas seals each list it copied).
    const base = smallWorld();
    const people = Array.from({ length: 5 * CHUNK + 7 }, (_, i) => character(`p${i}`, { name: `Pólo ${i}` }));
    let state: World = { ...base, characters: { ...base.characters, characters: [...base.characters.characters, ...people] } };
    const hasher = new StateHasher();
    expect(hasher.hash(state)).toBe(referenceStateHash(state));
    const prov = () => ({ episode: 's01e01', scene: 'SC01', event: 'e1', operator: 'op_test' });
    const batch = (deltas: ResolvedDelta[]): World => {
      const r = applyDeltas(state, deltas, prov);
      if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
      return r.world;
    };
    for (let step = 0; step < 12; step++) {
      const at = [(step * 37) % people.length, (step * 101 + 5) % people.length];
      state = batch(at.map((i) => ({ path: `characters.p${i}.stats.wealth`, op: 'add', value: step + 1 })));
      // Every other state is hashed: the next one is two batches (two sealed copies) on.
      if (step % 2 === 0) continue;
      const list = state.characters.characters;
      const offset = list.length - people.length;
      const touched = new Set([...at, ...[((step - 1) * 37) % people.length, ((step - 1) * 101 + 5) % people.length]].map((i) => Math.floor((i + offset) / CHUNK)));
      // Count reads of the elements outside the changed chunks (accessors on a few of them).
      let reads = 0;
      for (let i = 0; i < list.length; i += 7) {
        if (touched.has(Math.floor(i / CHUNK))) continue;
        const el = list[i];
        Object.defineProperty(list, i, { get: () => { reads++; return el; }, enumerable: true, configurable: true });
      }
      const h = hasher.hash(state);
      expect(reads, `step ${step}`).toBe(step === 1 ? reads : 0); // the loaded list's first copy is walked whole
      expect(h).toBe(referenceStateHash(state));
    }
  });
});
