import { describe, expect, it } from 'vitest';
import type { World } from '../../../src/domain/world.js';
import { loadWorldOrThrow } from '../../../src/store/index.js';
import { threadPace, threadTargetEpisode } from '../../../src/core/threads.js';
import { hasStarter, REPO } from './helpers.js';
import { simulateSeason, starterSeasons } from './season-sim.js';

/**
 * A season from the starter kit, planned episode after episode with the pure stages (A–C) and
 * committed the way stage H commits it. Thread progress is paced to season_goals.json
 * (docs/planning.md, "Thread pacing").
 */
// Twice the season's episodes_planned (10): the finale threads resolve around episode 10-12, the
// subplots are paced to episode 20, so at least two threads are still open to advance at the end.
const EPISODES = 20;
const SEEDS = ['alpha', 'beta', 'gamma'];

const ledgerTotal = (w: World) => w.assets.cash_ledger.reduce((n, a) => n + a.denarii, 0);

describe.runIf(hasStarter)('a season from the starter kit', () => {
  const season = starterSeasons(EPISODES);

  for (const seed of SEEDS) {
    it(`plans ${EPISODES} consecutive episodes (seed ${seed}), every check passing, threads paced`, async () => {
      const eps = await season(seed);
      expect(eps).toHaveLength(EPISODES);
      for (const ep of eps) {
        const failed = ep.plan.acceptance_checks.filter((c) => !c.passed).map((c) => `${c.id}: ${c.detail}`);
        expect(failed, `${ep.plan.episode_id}`).toEqual([]);
        expect(ep.plan.threads_advanced.length, ep.plan.episode_id).toBeGreaterThanOrEqual(2);
        // No thread resolved before episode 4.
        const resolved = ep.after.threads.threads.filter((t) => t.status === 'resolved' && ep.before.threads.threads.find((b) => b.id === t.id)?.status === 'open');
        if (ep.episode < 4) expect(resolved.map((t) => t.id), ep.plan.episode_id).toEqual([]);
        // At most one major thread resolved per episode.
        expect(resolved.filter((t) => t.major).length, ep.plan.episode_id).toBeLessThanOrEqual(1);
        // Each thread gains no more than its pace allows (one operator effect may overshoot it once).
        for (const b of ep.before.threads.threads.filter((t) => t.status === 'open')) {
          const a = ep.after.threads.threads.find((t) => t.id === b.id)!;
          const pace = threadPace(b, ep.episode, { episodes_planned: 10, finale_threads: ['thr_conspiracy', 'thr_consular_election', 'thr_murena_trial'] });
          expect(a.progress - b.progress, `${ep.plan.episode_id} ${b.id}`).toBeLessThanOrEqual(Math.max(pace.budget, 0.1) + 1e-6);
          if (!pace.may_resolve) expect(a.status, `${ep.plan.episode_id} ${b.id}`).toBe('open');
          // A thread that may resolve is never left hanging a hair short of 1.
          const majorResolved = resolved.some((t) => t.major && t.id !== b.id);
          if (pace.may_resolve && ep.plan.threads_advanced.includes(b.id) && a.progress >= 0.999 && !(b.major && majorResolved)) expect(a.status, `${ep.plan.episode_id} ${b.id}`).toBe('resolved');
        }
        // The ledger total changes only by explicit mint/burn deltas (transfers conserve it).
        const minted = ep.applied
          .filter((d) => /^assets\.cash_ledger\.[a-z0-9_]+$/.test(d.path) && typeof d.before === 'number' && typeof d.after === 'number')
          .reduce((n, d) => n + (d.after as number) - (d.before as number), 0);
        expect(ledgerTotal(ep.after) - ledgerTotal(ep.before), ep.plan.episode_id).toBe(minted);
      }
    }, 120_000);
  }

  it('keeps the first episode from rushing threads (no thread gains more than one step)', async () => {
    const [first] = await season(SEEDS[0]!);
    for (const b of first!.before.threads.threads) {
      const a = first!.after.threads.threads.find((t) => t.id === b.id)!;
      expect(a.progress - b.progress, b.id).toBeLessThanOrEqual(0.1 + 1e-9);
      expect(a.status).toBe('open');
    }
  }, 120_000);

  it('is deterministic: the same seed gives byte-identical plans', async () => {
    const { world, seasonGoals } = await loadWorldOrThrow(REPO);
    const again = simulateSeason(world, SEEDS[0]!, 3, seasonGoals[0]?.goals);
    const eps = await season(SEEDS[0]!);
    for (let i = 0; i < 3; i++) expect(JSON.stringify(again[i]!.plan)).toBe(JSON.stringify(eps[i]!.plan));
  }, 120_000);
});

describe('thread pacing (core/threads.ts)', () => {
  const thread = (id: string, progress: number, major = false) => ({ id, progress, major, status: 'open' as const }) as unknown as World['threads']['threads'][number];
  const goals = { episodes_planned: 10, finale_threads: ['thr_a'] };

  it('finale threads aim at the finale, the others at twice the season, never before episode 4', () => {
    expect(threadTargetEpisode(thread('thr_a', 0), goals)).toBe(10);
    expect(threadTargetEpisode(thread('thr_b', 0), goals)).toBe(20);
    expect(threadTargetEpisode(thread('thr_a', 0), { episodes_planned: 2, finale_threads: ['thr_a'] })).toBe(4);
    // Without season goals the major threads are the finale's.
    expect(threadTargetEpisode(thread('thr_m', 0, true), null)).toBe(10);
  });

  it('spreads the remaining distance over the episodes left and resolves only from the target on', () => {
    expect(threadPace(thread('thr_a', 0.1), 1, goals)).toMatchObject({ target_episode: 10, may_resolve: false });
    expect(threadPace(thread('thr_a', 0.1), 1, goals).budget).toBeCloseTo(0.09, 3);
    expect(threadPace(thread('thr_a', 0.91), 9, goals).budget).toBeCloseTo(0.045, 3);
    expect(threadPace(thread('thr_a', 0.91), 9, goals).may_resolve).toBe(false);
    expect(threadPace(thread('thr_a', 0.955), 10, goals).may_resolve).toBe(true);
    expect(threadPace(thread('thr_a', 0.955), 10, goals).budget).toBeCloseTo(0.045, 9);
    // Before the target the budget never closes the gap.
    for (let e = 1; e < 10; e++) expect(threadPace(thread('thr_a', 0.5), e, goals).budget).toBeLessThan(0.5);
  });
});
