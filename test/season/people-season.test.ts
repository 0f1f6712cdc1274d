import { describe, expect, it } from 'vitest';
import { loadWorldOrThrow } from '../../src/store/load.js';
import { planEpisode, readSeasonGoals } from '../../src/stages/planning.js';
import { readAnchors } from '../../src/stages/anchors-io.js';
import { writeEpisodeScenes } from '../../src/stages/scenes.js';
import { stageH } from '../../src/stages/h-commit/index.js';
import { loadStyle } from '../../src/style/index.js';
import { episodeRef } from '../../src/domain/context.js';
import { packageRoot } from '../../src/paths.js';
import { parseScriptMarkdown } from '../../src/season/script-model.js';
import { checkPeople, type PeopleCheckInput } from '../../src/season/script-people.js';
import type { CliffhangerConstraints } from '../../src/domain/context.js';
import { offlineLlm } from '../stages/write-verify/starter.js';
import { peopleWorld } from '../support/people-world.js';

/**
 * Issue 17, item 6: a 12-episode offline season of the starter world, planned (stages A–D) and
 * written (E–G) episode after episode with the world each one commits (H, in memory: no git, to fit
 * the time a test may take), read against the world by the people check.
 */
const EPISODES = 12;
const SEEDS = (process.env.I17B_SEEDS ?? 'alpha,beta,gamma').split(',');

async function season(seed: string) {
  const root = packageRoot();
  let { world } = await loadWorldOrThrow(root);
  const st = await loadStyle(root);
  const style = { guide: st.guide, lexicon: st.lexicon, lexicon_md: st.lexiconMarkdown };
  const seasonGoals = await readSeasonGoals(root, 1);
  const anchors = await readAnchors(root, world);
  const llm = offlineLlm(seed, 0, 4);
  let previousCliffhanger: CliffhangerConstraints | null = null;
  const episodes: PeopleCheckInput[] = [];
  const findings: unknown[] = [];
  const start = world;
  // Each secret a packet carries that an earlier episode told (told_in), and whether the packet marks it told.
  const carried: { episode: string; id: string; told_in: string; told: boolean }[] = [];
  const played = new Set<string>();
  for (let e = 1; e <= EPISODES; e++) {
    const ref = episodeRef(1, e);
    // As `episode run` does (readPlayedOperators): an anchor played in an earlier episode is not due again.
    const planning = await planEpisode({ world, ref, seed, previousCliffhanger, llm, seasonGoals, anchors, playedOperators: played, packets: { tokenBudget: 6000 } });
    for (const b of planning.plan.beats) for (const a of b.applications) played.add(a.operator_id);
    const efg = await writeEpisodeScenes({ llm, plan: planning.plan, packets: planning.packets, world, style, budgets: { per_scene: 2, per_episode: 12 }, concurrency: 4, seed });
    const toldIn = new Map(world.secrets.secrets.flatMap((s) => (s.told_in ? [[s.id, s.told_in] as const] : [])));
    for (const pk of planning.packets) for (const s of pk.retrieved_subgraph.secrets) if (toldIn.has(s.id)) carried.push({ episode: ref.id, id: s.id, told_in: toldIn.get(s.id)!, told: !!s.told });
    findings.push(...efg.report.episode_findings, ...efg.report.scenes.flatMap((s) => s.attempts.flatMap((a) => a.findings)));
    const h = stageH({ ref, seed, world, context: planning.context, proposals: planning.proposals, plan: planning.plan, packets: planning.packets, scenes: efg.scenes, report: efg.report });
    episodes.push({ episode: ref.id, doc: parseScriptMarkdown(h.script) });
    world = h.world;
    previousCliffhanger = h.cliffhanger;
  }
  return { start, end: world, episodes, findings, carried };
}

describe('an offline season reads right against the world (people, places, secrets)', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: ${EPISODES} episodes, no pronoun, address, recycled-line, secret or place error in an episode or across the season; drafts verify clean`, async () => {
      const { start, end, episodes, findings, carried } = await season(seed);
      expect(episodes.flatMap((e) => e.doc.scenes).length).toBeGreaterThan(EPISODES * 15);
      expect(findings).toEqual([]);
      expect(checkPeople(episodes, peopleWorld(start))).toEqual([]);
      // Across the whole season too: no stock line in a second mouth, no secret quoted in a second episode.
      expect(checkPeople(episodes, peopleWorld(start), { scope: 'season' })).toEqual([]);
      // The world records the episode that first told each secret, and later episodes' packets refer to it.
      expect(end.secrets.secrets.filter((s) => s.told_in).length).toBeGreaterThan(0);
      expect(carried.length).toBeGreaterThan(0);
      for (const c of carried) expect({ ...c, earlier: c.told_in < c.episode }).toEqual({ ...c, told: true, earlier: true });
    }, 120_000);
  }
});
