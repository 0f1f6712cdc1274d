import { describe, expect, it } from 'vitest';
import type { World } from '../../src/domain/world.js';
import { loadWorld } from '../../src/store/index.js';
import type { Anchor } from '../../src/domain/anchors.js';
import { addDays, compareDates, formatDate } from '../../src/core/roman-date.js';
import { coolingDeltas } from '../../src/core/cooling.js';
import { liveAnchors } from '../../src/stages/c-director/anchors.js';
import { applyDeltas } from '../../src/core/deltas/index.js';
import { tension } from '../../src/core/metrics.js';
import { COOLDOWN_EPISODES, moveKey, recentMovesOf } from '../../src/stages/c-director/memory.js';
import { threadsAdvancedBy } from '../../src/stages/b-proposals/bdi.js';
import { hasStarter, REPO } from '../stages/planning/helpers.js';
import { starterSeasons, type SimEpisode } from '../stages/planning/season-sim.js';

/**
 * A 12-episode season on 3 seeds, planned and committed without prose (season-sim.ts), read the
 * way a showrunner reads it: does it repeat itself, does the world keep where people are.
 * (docs/planning.md, "Season model".)
 */
const EPISODES = 12;
const SEEDS = ['alpha', 'beta', 'gamma'];

/** Tension (spec §10.1) after each scene of a committed episode, replayed scene by scene. */
function sceneTensions(ep: SimEpisode): { act: number; t: number }[] {
  let w: World = ep.before;
  const out: { act: number; t: number }[] = [];
  for (const sc of ep.plan.scenes) {
    const deltas = ep.plan.beats.filter((b) => b.scene === sc.id).flatMap((b) => b.applications.flatMap((a) => a.required_deltas));
    const r = applyDeltas(w, deltas, () => ({ episode: ep.plan.episode_id, scene: sc.id, event: 'plan', operator: null }));
    if (r.ok) w = r.world;
    out.push({ act: sc.act, t: tension(w) });
  }
  return out;
}

const anchors = async (): Promise<Anchor[]> => (await loadWorld(REPO)).anchors ?? [];

/** Mean tension of each act's scenes, and the episode's peak. */
function arcOf(ep: SimEpisode): { acts: number[]; peak: number } {
  const ts = sceneTensions(ep);
  const acts = [1, 2, 3, 4].map((a) => { const xs = ts.filter((x) => x.act === a).map((x) => x.t); return xs.reduce((n, x) => n + x, 0) / Math.max(1, xs.length); });
  return { acts, peak: Math.max(...ts.map((x) => x.t)) };
}

describe.runIf(hasStarter)('a 12-episode season read as drama', () => {
  const season = starterSeasons(EPISODES, { anchors: true });

  for (const seed of SEEDS) {
    it(`never replays the same (operator, actor, target) within ${COOLDOWN_EPISODES} episodes (seed ${seed})`, async () => {
      const eps = await season(seed);
      const last = new Map<string, number>();
      const repeats: string[] = [];
      for (const m of recentMovesOf(eps.map((e) => e.plan))) {
        const k = moveKey(m);
        const prev = last.get(k);
        if (prev !== undefined && prev !== m.episode && m.episode - prev <= COOLDOWN_EPISODES) repeats.push(`${k} in e${prev} and e${m.episode}`);
        last.set(k, m.episode);
      }
      expect(repeats).toEqual([]);
    }, 120_000);

    it(`starts every episode where the last one left everyone (seed ${seed})`, async () => {
      const eps = await season(seed);
      for (let i = 1; i < eps.length; i++) {
        const before = eps[i]!.before;
        const after = eps[i - 1]!.after;
        for (const c of before.characters.characters) {
          expect(c.location, `${c.id} at the start of e${i + 1}`).toBe(after.characters.characters.find((x) => x.id === c.id)!.location);
        }
        // Whoever moves in the first scene travels from there, and the journey takes its days.
        for (const m of eps[i]!.plan.scenes[0]!.movements ?? []) {
          expect(m.from).toBe(after.characters.characters.find((x) => x.id === m.character)!.location);
        }
      }
    }, 120_000);
  }

  for (const seed of SEEDS) {
    it(`never replays a story after its thread is resolved (seed ${seed})`, async () => {
      const eps = await season(seed);
      const replays: string[] = [];
      for (const e of eps) {
        for (const a of e.plan.beats.flatMap((b) => b.applications)) {
          const op = e.before.operators.operators.find((o) => o.id === a.operator_id)!;
          const threads = threadsAdvancedBy(e.before, op, a.bindings);
          if (threads.length && threads.every((t) => e.before.threads.threads.find((x) => x.id === t)!.status === 'resolved')) replays.push(`e${e.episode} ${a.operator_id} (${threads.join(', ')})`);
        }
      }
      expect(replays).toEqual([]);
      // And something did resolve in 12 episodes, so the check above has something to bite on.
      expect(eps[eps.length - 1]!.after.threads.threads.some((t) => t.status === 'resolved')).toBe(true);
    }, 120_000);

    it(`lets at least one character die or go into exile, with the cascade (seed ${seed})`, async () => {
      const eps = await season(seed);
      const end = eps[eps.length - 1]!.after;
      const fallen = end.characters.characters.filter((c) => c.status === 'dead' || c.status === 'exiled');
      expect(fallen.length).toBeGreaterThanOrEqual(1);
      for (const c of fallen) {
        expect(c.bdi.intentions, `${c.id} (${c.status}) still intends`).toEqual([]);
        if (c.status === 'dead') expect(end.secrets.secrets.filter((s) => s.holders.includes(c.id)).map((s) => s.id)).toEqual([]);
        // Nobody fallen acts after the fall.
        const fellIn = eps.findIndex((e) => e.after.characters.characters.find((x) => x.id === c.id)!.status !== 'alive');
        for (const e of eps.slice(fellIn + 1)) {
          expect(e.plan.beats.flatMap((b) => b.applications).filter((a) => a.bindings.actor === c.id)).toEqual([]);
        }
      }
      // The irreversible comes late: in the season's last third.
      const first = eps.findIndex((e) => e.after.characters.characters.some((c) => c.status === 'dead' || c.status === 'exiled'));
      expect(first + 1).toBeGreaterThanOrEqual(Math.ceil(EPISODES / 2));
    }, 120_000);
  }

  for (const seed of SEEDS) {
    it(`keeps the calendar of 63 BC: no anchored move before its date, none passed unplayed (seed ${seed})`, async () => {
      const eps = await season(seed);
      const live = liveAnchors(await anchors());
      const early: string[] = [];
      const playedIn = new Map<string, number>();
      for (const ep of eps) {
        const opening = ep.before.world.date;
        for (const b of ep.plan.beats) for (const a of b.applications) {
          const day = ep.plan.scenes.find((s) => s.id === b.scene)!.day;
          for (const an of live.filter((x) => x.operators.includes(a.operator_id))) {
            if (!playedIn.has(an.id)) playedIn.set(an.id, ep.episode);
            if (an.mode === 'not_before' && compareDates(addDays(opening, day), an.date) < 0) early.push(`e${ep.episode} ${a.operator_id} on ${formatDate(addDays(opening, day))}, before ${an.id}`);
          }
        }
      }
      expect(early).toEqual([]);
      // The season reaches every anchor's date (the calendar hurries at act breaks when it must) and plays it.
      const end = eps[eps.length - 1]!.after.world.date;
      for (const an of live) {
        expect(compareDates(end, an.date), `${an.id}: the season ends on ${formatDate(end)}`).toBeGreaterThanOrEqual(0);
        expect(playedIn.get(an.id), `${an.id} never played`).toBeDefined();
        // A `by` anchor is played no later than the first episode that opens on or after its date.
        if (an.mode === 'by') {
          const dueIn = eps.find((e) => compareDates(e.before.world.date, an.date) >= 0)?.episode ?? Infinity;
          expect(playedIn.get(an.id)!, an.id).toBeLessThanOrEqual(dueIn);
        }
      }
    }, 120_000);
  }

  it('builds: the last act at least 1.5 points of tension above the first in 80% of episodes; the season peaks in its last third', async () => {
    let rising = 0;
    let total = 0;
    const peaks: string[] = [];
    for (const seed of SEEDS) {
      const eps = await season(seed);
      const arcs = eps.map(arcOf);
      for (const a of arcs) if (a.acts[3]! - a.acts[0]! >= 1.5) rising++;
      total += arcs.length;
      const top = arcs.reduce((m, a, i) => (a.peak > arcs[m]!.peak ? i : m), 0) + 1;
      peaks.push(`${seed}: e${top}`);
      // The season's highest tension falls in its last third.
      expect(top, `${seed} peaks in e${top}`).toBeGreaterThan((2 * EPISODES) / 3);
    }
    console.log(`rising ${rising}/${total}; peaks ${peaks.join(', ')}`);
    expect(rising / total).toBeGreaterThanOrEqual(0.8);
  }, 120_000);
});

describe('the world cools between episodes (core/cooling.ts)', () => {
  const world = (value: number, extra: object = { rest: 3, half_life_days: 5 }) => ({ world: { global: { scandal_temp: { label: 'x', min: 0, max: 10, value, ...extra }, grain_index: { label: 'g', min: 0, max: 10, value: 9 } } } }) as unknown as World;
  it('relaxes a metric toward its rest by half its distance per half-life; others stay', () => {
    expect(coolingDeltas(world(7), 5)).toEqual([{ path: 'world.global.scandal_temp', op: 'set', value: 5 }]);
    expect(coolingDeltas(world(7), 10)).toEqual([{ path: 'world.global.scandal_temp', op: 'set', value: 4 }]);
    expect(coolingDeltas(world(1), 5)).toEqual([{ path: 'world.global.scandal_temp', op: 'set', value: 2 }]);
    expect(coolingDeltas(world(7), 0)).toEqual([]);
    expect(coolingDeltas(world(3), 30)).toEqual([]);
    expect(coolingDeltas(world(7, {}), 30)).toEqual([]);
  });
});
