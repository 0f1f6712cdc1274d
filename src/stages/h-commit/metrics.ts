import type { AppliedDelta } from '../../domain/delta.js';
import type { EpisodePlan } from '../../domain/plan.js';
import type { World } from '../../domain/world.js';
import { actMetrics, deferResponses, episodeSummary, expectedDeltasPerScene, pacingResponses, sceneMetrics, tensionPlateauResponses } from '../../core/metrics.js';
import type { EpisodeMetrics } from './metrics-model.js';

/**
 * episode_metrics.json from what was committed, with the core's definitions (the same ones the
 * Director plans by): each approved scene measured between the world before and after its own
 * deltas, then per act and for the episode.
 */
export interface SceneWorld {
  scene: string;
  world: World;
}

export function episodeMetrics(plan: EpisodePlan, start: World, sceneWorlds: SceneWorld[], applied: AppliedDelta[]): EpisodeMetrics {
  const actOf = new Map(plan.scenes.map((s) => [s.id, s.act]));
  // Pacing's expectation from the episode's own world, as the Director planned by (DramaTracker).
  const options = { expectedDeltasPerScene: expectedDeltasPerScene(start) };
  let before = start;
  const scenes = sceneWorlds.map((sw) => {
    const m = sceneMetrics({
      scene: sw.scene,
      act: actOf.get(sw.scene) ?? 1,
      before,
      after: sw.world,
      applied: applied.filter((a) => a.provenance.scene === sw.scene && a.provenance.operator !== null),
      tags: plan.beats.filter((b) => b.scene === sw.scene && b.tag).map((b) => b.tag as string),
    }, options);
    before = sw.world;
    return m;
  });
  const acts = actMetrics(scenes, options);
  const end = sceneWorlds.length ? sceneWorlds[sceneWorlds.length - 1].world : start;
  return {
    format: 1,
    episode_id: plan.episode_id,
    scenes,
    acts,
    episode: episodeSummary(acts),
    tension_curve: scenes.map((s) => ({ scene: s.scene, act: s.act, tension: s.tension })),
    responses: [...pacingResponses(acts), ...tensionPlateauResponses(scenes, options), ...deferResponses(end, options)],
  };
}
