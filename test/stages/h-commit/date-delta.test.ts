import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { World } from '../../../src/domain/world.js';
import type { EpisodePlan } from '../../../src/domain/plan.js';
import type { ScenePacket } from '../../../src/domain/packet.js';
import type { ApprovedScene } from '../../../src/domain/scene.js';
import { loadWorldOrThrow } from '../../../src/store/index.js';
import { dateDeltas, stageH, type StageHInput } from '../../../src/stages/h-commit/index.js';
import { addDays } from '../../../src/core/roman-date.js';
import { applyDeltas } from '../../../src/core/deltas/index.js';
import { episodeRef } from '../../../src/domain/context.js';
import { stableStringify } from '../../../src/core/json.js';

/**
 * Stage H's calendar pass is a recorded change: world.date moves through `world.date.<field>` set
 * deltas with provenance (event "date", operator null), so episode_deltas.json accounts for every
 * change of the committed world — replaying it on the input world gives the committed world.
 */
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let world: World;
beforeAll(async () => {
  world = (await loadWorldOrThrow(REPO)).world;
});

function input(days: number[], date = world.world.date): StageHInput {
  const alive = world.characters.characters.filter((x) => x.status === 'alive').map((c) => c.id);
  const ids = days.map((_, i) => `SC${String(i + 1).padStart(2, '0')}`);
  const plan = {
    format: 1, episode_id: 's01e01', season: 1, episode: 1, seed: 't', title: 'Test', state_hash: '', objectives: {},
    beats: ids.map((scene, i) => ({ id: `b${i + 1}`, act: 1, phase: 'establishment', tag: null, scene, applications: [], summary: '' })),
    scenes: ids.map((id, i) => ({ id, number: i + 1, act: 1, location: world.world.locations[0]!.id, time_of_day: 'day', day: days[i], cast: alive.slice(0, 2), beats: [], purpose: '', marquee: false })),
    threads_advanced: [], drama_responses: [], acceptance_checks: [], director: { source: 'symbolic', attempts: 1, fallback_reason: null },
  } as unknown as EpisodePlan;
  const packets = ids.map((scene_id) => ({ scene_id, cast: alive.slice(0, 2).map((id) => ({ id, status: 'alive', name: id, cue: id.toUpperCase() })), dead: [], setting: { date_text: 'a day', kind: 'street', location_name: 'Forum', time_of_day: 'day' }, director_instructions: { purpose: '', sequence: [] } })) as unknown as ScenePacket[];
  const scenes: ApprovedScene[] = ids.map((scene) => ({ scene, text: '', events: [], accepted_claims: [], downgraded_claims: [], attempts: 1, model: 'offline', simplified: false }) as ApprovedScene);
  const w = { ...world, world: { ...world.world, date } };
  return { ref: episodeRef(1, 1), seed: 't', world: w, context: {} as never, proposals: {} as never, plan, packets, scenes, report: {} as never };
}

describe('stage H: the calendar is a recorded delta', () => {
  it('dateDeltas sets each field that changes, year first', () => {
    expect(dateDeltas({ year_bc: 63, month: 12, day: 28 }, { year_bc: 62, month: 1, day: 3 })).toEqual([
      { path: 'world.date.year_bc', op: 'set', value: 62 },
      { path: 'world.date.month', op: 'set', value: 1 },
      { path: 'world.date.day', op: 'set', value: 3 },
    ]);
    expect(dateDeltas({ year_bc: 63, month: 7, day: 1 }, { year_bc: 63, month: 7, day: 9 })).toEqual([{ path: 'world.date.day', op: 'set', value: 9 }]);
    expect(dateDeltas({ year_bc: 63, month: 7, day: 1 }, { year_bc: 63, month: 7, day: 1 })).toEqual([]);
  });

  it('moves the date by deltas with provenance; replaying episode_deltas on the input world gives the committed world', () => {
    const inp = input([0, 2, 5], { year_bc: 63, month: 12, day: 20 });
    const out = stageH(inp);
    const gap = out.cliffhanger.time_skip_allowed ? world.world.days_per_episode : 0;
    expect(out.world.world.date).toEqual(addDays({ year_bc: 63, month: 12, day: 20 }, 5 + gap));
    const dates = out.applied.filter((d) => d.path.startsWith('world.date.'));
    expect(dates.length).toBeGreaterThan(0);
    for (const d of dates) expect(d.provenance).toEqual({ episode: 's01e01', scene: 'SC03', event: 'date', operator: null });
    expect(dates.map((d) => d.path)).toContain('world.date.day');
    // Every change stage H made is in the applied list (no claims here, so no new canon facts).
    const replay = applyDeltas(inp.world, out.applied, (d) => (d as (typeof out.applied)[number]).provenance);
    expect(replay.ok).toBe(true);
    if (replay.ok) expect(stableStringify(replay.world)).toBe(stableStringify(out.world));
  });

  it('records no date delta when the date does not move (cliffhanger without time skip, one-day episode)', () => {
    const out = stageH(input([0]));
    const moved = stableStringify(out.world.world.date) !== stableStringify(world.world.date);
    expect(out.applied.some((d) => d.path.startsWith('world.date.'))).toBe(moved);
  });
});
