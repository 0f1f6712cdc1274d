import { describe, expect, it } from 'vitest';
import type { EpisodePlan } from '../../../src/domain/plan.js';
import type { World } from '../../../src/domain/world.js';
import type { Llm, LlmRequest, LlmResponse } from '../../../src/ports/llm.js';
import { offlineCritique } from '../../../src/providers/offline/critic.js';
import { DEFECT_CODES, offlineWrite, type DefectKind } from '../../../src/providers/offline/writer.js';
import type { WriterPayload } from '../../../src/stages/e-writer/types.js';
import { writeEpisodeScenes } from '../../../src/stages/scenes.js';
import { lexicon, packet } from './helpers.js';

/**
 * Issue 14: the offline writer plants its chaos defects in the narration too (a dead man acting, a
 * cast member placed in another town, a payment beyond the purse with no event), so the repair loop
 * is exercised on prose. The real offline writer plants the defect on the first draft; the real
 * verifier, repair policy and offline critic do the rest.
 */
class PlantingLlm implements Llm {
  readonly deterministic = true;
  readonly providerId = 'offline-planting';
  readonly writes: WriterPayload[] = [];
  constructor(private readonly kind: DefectKind) {}
  async complete(req: LlmRequest): Promise<LlmResponse> {
    const base = { usage: { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 }, cost_usd: 0, provider: 'offline', stop_reason: 'end_turn', latency_ms: 0, cached: false, model: 'offline' };
    if (req.role === 'critic') return { ...base, ...offlineCritique(req) };
    const p = req.payload as WriterPayload;
    this.writes.push(p);
    return { ...base, text: offlineWrite(req, p.attempt === 1 ? { seed: 's', defect: this.kind } : { seed: 's' }).text };
  }
}

const world = { threads: { format: 1, threads: [] }, characters: { format: 1, characters: [] }, world: { locations: [], travel: [] }, canon: { format: 1, facts: [] } } as unknown as World;
const plan = { episode_id: 's01e01', episode: 1, beats: [] } as unknown as EpisodePlan;

describe('chaos defects planted in prose go through the repair loop', () => {
  for (const kind of ['dead_acts_prose', 'teleport_prose', 'overspend_prose'] as const) {
    it(`${kind}: found hard in a narration line, prohibited, regenerated clean`, async () => {
      const llm = new PlantingLlm(kind);
      const res = await writeEpisodeScenes({ llm, plan, packets: [packet()], world, style: { guide: 'g', lexicon: lexicon() }, budgets: { per_scene: 2, per_episode: 12 }, concurrency: 1, seed: 's' });
      const sc = res.report.scenes[0];
      expect(sc.attempts.map((a) => [a.mode, a.verdict])).toEqual([['write', 'FAIL'], ['regenerate', 'PASS']]);
      const hard = sc.attempts[0].findings.filter((f) => f.severity === 'hard');
      // The prose code alone: no cue line and no event carries the defect.
      expect(hard.map((f) => f.code)).toEqual(DEFECT_CODES[kind]);
      expect(hard[0].span?.text).toBeTruthy();
      expect(hard[0].span!.text.startsWith('>')).toBe(false);
      expect(llm.writes[1].prohibited_codes).toEqual(DEFECT_CODES[kind]);
      expect(sc.attempts[1].findings).toEqual([]);
      expect(res.ok).toBe(true);
    });
  }
});
