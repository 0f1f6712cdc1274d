import type { World, SeasonGoals } from '../../../src/domain/world.js';
import type { CliffhangerConstraints } from '../../../src/domain/context.js';
import type { EpisodePlan } from '../../../src/domain/plan.js';
import type { Anchor } from '../../../src/domain/anchors.js';
import type { AppliedDelta, ResolvedDelta } from '../../../src/domain/delta.js';
import { episodeRef } from '../../../src/domain/context.js';
import { buildEpisodeContext } from '../../../src/stages/a-snapshot/index.js';
import { proposeSymbolic } from '../../../src/stages/b-proposals/index.js';
import { planSymbolic } from '../../../src/stages/c-director/plan.js';
import { recentMovesOf } from '../../../src/stages/c-director/memory.js';
import { applyDeltas } from '../../../src/core/deltas/index.js';
import { decayDeltas } from '../../../src/core/decay.js';
import { coolingDeltas } from '../../../src/core/cooling.js';
import { threadProgressDeltas } from '../../../src/core/threads.js';
import { extractCliffhanger } from '../../../src/stages/h-commit/cliffhanger.js';
import { addDays } from '../../../src/core/roman-date.js';
import { loadWorld, loadWorldOrThrow } from '../../../src/store/index.js';
import { REPO } from './helpers.js';

/**
 * A season compiled in-process without prose: each episode is planned (stages A–C), every scene is
 * "approved" as planned, and the world is committed the way stage H does it (the plan's
 * required_deltas scene by scene, then the decay pass, thread progress, the cooling and the calendar). It is
 * what `aureus season run` does to the world with the offline provider, minus the writing.
 */
export interface SimEpisode {
  episode: number;
  plan: EpisodePlan;
  before: World;
  after: World;
  /** Every delta committed for the episode (plan, decay, threads). */
  applied: AppliedDelta[];
  cliffhanger: CliffhangerConstraints;
}

export function commitPlan(world: World, plan: EpisodePlan): { world: World; applied: AppliedDelta[] } {
  let w = world;
  const applied: AppliedDelta[] = [];
  const apply = (deltas: ResolvedDelta[], event: string, scene: string) => {
    if (!deltas.length) return;
    const r = applyDeltas(w, deltas, () => ({ episode: plan.episode_id, scene, event, operator: null }));
    if (!r.ok) throw new Error(`${plan.episode_id} ${scene}: ${r.diagnostics.map((d) => d.message).join('; ')}`);
    w = r.world;
    applied.push(...r.applied);
  };
  for (const sc of plan.scenes) {
    const deltas = plan.beats.filter((b) => b.scene === sc.id).flatMap((b) => b.applications.flatMap((a) => a.required_deltas));
    apply(deltas, 'plan', sc.id);
  }
  const last = plan.scenes[plan.scenes.length - 1]?.id ?? '';
  apply(decayDeltas(w), 'decay', last);
  apply(threadProgressDeltas(w, plan.episode, plan.threads_advanced), 'threads', last);
  return { world: w, applied };
}

/**
 * The starter kit's season per seed, simulated once and shared by a describe block's tests
 * (a season of planning is the slow part); with `anchors`, the kit's world/anchors.json too.
 */
export function starterSeasons(episodes: number, opts: { anchors?: boolean } = {}): (seed: string) => Promise<SimEpisode[]> {
  const runs = new Map<string, SimEpisode[]>();
  return async (seed) => {
    if (!runs.has(seed)) {
      const { world, seasonGoals } = await loadWorldOrThrow(REPO);
      const anchors = opts.anchors ? (await loadWorld(REPO)).anchors ?? [] : undefined;
      runs.set(seed, simulateSeason(world, seed, episodes, seasonGoals[0]?.goals, anchors));
    }
    return runs.get(seed)!;
  };
}

/** world/anchors.json's anchors, as `episode run` passes them (with the operators the season's earlier plans played). */
export function simulateSeason(world: World, seed: string, count: number, seasonGoals?: SeasonGoals, anchors?: readonly Anchor[]): SimEpisode[] {
  const out: SimEpisode[] = [];
  let w = world;
  let cliff: CliffhangerConstraints | null = null;
  for (let e = 1; e <= count; e++) {
    const ref = episodeRef(1, e);
    const epSeed = `${seed}-${ref.id}`;
    const { context } = buildEpisodeContext({ world: w, ref, seed: epSeed, previousCliffhanger: cliff });
    const proposals = proposeSymbolic(w, context);
    let plan: EpisodePlan;
    try {
      const recentMoves = recentMovesOf(out.map((x) => x.plan));
      const playedOperators = new Set(out.flatMap((x) => x.plan.beats.flatMap((b) => b.applications.map((a) => a.operator_id))));
      plan = planSymbolic({ world: w, context, proposals, seed: epSeed, recentMoves, ...(seasonGoals ? { seasonGoals } : {}), ...(anchors ? { anchors, playedOperators } : {}) });
    } catch (err) {
      const e2 = err as Error & { diagnostics?: { message: string }[] };
      throw new Error(`${ref.id} (seed ${epSeed}): ${e2.message} ${(e2.diagnostics ?? []).map((d) => d.message).join('; ')}`);
    }
    const committed = commitPlan(w, plan);
    const cliffhanger = extractCliffhanger(plan, [], committed.world);
    const lastDay = Math.max(0, ...plan.scenes.map((s) => s.day));
    const gap = cliffhanger.time_skip_allowed ? committed.world.world.days_per_episode : 0;
    const cooled = coolingDeltas(committed.world, lastDay + gap);
    const cool = cooled.length ? applyDeltas(committed.world, cooled, () => ({ episode: plan.episode_id, scene: '', event: 'cooling', operator: null })) : null;
    if (cool && !cool.ok) throw new Error(`${plan.episode_id} cooling: ${cool.diagnostics.map((d) => d.message).join('; ')}`);
    const cw = cool?.ok ? cool.world : committed.world;
    if (cool?.ok) committed.applied.push(...cool.applied);
    const after: World = { ...cw, world: { ...cw.world, date: addDays(cw.world.date, lastDay + gap) } };
    out.push({ episode: e, plan, before: w, after, applied: committed.applied, cliffhanger });
    w = after;
    cliff = cliffhanger;
  }
  return out;
}
