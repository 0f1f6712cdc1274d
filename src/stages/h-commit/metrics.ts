import type { AppliedDelta } from '../../domain/delta.js';
import type { EpisodePlan } from '../../domain/plan.js';
import type { World } from '../../domain/world.js';
import { round } from '../../core/json.js';
import { actPacing, isMeaningful, snapshotTension } from '../c-director/metrics.js';
import type { ActMetrics, EpisodeMetrics } from './metrics-model.js';

/**
 * episode_metrics.json from what was committed (spec §10.1), with the same definitions the
 * Director plans by (stages/c-director/metrics.ts, docs/planning.md):
 *   tension     per scene: the spec formula on the world after that scene's deltas; per act: mean;
 *   pacing      per act: 10 × meaningful applied deltas / expected deltas of the act's applications;
 *   volatility  per act: narrative swings (the scene tension changes direction by ≥ 0.25) +
 *               betrayals (an applied delta lowering loyalty or trust) + reversals (beats tagged
 *               reversal, and applications whose outcome is fail), capped at 10; the episode value
 *               is the sum over acts / act_count, as the spec writes it.
 */
export interface SceneWorld {
  scene: string;
  world: World;
}

const SWING = 0.25;

export function episodeMetrics(plan: EpisodePlan, sceneWorlds: SceneWorld[], applied: AppliedDelta[]): EpisodeMetrics {
  const actOf = new Map(plan.scenes.map((s) => [s.id, s.act]));
  const curve = sceneWorlds.map((sw) => ({ scene: sw.scene, act: actOf.get(sw.scene) ?? 1, tension: snapshotTension(sw.world) }));
  const acts = [...new Set(plan.scenes.map((s) => s.act))].sort((a, b) => a - b);
  const out: ActMetrics[] = acts.map((act) => {
    const scenes = plan.scenes.filter((s) => s.act === act).map((s) => s.id);
    const inAct = new Set(scenes);
    const deltas = applied.filter((d) => inAct.has(d.provenance.scene) && d.provenance.operator !== null);
    const meaningful = deltas.filter(isMeaningful).length;
    const beats = plan.beats.filter((b) => inAct.has(b.scene));
    const apps = beats.flatMap((b) => b.applications);
    const points = curve.filter((c) => inAct.has(c.scene)).map((c) => c.tension);
    let swings = 0;
    let lastDir = 0;
    for (let i = 1; i < points.length; i++) {
      const d = points[i] - points[i - 1];
      if (Math.abs(d) < SWING) continue;
      const dir = Math.sign(d);
      if (lastDir !== 0 && dir !== lastDir) swings += 1;
      lastDir = dir;
    }
    const betrayals = deltas.filter((d) => /^relationships\.[a-z0-9_]+\.[a-z0-9_]+\.(loyalty|trust)$/.test(d.path) && typeof d.before === 'number' && typeof d.after === 'number' && d.after < d.before).length;
    const reversals = beats.filter((b) => b.tag === 'reversal').length + apps.filter((a) => a.outcome === 'fail').length;
    return {
      act,
      scenes,
      tension: points.length ? round(points.reduce((a, b) => a + b, 0) / points.length, 2) : 0,
      pacing: actPacing(meaningful, apps.length),
      volatility: round(Math.min(10, swings + betrayals + reversals), 2),
      meaningful_deltas: meaningful,
    };
  });
  const mean = (xs: number[]) => (xs.length ? round(xs.reduce((a, b) => a + b, 0) / xs.length, 2) : 0);
  return {
    format: 1,
    episode_id: plan.episode_id,
    acts: out,
    tension_curve: curve,
    episode: {
      tension: mean(curve.map((c) => c.tension)),
      pacing: mean(out.map((a) => a.pacing)),
      volatility: out.length ? round(Math.min(10, out.reduce((a, b) => a + b.volatility, 0) / out.length), 2) : 0,
      tension_end: curve.length ? curve[curve.length - 1].tension : 0,
    },
  };
}
