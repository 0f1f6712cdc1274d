import { describe, expect, it } from 'vitest';
import { starterEpisode } from '../write-verify/starter.js';

/** The episode title (c-director titleOf): sentence case after the comma, the cue for a name. */
describe('episode title', () => {
  it('episode titles use sentence case after the comma', async () => {
    for (const seed of ['7', 'ides']) {
      const { plan, world } = await starterEpisode(seed);
      const names = new Set(world.characters.characters.flatMap((c) => [...c.name.split(' '), c.cue.charAt(0) + c.cue.slice(1).toLowerCase()]));
      for (const part of plan.title.split(', ').slice(1)) {
        const firstWord = part.split(/[\s']/)[0]!;
        if (!names.has(firstWord)) expect(part, plan.title).toMatch(/^[a-z]/);
      }
    }
  });
});
