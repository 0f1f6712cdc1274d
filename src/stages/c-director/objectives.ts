import type { EpisodeContext } from '../../domain/episode-context.js';
import type { World } from '../../domain/world.js';
import type { Rng } from '../../core/rng.js';

const words = (s: string) => new Set(s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 4));

/**
 * Spec §5.2 C "select faction objectives": each faction with an acting member picks the objective
 * that best matches the active threads its members hold a stake in (overdue threads count double).
 * The seed only breaks ties.
 */
export function chooseObjectives(world: World, context: EpisodeContext, rng: Rng): Record<string, string> {
  const out: Record<string, string> = {};
  const acting = new Set(context.acting_principals);
  for (const f of [...world.factions.factions].sort((a, b) => a.id.localeCompare(b.id))) {
    const members = world.characters.characters.filter((c) => c.faction === f.id && acting.has(c.id)).map((c) => c.id);
    if (members.length === 0 || f.objectives.length === 0) continue;
    const threads = context.active_threads.filter((t) => {
      const th = world.threads.threads.find((x) => x.id === t.id);
      return th && (th.stakeholders.length === 0 || th.stakeholders.some((s) => members.includes(s)));
    });
    const r = rng.fork(`objectives/${f.id}`);
    let best = '';
    let bestScore = -Infinity;
    for (const o of f.objectives) {
      const ow = words(o);
      let s = 0;
      for (const t of threads) {
        const th = world.threads.threads.find((x) => x.id === t.id)!;
        const tw = new Set([...words(th.question), ...th.tags.flatMap((x) => [...words(x)])]);
        const hits = [...ow].filter((w) => tw.has(w) || [...tw].some((x) => x.slice(0, 5) === w.slice(0, 5))).length;
        s += hits * (th.priority / 5) * (t.overdue ? 2 : 1);
      }
      s += r.next() * 0.1;
      if (s > bestScore) { bestScore = s; best = o; }
    }
    out[f.id] = best;
  }
  return out;
}
