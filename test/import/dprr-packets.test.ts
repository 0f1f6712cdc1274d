import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDprrWorld } from '../../src/import/dprr/index.js';
import { loadDprrTables } from '../../src/import/dprr/tables.js';
import { loadStarterKit } from '../../src/import/kit.js';
import { planEpisode, type PlanningArtifacts } from '../../src/stages/planning.js';
import { episodeRef } from '../../src/domain/context.js';
import { packetTokens } from '../../src/stages/d-packets/wire.js';
import { defaultConfig } from '../../src/config/defaults.js';

const BUDGET = defaultConfig().packets.token_budget;

/**
 * Issue 11: on the DPRR world (`aureus import dprr … --from -100 --to -44`, about 3,450 characters)
 * every packet is within the token budget as the model reads it, and its retrieved subgraph is
 * never empty: the cast's own nodes and the edges between cast members are never pruned.
 */
const REPO = path.resolve(__dirname, '../..');
let a: PlanningArtifacts;
let world: ReturnType<typeof buildDprrWorld>['world'];
beforeAll(async () => {
  const built = buildDprrWorld(await loadDprrTables(path.join(REPO, 'data/dprr')), await loadStarterKit(REPO), { from: -100, to: -44, data: path.join(REPO, 'data/dprr') });
  world = built.world;
  a = await planEpisode({ world, ref: episodeRef(1, 1), seed: 'dprr-packets', previousCliffhanger: null, seasonGoals: built.seasonGoals, packets: { tokenBudget: BUDGET } });
}, 120_000);

describe('packets on the DPRR world', () => {
  it('are all within budget with the cast and their own ties retrieved', () => {
    expect(world.characters.characters.length).toBeGreaterThan(3000);
    expect(a.packets.length).toBeGreaterThanOrEqual(18);
    for (const p of a.packets) {
      expect(p.token_budget).toBe(BUDGET);
      expect(packetTokens(p), p.scene_id).toBeLessThanOrEqual(p.token_budget);
      expect(p.token_estimate).toBe(packetTokens(p));
      const ids = new Set(p.retrieved_subgraph.characters.map((c) => c.id));
      for (const c of p.cast) expect(ids.has(c.id), `${p.scene_id} ${c.id}`).toBe(true);
      const cast = new Set(p.cast.map((c) => c.id));
      const own = world.relationships.relationships.filter((r) => cast.has(r.from) && cast.has(r.to));
      const kept = p.retrieved_subgraph.edges.filter((e) => cast.has(e.from) && cast.has(e.to));
      // Between cast members, edges change only by the episode's deltas, never disappear.
      expect(kept.length, p.scene_id).toBe(own.length);
    }
  });
});
