import { describe, expect, it } from 'vitest';
import { episodeRules } from '../../../src/stages/f-verifier/rules/episode.js';
import { starterEpisode } from './starter.js';

describe('episode-level soft gates', () => {
  it('passes a planned episode whose scenes were all approved', async () => {
    const { plan, world } = await starterEpisode('7');
    expect(episodeRules(plan, world, new Set(plan.scenes.map((s) => s.id)))).toEqual([]);
  });

  it('reports a mandatory beat whose scene was not approved', async () => {
    const { plan, world } = await starterEpisode('7');
    const cliff = plan.beats.find((b) => b.tag === 'cliffhanger')!;
    const approved = new Set(plan.scenes.map((s) => s.id).filter((id) => id !== cliff.scene));
    const fs = episodeRules(plan, world, approved).filter((f) => f.code === 'AUR5070');
    expect(fs.map((f) => [f.severity, f.message])).toEqual([['soft', 'the episode has no approved cliffhanger beat']]);
  });

  it('reports an overdue thread that no approved scene advanced', async () => {
    const { plan, world } = await starterEpisode('7');
    const advanced = new Set(plan.beats.flatMap((b) => b.applications.flatMap((a) => a.threads_advanced)));
    const idle = world.threads.threads.find((t) => t.status === 'open' && !advanced.has(t.id));
    const target = idle ?? world.threads.threads[0];
    // Pretend the thread last moved long ago (in a copy of the world).
    const w2 = { ...world, threads: { ...world.threads, threads: world.threads.threads.map((t) => (t.id === target.id ? { ...t, status: 'open' as const, last_progress_episode: -10, cadence: 2 } : t)) } };
    const approved = idle ? new Set(plan.scenes.map((s) => s.id)) : new Set<string>();
    const fs = episodeRules({ ...plan, episode: 1 }, w2, approved).filter((f) => f.code === 'AUR5071');
    expect(fs.map((f) => f.message)).toEqual([`thread ${target.id} has not progressed for 10 episode(s) (cadence 2)`]);
    expect(fs[0].fix).toBe(`Advance ${target.id} this episode.`);
  });
});
