import { MANDATORY_BEATS, type EpisodePlan } from '../../../domain/plan.js';
import type { Finding } from '../../../domain/scene.js';
import type { World } from '../../../domain/world.js';
import { finding } from '../context.js';
import { episodesSinceProgress } from '../../a-snapshot/index.js';

/**
 * Episode-level soft gates (spec §9.2): every mandatory beat type is depicted by an approved scene,
 * and no open thread goes past its cadence without progress this episode.
 */
export function episodeRules(plan: EpisodePlan, world: World, approvedScenes: Set<string>): Finding[] {
  const out: Finding[] = [];
  for (const tag of MANDATORY_BEATS) {
    const ok = plan.beats.some((b) => b.tag === tag && approvedScenes.has(b.scene));
    if (!ok) out.push(finding('AUR5070', 'soft', plan.episode_id, 'episode.mandatory_beat', { beat: tag }));
  }
  const advanced = new Set<string>();
  for (const b of plan.beats) {
    if (!approvedScenes.has(b.scene)) continue;
    for (const a of b.applications) for (const t of a.threads_advanced) advanced.add(t);
  }
  for (const t of world.threads.threads) {
    if (t.status !== 'open') continue;
    // Overdue going into the episode (stage A's definition, spec §10.3) and still not advanced.
    const since = episodesSinceProgress(t, plan.episode);
    if (since > t.cadence && !advanced.has(t.id)) {
      out.push(finding('AUR5071', 'soft', plan.episode_id, 'episode.thread_cadence', { thread: t.id, since, cadence: t.cadence }));
    }
  }
  return out;
}
