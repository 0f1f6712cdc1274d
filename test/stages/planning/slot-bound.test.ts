import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Attempt } from '../../../src/stages/c-director/attempt.js';
import { CLIFFHANGER_RESERVE, cliffhangerReserve, type Candidate } from '../../../src/stages/c-director/candidates.js';
import { blockBound, excluded, factsOf, scoreBound, scoreOf } from '../../../src/stages/c-director/score.js';
import { runsOf } from '../../../src/stages/c-director/slot-blocks.js';
import { bestFirst } from '../../../src/stages/c-director/ranking.js';
import { episodeRef } from '../../../src/domain/context.js';
import { planEpisode } from '../../../src/stages/planning.js';
import { loadWorld, loadWorldOrThrow } from '../../../src/store/index.js';
import { REPO, hasStarter, loadScenario, scenario } from './helpers.js';
import { simulateSeason } from './season-sim.js';
import { planScene } from '../../../src/stages/c-director/scene.js';
import { canAct } from '../../../src/stages/b-proposals/bdi.js';
import { buildEpisodeContext } from '../../../src/stages/a-snapshot/index.js';
import { proposeSymbolic } from '../../../src/stages/b-proposals/index.js';
import { planSymbolic } from '../../../src/stages/c-director/plan.js';
import { recentMovesOf } from '../../../src/stages/c-director/memory.js';

/** Plans every scene of the attempt; an infeasible plan (exit 6) is fine: the rankings made on the way are what is checked. */
function planScenes(a: Attempt): void {
  try {
    for (const sc of a.shape.scenes) planScene(a, sc);
  } catch (e) {
    if ((e as { exitCode?: number }).exitCode !== 6) throw e;
  }
}

/**
 * The Director scores in full only the candidates whose upper bound (score.ts scoreBound) reaches the
 * top of a slot's ranking. Here every slot of whole plans is also ranked with every candidate scored in
 * full (rankSlot's `full`), and the two orders must be the same candidate for candidate, to the last:
 * a jitter drawn out of order changes an order somewhere in these plans. And every candidate that can
 * take a slot has its bound compared with its score (a bound below its score may not change these
 * plans' orders, but would another's).
 */
describe('the Director\'s score bounds rank a slot as full scoring does (c-director/attempt.ts rankSlot)', () => {
  const orig = Attempt.prototype.rankSlot;
  let slots = 0;
  let ranked = 0;
  let bounded = 0;
  let someoneCannot = 0;
  let reserving = 0;
  let runs = 0;
  beforeAll(() => {
    Attempt.prototype.rankSlot = function (this: Attempt, w, k, needTag, needComplication) {
      const { st, stRequired, placeFull } = this.slotScoring(w, k, needTag, needComplication);
      // everyoneActs spares the per-candidate cast lookups only when none could exclude a candidate.
      expect(st.everyoneActs).toBe(this.candidates.every((c) => c.chars.every((id) => canAct(st.index.characters.get(id)))));
      if (!st.everyoneActs) someoneCannot++;
      // The reserve, looked up with the last slot's witnesses first, is the one a scan in candidate order finds.
      const reserve = w.isLast ? new Set() : cliffhangerReserve(this.cliffCandidates, st.index, this.usedKeys, this.episode, this.attempt === 0 ? CLIFFHANGER_RESERVE : Infinity);
      expect(st.reserve).toEqual(reserve);
      if (reserve.size) reserving++;
      this.candidates.forEach((c, p) => {
        const fixed = this.fixed[p]!;
        const o = factsOf(c, st);
        const stc = fixed.required || o.due ? stRequired : st;
        if (excluded(c, stc, o)) return;
        const bound = scoreBound(c, st, o, fixed);
        const score = scoreOf(c, stc, placeFull, o);
        // (A NaN score has a NaN bound: the ranking then scores every candidate.)
        if (!(bound >= score) && !(Number.isNaN(bound) && Number.isNaN(score))) expect.fail(`slot ${this.slotSeq + 1}: ${c.key}'s bound ${bound} is below its score ${score}`);
        bounded++;
      });
      // Every (actor, operator) run's bound (slot-blocks.ts) is at least each of its moves' totals with the largest jitter.
      for (const blk of runsOf(this.candidates, this.fixed).blocks) {
        const o = factsOf(this.candidates[blk.from]!, st);
        const bound = blockBound(blk, st, o, this.jitterScale);
        if (Number.isNaN(bound) || !o.settingHere) continue;
        for (let p = blk.from; p < blk.to; p++) {
          const c = this.candidates[p]!;
          const fixed = this.fixed[p]!;
          const stc = fixed.required || o.due ? stRequired : st;
          if (excluded(c, stc, o)) continue;
          const total = scoreOf(c, stc, placeFull, o) + o.bonus + o.prep + o.arc + this.jitterScale;
          if (!(bound >= total)) expect.fail(`slot ${this.slotSeq + 1}: the run ${blk.family}'s bound ${bound} is below ${c.key}'s total ${total}`);
        }
        runs++;
      }
      const lazy = [...orig.call(this, w, k, needTag, needComplication)];
      const full = [...orig.call(this, w, k, needTag, needComplication, true)];
      expect(lazy.length).toBe(full.length);
      const firstDiff = lazy.findIndex((c, i) => c !== full[i]);
      expect(firstDiff, `slot ${this.slotSeq + 1} (attempt ${this.attempt}): ${lazy[firstDiff]?.key} ranked where full scoring has ${full[firstDiff]?.key}`).toBe(-1);
      slots++;
      ranked += lazy.length;
      return lazy;
    };
  });
  afterAll(() => { Attempt.prototype.rankSlot = orig; });

  it.runIf(hasStarter)('on a starter season with its memory and anchors (cooled moves, due operators, overdue threads)', async () => {
    const { world, seasonGoals } = await loadWorldOrThrow(REPO);
    const anchors = (await loadWorld(REPO)).anchors ?? [];
    const before = slots;
    const season = simulateSeason(world, 'bound', 6, seasonGoals[0]?.goals, anchors);
    expect(season).toHaveLength(6);
    expect(slots - before).toBeGreaterThan(6 * 20);
    expect(ranked).toBeGreaterThan(50_000);
    expect(bounded).toBeGreaterThan(50_000);
    expect(runs).toBeGreaterThan(10_000);
  }, 120_000);

  it.runIf(hasStarter)('with every thread overdue, episode 1\'s moves cooling down and its operators due (rescues, forgotten penalties)', async () => {
    const { world, seasonGoals } = await loadWorldOrThrow(REPO);
    const first = buildEpisodeContext({ world, ref: episodeRef(1, 1), seed: 'b1', previousCliffhanger: null }).context;
    const plan1 = planSymbolic({ world, context: first, proposals: proposeSymbolic(world, first), seed: 'b1' });
    const { context } = buildEpisodeContext({ world, ref: episodeRef(1, 2), seed: 'b2', previousCliffhanger: null });
    const overdue = { ...context, active_threads: context.active_threads.map((t) => ({ ...t, overdue: true })) };
    const ops = [...new Set(plan1.beats.flatMap((b) => b.applications.map((a) => a.operator_id!)))];
    // Half of episode 1's operators due now: their moves are scored without the memory that cools them.
    const anchors = [{ id: 'due_now', date: context.date, title: 'Due', operators: ops.filter((_, i) => i % 2 === 0), mode: 'by' as const }];
    const before = bounded;
    for (const seed of ['b2', 'b2-again']) {
      try {
        planSymbolic({ world, context: overdue, proposals: proposeSymbolic(world, overdue), seed, recentMoves: recentMovesOf([plan1]), anchors, playedOperators: new Set(), ...(seasonGoals[0] ? { seasonGoals: seasonGoals[0].goals } : {}) });
      } catch (e) {
        // The plan may not meet every anchor and overdue thread: the rankings made on the way are what is checked.
        if ((e as { exitCode?: number }).exitCode !== 6) throw e;
      }
    }
    expect(bounded - before).toBeGreaterThan(10_000);
  }, 120_000);

  it.runIf(hasStarter)('late in the season, when the fatal moves press (someone killed or jailed mid-episode)', async () => {
    const { world, seasonGoals } = await loadWorldOrThrow(REPO);
    const before = someoneCannot;
    for (const seed of ['late-a', 'late-b']) {
      const { context } = buildEpisodeContext({ world, ref: episodeRef(1, 11), seed, previousCliffhanger: null });
      planSymbolic({ world, context, proposals: proposeSymbolic(world, context), seed, ...(seasonGoals[0] ? { seasonGoals: seasonGoals[0].goals } : {}) });
    }
    // Slots ranked on a projection where a bound character can no longer act (everyoneActs false).
    expect(someoneCannot - before).toBeGreaterThan(10);
  }, 120_000);

  it.runIf(hasStarter)('in the re-plans (every live cliffhanger family held back; the last one relaxed and forgetful)', async () => {
    const { world, seasonGoals } = await loadWorldOrThrow(REPO);
    const first = buildEpisodeContext({ world, ref: episodeRef(1, 1), seed: 'r1', previousCliffhanger: null }).context;
    const plan1 = planSymbolic({ world, context: first, proposals: proposeSymbolic(world, first), seed: 'r1' });
    const { context } = buildEpisodeContext({ world, ref: episodeRef(1, 2), seed: 'r2', previousCliffhanger: null });
    const input = { world, context, proposals: proposeSymbolic(world, context), seed: 'r2', recentMoves: recentMovesOf([plan1]), ...(seasonGoals[0] ? { seasonGoals: seasonGoals[0].goals } : {}) };
    const before = reserving;
    for (const attempt of [1, 3]) {
      planScenes(new Attempt(input, attempt));
    }
    expect(reserving - before).toBeGreaterThan(10);
  }, 120_000);

  it.runIf(hasStarter)('with NaN scores (no order: the heap pops as when every candidate is scored)', async () => {
    const { world } = await loadWorldOrThrow(REPO);
    const { context } = buildEpisodeContext({ world, ref: episodeRef(1, 1), seed: 'nan', previousCliffhanger: null });
    const a = new Attempt({ world, context, proposals: proposeSymbolic(world, context), seed: 'nan' }, 0);
    // No world file can give a NaN score (JSON has none); a computed weight could.
    a.candidates.forEach((c, p) => { if (p % 7 === 0) { c.base = Number.NaN; a.fixed[p]!.lead = Number.NaN; } });
    const before = slots;
    planScenes(a);
    expect(slots - before).toBeGreaterThan(5);
  }, 60_000);

  it.each(['planning-base', 'planning-few-operators', 'planning-dead-principal'])('on the %s fixture, with and without steering', async (name) => {
    const s = scenario(name, name === 'planning-dead-principal' ? 2 : 1);
    const { world, cliff } = await loadScenario(s);
    const ref = episodeRef(1, s.episode);
    const before = slots;
    const plain = await planEpisode({ world, ref, seed: `bound-${name}`, previousCliffhanger: cliff });
    // Steered as a showrunner would: a placed move required (scored without the memory), its actor and thread in focus, a note.
    const app = plain.plan.beats.flatMap((b) => b.applications).find((a) => a.operator_id && a.bindings.actor)!;
    const thread = plain.plan.threads_advanced[0];
    const steering = {
      focus: thread ? [thread] : [], require: [{ op: app.operator_id!, actor: app.bindings.actor! }], avoid: [], cast: [app.bindings.actor!],
      notes: [{ id: 'n1', text: 'lean on it', ...(thread ? { thread } : {}), character: app.bindings.actor! }],
    };
    // With the plain plan's moves as last episode's: the required move cools down, yet is scored without the memory.
    const recentMoves = recentMovesOf([{ ...plain.plan, episode: s.episode - 1 }]);
    await planEpisode({ world, ref, seed: `bound-${name}-steered`, previousCliffhanger: cliff, steering, recentMoves }).catch((e: { exitCode?: number }) => {
      if (e.exitCode !== 6) throw e;
    });
    expect(slots - before).toBeGreaterThan(10);
  }, 60_000);
});

describe('bestFirst with upper bounds (c-director/ranking.ts)', () => {
  const cand = (key: string, n: number): Candidate => ({ key, n }) as unknown as Candidate;
  const sortedOrder = (cands: Candidate[], totals: number[]): Candidate[] => cands
    .map((c, i) => ({ c, t: totals[i]! }))
    .sort((a, b) => b.t - a.t || (a.c.key < b.c.key ? -1 : a.c.key > b.c.key ? 1 : 0))
    .map((x) => x.c);

  it('yields the exact totals\' order and asks only for the totals it needs', () => {
    // Bounds equal to the total (ties with the exact entries) and far above it both occur.
    const entry = fc.record({
      total: fc.constantFrom(-1.5, 0, 0.25, 0.25 + 1e-12, 3, 100), key: fc.constantFrom('a', 'b', 'b|x', 'c'), slack: fc.constantFrom(0, 0, 1e-12, 0.5, 200),
    });
    fc.assert(fc.property(fc.array(entry, { maxLength: 60 }), fc.integer({ min: 1, max: 61 }), (xs, stop) => {
      const cands = xs.map((x, i) => cand(x.key, i));
      const totals = xs.map((x) => x.total);
      const asked = new Set<number>();
      const got: Candidate[] = [];
      for (const c of bestFirst(cands, xs.map((x) => x.total + x.slack), (i) => { expect(asked.has(i)).toBe(false); asked.add(i); return totals[i]!; })) {
        got.push(c);
        if (got.length === stop) break;
      }
      const want = sortedOrder(cands, totals).slice(0, stop);
      expect(got).toHaveLength(Math.min(stop, xs.length));
      want.forEach((c, i) => expect(got[i]).toBe(c));
      // A yielded candidate's exact total was asked for.
      for (const c of got) expect(asked.has(cands.indexOf(c))).toBe(true);
    }), { numRuns: 400 });
  });

  it('leaves a candidate whose bound stays below the yielded ones unscored', () => {
    const cands = Array.from({ length: 100 }, (_, i) => cand(`k${i}`, i));
    const totals = cands.map((_, i) => i);
    let asked = 0;
    const got: Candidate[] = [];
    for (const c of bestFirst(cands, totals.map((t) => t + 0.5), (i) => { asked++; return totals[i]!; })) { got.push(c); if (got.length === 3) break; }
    expect(got).toEqual([cands[99], cands[98], cands[97]]);
    expect(asked).toBeLessThanOrEqual(4);
  });
});

describe('the cliffhanger reserve looked up with witnesses first (c-director/candidates.ts)', () => {
  it.runIf(hasStarter)('is the reserve a scan in candidate order finds, whatever the witnesses, used keys and limit', async () => {
    const { world } = await loadWorldOrThrow(REPO);
    const { context } = buildEpisodeContext({ world, ref: episodeRef(1, 1), seed: 'reserve', previousCliffhanger: null });
    const a = new Attempt({ world, context, proposals: proposeSymbolic(world, context), seed: 'reserve' }, 0);
    const cliff = a.cliffCandidates;
    const index = a.proj.index;
    let sizes = 0;
    // Every live family with nothing used, as the limit: one case at the boundary whatever fast-check draws
    // (without it, about 1 run in 7 drew none and the count below failed).
    const live = cliffhangerReserve(cliff, index, new Set(), a.episode, Infinity).size;
    fc.assert(fc.property(
      fc.shuffledSubarray(cliff), fc.subarray(cliff.map((c) => c.key)), fc.constantFrom(0, 1, 2, 3, 4, 6, Infinity),
      (witnesses, used, limit) => {
        const usedKeys = new Set(used);
        const got = cliffhangerReserve(cliff, index, usedKeys, a.episode, limit, [...witnesses]);
        expect(got).toEqual(cliffhangerReserve(cliff, index, usedKeys, a.episode, limit));
        if (got.size > 0 && got.size === limit) sizes++;
      },
    ), { numRuns: 300, examples: [[[], [], live]] });
    // Some reserves were exactly at the limit (the boundary of the early stop).
    expect(sizes).toBeGreaterThan(0);
  });
});
