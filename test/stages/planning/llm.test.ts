import { beforeAll, describe, expect, it } from 'vitest';
import type { Llm, LlmRequest, LlmResponse } from '../../../src/ports/llm.js';
import type { EpisodePlan } from '../../../src/domain/plan.js';
import { episodeRef } from '../../../src/domain/context.js';
import { stableStringify } from '../../../src/core/json.js';
import { defaultConfig } from '../../../src/config/defaults.js';
import { openLlm, MemoryRunLog } from '../../../src/providers/index.js';
import { planEpisode } from '../../../src/stages/planning.js';
import { proposeWithLlm } from '../../../src/stages/b-proposals/index.js';
import { directWithLlm } from '../../../src/stages/c-director/llm.js';
import { LlmOutputError } from '../../../src/providers/errors.js';
import { AureusError, ExitCode } from '../../../src/errors.js';
import { loadScenario, planScenario, scenario, tempDir } from './helpers.js';

/**
 * A scripted model behind the LLM port (our own interface, not an SDK): it answers each role
 * with a function of the request, and records every request it saw.
 */
class ScriptedLlm implements Llm {
  readonly deterministic = false;
  readonly providerId = 'scripted';
  readonly requests: LlmRequest[] = [];
  constructor(private readonly answer: (req: LlmRequest, n: number) => unknown) {}
  async complete(req: LlmRequest): Promise<LlmResponse> {
    this.requests.push(req);
    const json = this.answer(req, this.requests.filter((r) => r.role === req.role).length);
    if (json instanceof Error) throw json;
    return { text: JSON.stringify(json), json, usage: { input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0 }, cost_usd: 0, model: 'scripted', provider: 'scripted', stop_reason: 'end_turn', latency_ms: 0, cached: false };
  }
}

const s = scenario('planning-base');

describe('stage B through the LLM port', () => {
  it('the offline provider returns the symbolic moves: same proposals as without a model', async () => {
    const { world } = await loadScenario(s);
    const root = tempDir('offline');
    const runLog = new MemoryRunLog();
    const llm = openLlm({ root, config: { ...defaultConfig(), provider: 'offline' }, seed: 's01e01', runLog });
    const a = await planEpisode({ world, ref: episodeRef(1, 1), seed: 's01e01', previousCliffhanger: null, llm });
    const b = await planScenario(s);
    expect(stableStringify(a.proposals)).toBe(stableStringify(b.proposals));
    expect(a.proposals.proposals.every((p) => p.source === 'symbolic' && p.dropped.length === 0)).toBe(true);
    expect(stableStringify({ ...a.plan, director: null })).toBe(stableStringify({ ...b.plan, director: null }));
    expect(b.plan.director).toEqual({ source: 'symbolic', attempts: 0, fallback_reason: null });
    expect(a.plan.director).toEqual({ source: 'symbolic', attempts: 1, fallback_reason: null });
    const roles = runLog.entries.map((e) => e.role);
    expect(roles.filter((r) => r === 'proposals')).toHaveLength(a.proposals.proposals.length);
    expect(roles.filter((r) => r === 'director')).toHaveLength(1);
  });

  it('asks the principals concurrently and keeps principal order whatever order the answers arrive in', async () => {
    const { world } = await loadScenario(s);
    const base = (await planScenario(s)).context;
    let inFlight = 0;
    let maxInFlight = 0;
    let n = 0;
    const slow: Llm = {
      deterministic: false,
      providerId: 'slow',
      async complete(req: LlmRequest): Promise<LlmResponse> {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        // Earlier calls answer later, so completion order is the reverse of call order.
        await new Promise((r) => setTimeout(r, 40 - 3 * n++));
        inFlight--;
        const p = req.payload as { character: { id: string }; moves: unknown[] };
        const json = { character_id: p.character.id, moves: p.moves };
        return { text: JSON.stringify(json), json, usage: { input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0 }, cost_usd: 0, model: 'slow', provider: 'slow', stop_reason: 'end_turn', latency_ms: 0, cached: false };
      },
    };
    const { proposals } = await proposeWithLlm(world, base, slow);
    const symbolic = (await planScenario(s)).proposals;
    expect(maxInFlight).toBeGreaterThan(1);
    expect(proposals.proposals.map((p) => p.character_id)).toEqual(symbolic.proposals.map((p) => p.character_id));
    expect(stableStringify(proposals.proposals.map((p) => p.moves))).toBe(stableStringify(symbolic.proposals.map((p) => p.moves)));
  });

  it('a principal whose model answer stays invalid keeps its symbolic moves; a typed outage ends the run', async () => {
    const { world } = await loadScenario(s);
    const base = (await planScenario(s)).context;
    const symbolic = (await planScenario(s)).proposals;
    const bad = new ScriptedLlm(() => new LlmOutputError('proposals', 'character_answer', ['/moves: required'], 3, '{}'));
    const { proposals, diagnostics } = await proposeWithLlm(world, base, bad);
    expect(stableStringify(proposals.proposals.map((p) => p.moves))).toBe(stableStringify(symbolic.proposals.map((p) => p.moves)));
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics.every((d) => d.code === 'AUR3005')).toBe(true);
    const outage = new ScriptedLlm(() => new AureusError('the API is unreachable', { exitCode: ExitCode.PROVIDER }));
    await expect(proposeWithLlm(world, base, outage)).rejects.toMatchObject({ exitCode: ExitCode.PROVIDER });
  });

  it('drops invalid model moves (unknown operator, wrong actor, failing prereq) for symbolic ones, recorded', async () => {
    const { world } = await loadScenario(s);
    const base = (await planScenario(s)).context;
    const llm = new ScriptedLlm((req) => {
      const p = req.payload as { character: { id: string }; moves: { operator_id: string; bindings: Record<string, string> }[] };
      const good = p.moves[0]!;
      return {
        character_id: p.character.id,
        moves: [
          { ...good, rationale: 'a fine move' },
          { ...good, operator_id: 'op_does_not_exist', rationale: 'made up' },
          { ...good, operator_id: 'op_family_quarrel', target: 'decimus', bindings: { actor: p.character.id, target: 'decimus' }, rationale: 'not married to him' },
        ],
      };
    });
    const { proposals, diagnostics } = await proposeWithLlm(world, base, llm);
    for (const p of proposals.proposals) {
      expect(p.moves.length).toBeGreaterThanOrEqual(2);
      expect(p.moves.map((m) => m.operator_id)).not.toContain('op_does_not_exist');
      const reasons = p.dropped.map((d) => d.reason).join(' | ');
      expect(reasons).toMatch(/op_does_not_exist does not exist/);
      expect(reasons).toMatch(/prerequisite .* does not hold/);
    }
    expect(diagnostics.filter((d) => d.code === 'AUR3005').length).toBeGreaterThanOrEqual(proposals.proposals.length * 2);
    // The requests carried the schema and the structured payload.
    expect(llm.requests[0]!.json_schema).toBeDefined();
    expect(llm.requests[0]!.payload).toHaveProperty('moves');
  });
});

describe('stage C through the LLM port', () => {
  let symbolic: EpisodePlan;
  let a: Awaited<ReturnType<typeof planScenario>>;
  beforeAll(async () => {
    a = await planScenario(s);
    symbolic = a.plan;
  });

  it('a model that keeps breaking the rules is re-asked with the errors, then the symbolic plan is used', async () => {
    const llm = new ScriptedLlm(() => {
      const p = structuredClone(symbolic);
      p.beats.find((b) => b.tag === 'reveal')!.tag = null;
      return p;
    });
    const r = await directWithLlm(symbolic, a.world, a.context, a.proposals, llm, 2);
    expect(llm.requests).toHaveLength(3);
    expect(llm.requests[1]!.messages.at(-1)!.content).toMatch(/mandatory_beats/);
    expect(r.plan.director.source).toBe('symbolic');
    expect(r.plan.director.attempts).toBe(3);
    expect(r.plan.director.fallback_reason).toMatch(/mandatory_beats/);
    expect(r.plan.beats).toEqual(symbolic.beats);
    expect(r.diagnostics.filter((d) => d.code === 'AUR3006')).toHaveLength(3);
  });

  it('a model answer that is not even a plan falls back too', async () => {
    const llm = new ScriptedLlm(() => ({ plan: 'three acts of mayhem' }));
    const r = await directWithLlm(symbolic, a.world, a.context, a.proposals, llm, 1);
    expect(r.plan.director).toMatchObject({ source: 'symbolic', attempts: 2 });
    expect(r.plan.director.fallback_reason).toMatch(/^schema:/);
  });

  it('an unexpected (untyped) failure of a model call falls back, never failing the episode', async () => {
    const llm = new ScriptedLlm(() => new Error('connection reset'));
    const r = await directWithLlm(symbolic, a.world, a.context, a.proposals, llm, 2);
    expect(r.plan.director).toMatchObject({ source: 'symbolic', attempts: 1 });
    expect(r.plan.director.fallback_reason).toMatch(/connection reset/);
  });

  it('only a bad model answer falls back: a replay miss or an outage (typed provider errors) ends the run', async () => {
    const bad = new ScriptedLlm(() => new LlmOutputError('director', 'episode_plan', ['/scenes: too short'], 3, '{}'));
    const r = await directWithLlm(symbolic, a.world, a.context, a.proposals, bad, 2);
    expect(r.plan.director).toMatchObject({ source: 'symbolic', attempts: 1 });
    const miss = new ScriptedLlm(() => new AureusError('replay miss: no recorded answer for the director call', { exitCode: ExitCode.PROVIDER }));
    await expect(directWithLlm(symbolic, a.world, a.context, a.proposals, miss, 2)).rejects.toMatchObject({ exitCode: ExitCode.PROVIDER });
  });

  it('sends the spec §6.1 inputs, season goals included', async () => {
    const llm = new ScriptedLlm(() => structuredClone(symbolic));
    const goals = { format: 1 as const, season: 1, title: 'T', logline: 'L', episodes_planned: 10, goals: [{ id: 'g1', text: 'Hold Rome', threads: [] }], finale_threads: [] };
    await directWithLlm(symbolic, a.world, a.context, a.proposals, llm, 0, goals);
    const sent = JSON.parse(llm.requests[0]!.messages[0]!.content);
    expect(Object.keys(sent).sort()).toEqual(['CLIFFHANGER_CONSTRAINTS', 'CURRENT_STATE', 'OPERATORS', 'PROPOSALS', 'SEASON_GOALS', 'SYMBOLIC_PLAN', 'THREADS']);
    expect(sent.SEASON_GOALS.goals[0].text).toBe('Hold Rome');
  });

  it('a valid model plan that differs is accepted, its checks recomputed', async () => {
    const llm = new ScriptedLlm((_req, n) => {
      const p = structuredClone(symbolic);
      p.title = n === 1 ? '' : 'The Grain of Ostia';
      p.acceptance_checks = [];
      if (n === 1) p.scenes = p.scenes.slice(0, 10); // first answer broken, second fixed
      return p;
    });
    const r = await directWithLlm(symbolic, a.world, a.context, a.proposals, llm, 2);
    expect(r.plan.director).toEqual({ source: 'llm', attempts: 2, fallback_reason: null });
    expect(r.plan.title).toBe('The Grain of Ostia');
    expect(r.plan.acceptance_checks.length).toBeGreaterThan(10);
    expect(r.plan.acceptance_checks.every((c) => c.passed)).toBe(true);
  });
});
