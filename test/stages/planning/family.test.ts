import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Operator, World } from '../../../src/domain/world.js';
import { bdiScore, bindingKey, enumerateBindings, roleOrder, threadsAdvancedByOp, threadWrites } from '../../../src/stages/b-proposals/bdi.js';
import { familyKey, familyScorer, keepBest } from '../../../src/stages/b-proposals/family.js';
import { loadScenario, scenarios } from './helpers.js';

/**
 * The pool keeps each (actor, operator) family's best bindings by bdiScore and key, and scores only
 * the ones that make the cut (family.ts). These compare that with scoring every binding in full, on
 * the planning-base world with random desires, intentions, thread stakeholders, tags, statuses and
 * thread writes (ties are made common: few weights, few tags).
 */
const base = await loadScenario(scenarios().find((s) => s.name === 'planning-base')!);

const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length]!;

const shape = fc.record({
  actor: fc.nat(),
  op: fc.nat(),
  desires: fc.array(fc.record({ kind: fc.nat(), weight: fc.constantFrom(0, 0.25, 0.5, 0.6, 0.9, 1), target: fc.option(fc.nat(), { nil: undefined }) }), { maxLength: 5 }),
  intentions: fc.subarray(['CORNER_GRAIN', 'RUMOR_MILL', 'WIN_ELECTION', 'PROTECT_FAMILY', 'XYZZY']),
  threads: fc.array(fc.record({ stake: fc.subarray([0, 1, 2, 3, 4, 5, 6, 7]), tags: fc.nat(), open: fc.boolean() }), { minLength: 6, maxLength: 6 }),
  opTags: fc.nat(),
  threadRole: fc.boolean(),
  fixedWrite: fc.option(fc.nat(), { nil: undefined }),
  n: fc.constantFrom(1, 2, 4, 16),
  shuffle: fc.nat(),
});

/** The bindings in another order (the pool's are not always in key order). */
function shuffled<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  let r = seed + 1;
  for (let i = out.length - 1; i > 0; i--) {
    r = (r * 1103515245 + 12345) % 2147483648;
    const j = r % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

type Shape = typeof shape extends fc.Arbitrary<infer T> ? T : never;

function perturb(s: Shape): { world: World; actorId: string; opIndex: number } {
  const world = structuredClone(base.world);
  const chars = world.characters.characters;
  const ids = [...chars.map((c) => c.id), ...world.threads.threads.map((t) => t.id), ...world.secrets.secrets.map((x) => x.id)];
  const tagSets = [[], ['grain'], ['trial', 'court'], ['election', 'rumor', 'marriage'], ['money', 'debt']];
  const kinds = ['power', 'wealth', 'revenge', 'justice', 'love', 'security', 'reputation'];
  const actor = pick(chars, s.actor);
  actor.status = 'alive';
  actor.bdi.desires = s.desires.map((d) => ({ kind: pick(kinds, d.kind), weight: d.weight, text: 'x', ...(d.target === undefined ? {} : { target: pick(ids, d.target) }) })) as typeof actor.bdi.desires;
  actor.bdi.intentions = s.intentions;
  world.threads.threads.forEach((t, i) => {
    const r = s.threads[i]!;
    t.stakeholders = r.stake.map((k) => pick(chars, k).id);
    t.tags = pick(tagSets, r.tags);
    t.status = r.open ? 'open' : 'resolved';
  });
  const opIndex = s.op % world.operators.operators.length;
  const op = world.operators.operators[opIndex]!;
  op.thread_tags = pick(tagSets, s.opTags);
  if (s.threadRole) {
    op.roles.thread = { kind: 'thread', description: 'the thread' } as (typeof op.roles)[string];
    op.effects.push({ path: 'thread.progress', op: 'add', value: 0.1 } as (typeof op.effects)[number]);
  }
  if (s.fixedWrite !== undefined) op.effects.push({ path: `threads.${pick(world.threads.threads, s.fixedWrite).id}.progress`, op: 'add', value: 0.1 } as (typeof op.effects)[number]);
  return { world, actorId: actor.id, opIndex };
}

const byScoreThenKey = (x: { score: number; key: string }, y: { score: number; key: string }) => y.score - x.score || (x.key < y.key ? -1 : 1);

describe('the pool\'s family cut (b-proposals/family.ts)', () => {
  it('computes bdiScore\'s score of every binding exactly', () => {
    fc.assert(fc.property(shape, (s) => {
      const { world, actorId, opIndex } = perturb(s);
      const op = world.operators.operators[opIndex]!;
      const actor = world.characters.characters.find((c) => c.id === actorId)!;
      const scoreOf = familyScorer(world, actor, op, roleOrder(op))!;
      expect(scoreOf).not.toBeNull();
      for (const b of enumerateBindings(world, op, actorId)) expect(scoreOf(b), bindingKey(op.id, b)).toBe(bdiScore(world, actor, op, b).score);
    }), { numRuns: 200 });
  });

  it('keeps exactly the bindings that scoring all of them in full keeps', () => {
    fc.assert(fc.property(shape, (s) => {
      const { world, actorId, opIndex } = perturb(s);
      const op = world.operators.operators[opIndex]!;
      const actor = world.characters.characters.find((c) => c.id === actorId)!;
      const all = shuffled(enumerateBindings(world, op, actorId), s.shuffle);
      const full = (xs: Record<string, string>[]) =>
        xs.map((b) => ({ score: bdiScore(world, actor, op, b).score, key: bindingKey(op.id, b) })).sort(byScoreThenKey).slice(0, s.n).map((x) => x.key);
      const keyOf = familyKey(op.id, roleOrder(op));
      for (const b of all) expect(keyOf(b)).toBe(bindingKey(op.id, b));
      const kept = keepBest(all, s.n, keyOf, familyScorer(world, actor, op, roleOrder(op))!);
      expect(kept.length).toBe(Math.min(s.n, all.length));
      expect(full(kept)).toEqual(full(all));
    }), { numRuns: 300 });
  });

  it('gives each binding the threads the definition gives it (a scan of every thread), from lookups made once per operator', () => {
    // The definition, read off the world directly: an open thread whose tags meet the operator's and
    // whose stakeholders are none or include a bound id; or an open thread the operator writes
    // (by id, or through a thread role), the first thread of that id deciding.
    const scan = (world: World, op: Operator, b: Record<string, string>): string[] => {
      const threads = world.threads.threads;
      const bound = new Set(Object.values(b));
      const out = new Set<string>();
      for (const t of threads) {
        const tagged = op.thread_tags.some((x) => t.tags.includes(x));
        if (t.status === 'open' && tagged && (t.stakeholders.length === 0 || t.stakeholders.some((s) => bound.has(s)))) out.add(t.id);
      }
      for (const w of threadWrites(op)) {
        const id = w.id ?? (w.role !== undefined ? b[w.role] : undefined);
        const t = id ? threads.find((x) => x.id === id) : undefined;
        if (t && t.status === 'open') out.add(t.id);
      }
      return [...out].sort();
    };
    fc.assert(fc.property(shape, (s) => {
      const { world, actorId, opIndex } = perturb(s);
      const op = world.operators.operators[opIndex]!;
      const threadsOf = threadsAdvancedByOp(world, op);
      for (const b of enumerateBindings(world, op, actorId)) {
        expect(threadsOf(b), bindingKey(op.id, b)).toEqual(scan(world, op, b));
        // The pool binds a thread role to open threads only; a proposal's bindings (an LLM's) may
        // name any thread, a resolved one too, which the operator's write must not count.
        if (op.roles.thread) for (const t of world.threads.threads) expect(threadsOf({ ...b, thread: t.id }), t.id).toEqual(scan(world, op, { ...b, thread: t.id }));
      }
    }), { numRuns: 200 });
  });

  it('leaves a world with two threads of one id to the full scoring', () => {
    const world = structuredClone(base.world);
    world.threads.threads.push({ ...world.threads.threads[0]!, stakeholders: [] });
    const op = world.operators.operators[0]!;
    expect(familyScorer(world, world.characters.characters[0]!, op, roleOrder(op))).toBeNull();
  });
});
