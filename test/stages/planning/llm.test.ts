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
import { projectPlan } from '../../../src/stages/c-director/checks.js';
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

  it('a model edit that breaks a rule is re-asked once with the reasons, then the symbolic plan is used', async () => {
    // Moving the cliffhanger scene off the end of act 4 breaks cliffhanger_last.
    const last = symbolic.scenes.at(-1)!;
    const act4 = symbolic.scenes.filter((x) => x.act === last.act).map((x) => x.id);
    const llm = new ScriptedLlm(() => ({ title: 'The Ides', act_order: [{ act: last.act, scenes: [last.id, ...act4.filter((id) => id !== last.id)] }], scenes: [] }));
    const r = await directWithLlm(symbolic, a.world, a.context, a.proposals, llm);
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1]!.messages.at(-1)!.content).toMatch(/cliffhanger_last/);
    expect(llm.requests[1]!.messages.every((m) => m.content.trim() !== '')).toBe(true);
    expect(r.plan.director).toMatchObject({ source: 'symbolic', attempts: 2 });
    expect(r.plan.director.fallback_reason).toMatch(/cliffhanger_last/);
    expect(r.plan.beats).toEqual(symbolic.beats);
    expect(r.diagnostics.filter((d) => d.code === 'AUR3006')).toHaveLength(2);
  });

  it('an edit naming scenes that do not exist, or an act order that is not a permutation, is refused', async () => {
    const llm = new ScriptedLlm(() => ({ title: 'X', act_order: [{ act: 1, scenes: ['SC01'] }], scenes: [{ id: 'SC99', purpose: 'nothing' }] }));
    const r = await directWithLlm(symbolic, a.world, a.context, a.proposals, llm, 0);
    expect(r.plan.director).toMatchObject({ source: 'symbolic', attempts: 1 });
    expect(r.plan.director.fallback_reason).toMatch(/SC99 is not a scene/);
    expect(r.plan.director.fallback_reason).toMatch(/act_order: act 1 must list exactly its scenes/);
  });

  it('a valid edit is applied symbolically: title, purposes, and a reorder within an act renumbers scenes and beats', async () => {
    const act1 = symbolic.scenes.filter((x) => x.act === 1);
    const purposes = symbolic.scenes.map((x) => ({ id: x.id, purpose: `Purpose of ${x.id}: the audience learns who holds the knife.` }));
    let found: EpisodePlan | undefined;
    // Try swapping pairs within act 1 until one keeps every rule (some orders break travel or prereqs).
    for (let i = 0; i + 1 < act1.length && !found; i++) {
      const ids = act1.map((x) => x.id);
      [ids[i], ids[i + 1]] = [ids[i + 1]!, ids[i]!];
      const llm = new ScriptedLlm(() => ({ title: 'The Knife in the Curia', act_order: [{ act: 1, scenes: ids }], scenes: purposes }));
      const r = await directWithLlm(symbolic, a.world, a.context, a.proposals, llm, 0);
      if (r.plan.director.source === 'llm') {
        found = r.plan;
        const moved = act1[i + 1]!;
        expect(r.plan.scenes[i]!.location).toBe(moved.location);
        expect(r.plan.scenes[i]!.id).toBe(`SC${String(i + 1).padStart(2, '0')}`);
        expect(r.plan.scenes[i]!.purpose).toBe(`Purpose of ${moved.id}: the audience learns who holds the knife.`);
      }
    }
    // At least the title and purposes always apply.
    const llm = new ScriptedLlm(() => ({ title: 'The Knife in the Curia', scenes: purposes }));
    const r = await directWithLlm(symbolic, a.world, a.context, a.proposals, llm);
    expect(llm.requests).toHaveLength(1);
    expect(r.plan.title).toBe('The Knife in the Curia');
    expect(r.plan.director).toEqual({ source: 'llm', attempts: 1, fallback_reason: null });
    expect(r.plan.beats).toEqual(symbolic.beats);
    expect(r.plan.acceptance_checks.every((c) => c.passed)).toBe(true);
    expect(llm.requests[0]!.json_schema).toMatchObject({ required: ['title', 'scenes'] });
    expect(llm.requests[0]!.max_reasks).toBe(0);
    if (found) expect(found.acceptance_checks.every((c) => c.passed)).toBe(true);
  });

  it('a model answer that is not even an edit falls back too', async () => {
    const llm = new ScriptedLlm(() => ({ plan: 'three acts of mayhem' }));
    const r = await directWithLlm(symbolic, a.world, a.context, a.proposals, llm, 1);
    expect(r.plan.director).toMatchObject({ source: 'symbolic', attempts: 2 });
  });

  it('an unexpected (untyped) failure of a model call falls back, never failing the episode', async () => {
    const llm = new ScriptedLlm(() => new Error('connection reset'));
    const r = await directWithLlm(symbolic, a.world, a.context, a.proposals, llm, 2);
    expect(r.plan.director).toMatchObject({ source: 'symbolic', attempts: 1 });
    expect(r.plan.director.fallback_reason).toMatch(/connection reset/);
  });

  it('only a bad model answer falls back: a replay miss or an outage (typed provider errors) ends the run', async () => {
    const bad = new ScriptedLlm(() => new LlmOutputError('director', 'director_edit', ['/scenes: required'], 1, '{}'));
    const r = await directWithLlm(symbolic, a.world, a.context, a.proposals, bad);
    // One re-ask at most, then the symbolic plan.
    expect(bad.requests).toHaveLength(2);
    expect(r.plan.director).toMatchObject({ source: 'symbolic', attempts: 2 });
    const miss = new ScriptedLlm(() => new AureusError('replay miss: no recorded answer for the director call', { exitCode: ExitCode.PROVIDER }));
    await expect(directWithLlm(symbolic, a.world, a.context, a.proposals, miss, 2)).rejects.toMatchObject({ exitCode: ExitCode.PROVIDER });
  });

  it('sends a compact brief of the plan, season goals included, not the plan file', async () => {
    const llm = new ScriptedLlm(() => ({ title: symbolic.title, scenes: [] }));
    const goals = { format: 1 as const, season: 1, title: 'T', logline: 'L', episodes_planned: 10, goals: [{ id: 'g1', text: 'Hold Rome', threads: [] }], finale_threads: [] };
    await directWithLlm(symbolic, a.world, a.context, a.proposals, llm, 0, goals);
    const content = llm.requests[0]!.messages[0]!.content;
    const sent = JSON.parse(content);
    expect(Object.keys(sent).sort()).toEqual(['CLIFFHANGER_CONSTRAINTS', 'EPISODE', 'SCENES', 'SEASON_GOALS', 'THREADS']);
    expect(sent.SEASON_GOALS).toEqual(['Hold Rome']);
    expect(sent.SCENES).toHaveLength(symbolic.scenes.length);
    expect(content).not.toMatch(/\n /); // compact JSON
    expect(content.length).toBeLessThan(stableStringify(symbolic).length / 2);
  });

  it('a broken first edit and a fixed second one: the second is applied, its checks recomputed', async () => {
    const llm = new ScriptedLlm((_req, n) => (n === 1 ? { title: 'The Grain of Ostia', scenes: [{ id: 'SC77', purpose: 'x' }] } : { title: 'The Grain of Ostia', scenes: [] }));
    const r = await directWithLlm(symbolic, a.world, a.context, a.proposals, llm);
    expect(r.plan.director).toEqual({ source: 'llm', attempts: 2, fallback_reason: null });
    expect(r.plan.title).toBe('The Grain of Ostia');
    expect(r.plan.acceptance_checks.length).toBeGreaterThan(10);
    expect(r.plan.acceptance_checks.every((c) => c.passed)).toBe(true);
  });

  it('an edit that changes nothing is checked as the symbolic plan itself: no second replay of the episode', async () => {
    const llm = new ScriptedLlm(() => ({ title: symbolic.title, scenes: symbolic.scenes.map((x) => ({ id: x.id, purpose: x.purpose })) }));
    const r = await directWithLlm(symbolic, a.world, a.context, a.proposals, llm);
    expect(r.plan.director).toEqual({ source: 'symbolic', attempts: 1, fallback_reason: null });
    expect(stableStringify({ ...r.plan, director: null })).toBe(stableStringify({ ...symbolic, director: null }));
    // The checks ran on the symbolic plan's own beats, whose replay checks.ts keeps (projectPlan).
    expect(r.plan.beats).toBe(symbolic.beats);
    expect(projectPlan(r.plan, a.world, a.context)).toBe(projectPlan(symbolic, a.world, a.context));
    // A real edit (a new title) gives a plan of its own, checked on its own.
    const titled = await directWithLlm(symbolic, a.world, a.context, a.proposals, new ScriptedLlm(() => ({ title: 'The Ides', scenes: [] })));
    expect(titled.plan.director.source).toBe('llm');
    expect(titled.plan.beats).not.toBe(symbolic.beats);
    expect(titled.plan.acceptance_checks).toEqual(symbolic.acceptance_checks);
  });
});
