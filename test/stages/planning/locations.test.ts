import { describe, expect, it } from 'vitest';
import { hasStarter, planScenario, STARTER } from './helpers.js';

/**
 * Location variety (docs/planning.md, "Scenes, time and travel"): the Director spreads an episode
 * over the city. A place holds at most LOCATION_SOFT_CAP (4) scenes unless a move allows nowhere
 * else; on the starter world (11 places, 1–4 per setting) no place needs more than that.
 */
const MAX_SCENES_PER_LOCATION = 4;
const MIN_DISTINCT_LOCATIONS = 7;

describe.runIf(hasStarter)('scene locations on the starter world', () => {
  for (const seed of ['alpha', 'beta', 'gamma', 'delta', 'epsilon']) {
    it(`spreads the episode over the city (seed ${seed})`, async () => {
      const { plan } = await planScenario(STARTER, seed);
      const uses = new Map<string, number>();
      for (const s of plan.scenes) uses.set(s.location, (uses.get(s.location) ?? 0) + 1);
      const summary = JSON.stringify(Object.fromEntries(uses));
      expect(Math.max(...uses.values()), summary).toBeLessThanOrEqual(MAX_SCENES_PER_LOCATION);
      expect(uses.size, summary).toBeGreaterThanOrEqual(MIN_DISTINCT_LOCATIONS);
      expect(plan.acceptance_checks.filter((c) => !c.passed)).toEqual([]);
      // Deterministic: the same seed places every scene in the same place.
      const again = await planScenario(STARTER, seed);
      expect(again.plan.scenes.map((s) => s.location)).toEqual(plan.scenes.map((s) => s.location));
    });
  }
});
