import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { MandatoryBeat } from '../../../src/domain/plan.js';
import type { World } from '../../../src/domain/world.js';
import { LIMITS } from '../../../src/stages/c-director/shape.js';
import { TypeBudget, type OpType } from '../../../src/stages/c-director/type-budget.js';
import { Attempt } from '../../../src/stages/c-director/attempt.js';
import { candidatePrereqs, liveTypesOfTags } from '../../../src/stages/c-director/candidates.js';
import { canAct } from '../../../src/stages/b-proposals/bdi.js';
import { buildEpisodeContext } from '../../../src/stages/a-snapshot/index.js';
import { proposeSymbolic } from '../../../src/stages/b-proposals/index.js';
import { episodeRef } from '../../../src/domain/context.js';
import { loadWorldOrThrow } from '../../../src/store/index.js';
import { REPO, hasStarter } from './helpers.js';

const TAGS: MandatoryBeat[] = ['reveal', 'reversal', 'confrontation'];

/** The budget's rule as it was written before the live types were asked lazily: every tag's reservation worked out first. */
function eagerAllowed(
  b: { count: Record<OpType, number>; totalSlots: number; lastType: OpType | null; placed: Set<MandatoryBeat>; tagTypes: Map<MandatoryBeat, Set<OpType>>; live: Map<MandatoryBeat, Set<OpType>> },
  t: OpType, remainingAfter: number, forTag: MandatoryBeat | null,
): boolean {
  const reserved = (ty: OpType) => [...b.tagTypes].filter(([tag, types]) => {
    if (tag === forTag || b.placed.has(tag)) return false;
    const live = b.live.get(tag);
    const eff = types.size === 1 ? types : live && live.size === 1 ? live : null;
    return !!eff && eff.has(ty);
  }).length;
  const th = b.count.thriller + (t === 'thriller' ? 1 : 0) + reserved('thriller');
  const so = b.count.soap + (t === 'soap' ? 1 : 0) + reserved('soap');
  if (!(b.totalSlots < LIMITS.thriller.max + LIMITS.soap.max)) {
    if (th > LIMITS.thriller.max || so > LIMITS.soap.max) return false;
    if (b.lastType && remainingAfter > 0 && (b.lastType === 'thriller' ? th > LIMITS.thriller.max - 1 : so > LIMITS.soap.max - 1)) return false;
    return Math.max(0, LIMITS.thriller.min - th) + Math.max(0, LIMITS.soap.min - so) <= remainingAfter;
  }
  if (remainingAfter === 0) return th >= LIMITS.thriller.min && th <= LIMITS.thriller.max && so >= LIMITS.soap.min && so <= LIMITS.soap.max;
  if (th > LIMITS.thriller.max - 1 || so > LIMITS.soap.max - 1) return false;
  return Math.max(0, LIMITS.thriller.min - th) + Math.max(0, LIMITS.soap.min - so) <= remainingAfter - 1;
}

const types = fc.subarray<OpType>(['thriller', 'soap']).map((xs) => new Set(xs));

describe('the type budget asks a tag\'s live types only when its answer depends on them (c-director/type-budget.ts)', () => {
  it('answers as the eager rule on any counts, slots, tags and live types', () => {
    fc.assert(fc.property(
      fc.record({
        thriller: fc.integer({ min: 0, max: 15 }), soap: fc.integer({ min: 0, max: 11 }), totalSlots: fc.integer({ min: 18, max: 24 }),
        lastType: fc.constantFrom<OpType | null>(null, 'thriller', 'soap'), placed: fc.subarray(TAGS), tagTypes: fc.tuple(types, types, types),
        live: fc.tuple(types, types, types), t: fc.constantFrom<OpType>('thriller', 'soap'), remainingAfter: fc.integer({ min: 0, max: 24 }),
        forTag: fc.constantFrom<MandatoryBeat | null>(null, ...TAGS),
      }),
      (x) => {
        // One operator per (tag, type): the budget reads each tag's types from the kit's operators.
        const operators = TAGS.flatMap((tag, i) => [...x.tagTypes[i]!].map((type) => ({ id: `op_${tag}_${type}`, type, beats: [tag] })));
        const placed = new Set(x.placed);
        const b = new TypeBudget({ operators: { operators } } as unknown as World, x.totalSlots, x.lastType, placed);
        b.count.thriller = x.thriller;
        b.count.soap = x.soap;
        const live = new Map(TAGS.map((tag, i) => [tag, x.live[i]!]));
        const asked: MandatoryBeat[] = [];
        b.live = (tag) => { asked.push(tag); return live.get(tag)!; };
        const want = eagerAllowed({ count: b.count, totalSlots: x.totalSlots, lastType: x.lastType, placed, tagTypes: new Map(TAGS.map((tag, i) => [tag, x.tagTypes[i]!])), live }, x.t, x.remainingAfter, x.forTag);
        expect(b.allowed(x.t, x.remainingAfter, x.forTag)).toBe(want);
        // A placed tag, the slot's own and a tag of one type (it reserves that type) are never asked.
        for (const tag of asked) expect(tag !== x.forTag && !placed.has(tag) && x.tagTypes[TAGS.indexOf(tag)]!.size !== 1).toBe(true);
      },
    ), { numRuns: 3000 });
  });

  it('does not ask early in an episode, when no reservation can change the answer', () => {
    const operators = TAGS.flatMap((tag) => (['thriller', 'soap'] as OpType[]).map((type) => ({ id: `op_${tag}_${type}`, type, beats: [tag] })));
    const b = new TypeBudget({ operators: { operators } } as unknown as World, 24, null, new Set());
    let asked = 0;
    b.live = () => { asked++; return new Set<OpType>(['thriller']); };
    expect(b.allowed('thriller', 20)).toBe(true);
    expect(b.allowed('soap', 20)).toBe(true);
    expect(asked).toBe(0);
    // Late, one thriller short of the maximum: a tag whose only live carriers are thrillers takes the last one.
    b.count.thriller = 13;
    b.count.soap = 4;
    expect(b.allowed('thriller', 3)).toBe(false);
    expect(asked).toBeGreaterThan(0);
    asked = 0;
    b.live = () => { asked++; return new Set<OpType>(['soap']); };
    expect(b.allowed('thriller', 3)).toBe(true);
    expect(asked).toBeGreaterThan(0);
  });

  it.runIf(hasStarter)('works a tag\'s live types out as defined, on the state and the keys used when the slot was ranked', async () => {
    const { world } = await loadWorldOrThrow(REPO);
    const { context } = buildEpisodeContext({ world, ref: episodeRef(1, 1), seed: 'live', previousCliffhanger: null });
    const a = new Attempt({ world, context, proposals: proposeSymbolic(world, context), seed: 'live' }, 0);
    // Half of each tag's carriers used: the answer must skip exactly those.
    for (const cands of a.tagCandidates.values()) cands.forEach((c, i) => { if (i % 2 === 0) a.usedKeys.add(c.key); });
    const used = new Set(a.usedKeys);
    const live = liveTypesOfTags(a.tagCandidates, a.proj.index, a.usedKeys, a.episode);
    // Keys used after the slot was ranked (its move placed) do not change what the next slot's budget reads.
    for (const cands of a.tagCandidates.values()) for (const c of cands) a.usedKeys.add(c.key);
    let some = 0;
    for (const [tag, cands] of a.tagCandidates) {
      const want = new Set(cands.filter((c) => !used.has(c.key) && c.chars.every((id) => canAct(a.proj.index.characters.get(id))) && candidatePrereqs(c, a.proj.index, a.episode).holds).map((c) => c.op.type));
      expect(live(tag)).toEqual(want);
      some += want.size;
    }
    expect(some).toBeGreaterThan(0);
  });
});
