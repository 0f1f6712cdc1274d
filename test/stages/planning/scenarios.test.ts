import { describe, expect, it } from 'vitest';
import { episodeRef } from '../../../src/domain/context.js';
import type { CliffhangerConstraints } from '../../../src/domain/context.js';
import { buildEpisodeContext } from '../../../src/stages/a-snapshot/index.js';
import { candidatePool } from '../../../src/stages/b-proposals/pool.js';
import { isAureusError } from '../../../src/errors.js';
import { loadScenario, planScenario, scenario } from './helpers.js';

describe('planning-dead-principal: a dead principal and a pending physical-danger cliffhanger', () => {
  const s = scenario('planning-dead-principal', 2);

  it('stage A applies the cliffhanger: immediate start at its location, the dead left out', async () => {
    const a = await planScenario(s);
    expect(a.context.previous_cliffhanger?.kind).toBe('physical_danger');
    expect(a.context.must_start_immediately).toBe(true);
    expect(a.context.time_skip_allowed).toBe(false);
    expect(a.context.opening).toEqual(expect.objectContaining({ location: 'ostia', characters: ['fulvia', 'caelius'] }));
    expect(a.context.unavailable).toEqual([{ id: 'clodius', status: 'dead' }]);
    expect(a.context.acting_principals).not.toContain('clodius');
    expect(a.diagnostics.some((d) => d.code === 'AUR3004' && d.message.includes('clodius'))).toBe(true);
  });

  it('scene 1 continues at Ostia with Fulvia and Caelius, on day 0', async () => {
    const a = await planScenario(s);
    const sc1 = a.plan.scenes[0]!;
    expect(sc1.location).toBe('ostia');
    expect(sc1.cast).toEqual(expect.arrayContaining(['fulvia', 'caelius']));
    expect(sc1.day).toBe(0);
    expect(a.plan.acceptance_checks.find((c) => c.id === 'cliffhanger_opening')?.passed).toBe(true);
    // They were at Ostia when the last episode ended: no travel is invented for them.
    const p1 = a.packets[0]!;
    for (const id of ['fulvia', 'caelius']) expect(p1.cast.find((c) => c.id === id)!.previous_location).toBe('ostia');
  });

  it('the dead principal never acts, proposes, appears or speaks', async () => {
    const a = await planScenario(s);
    expect(a.proposals.skipped).toEqual([{ character_id: 'clodius', status: 'dead' }]);
    expect(a.proposals.proposals.map((p) => p.character_id)).not.toContain('clodius');
    for (const b of a.plan.beats) for (const app of b.applications) expect(Object.values(app.bindings)).not.toContain('clodius');
    for (const sc of a.plan.scenes) expect(sc.cast).not.toContain('clodius');
    for (const p of a.packets) {
      expect(p.dead.map((d) => d.id)).toContain('clodius');
      expect(p.constraints.forbidden_facts.some((f) => f.startsWith('Publius Clodius Pulcher is dead'))).toBe(true);
    }
  });

  it('a revelation cliffhanger allows a time skip instead', async () => {
    const { world, cliff } = await loadScenario(s);
    const revelation: CliffhangerConstraints = { ...cliff!, kind: 'revelation', must_start_immediately: false, time_skip_allowed: true };
    const { context } = buildEpisodeContext({ world, ref: episodeRef(1, 2), seed: 'x', previousCliffhanger: revelation });
    expect(context.time_skip_allowed).toBe(true);
    expect(context.must_start_immediately).toBe(false);
    expect(context.opening).toBeNull();
  });
});

describe('planning-few-operators: only a handful of operators can ever apply', () => {
  const s = scenario('planning-few-operators');

  it('plans a full episode from the few that apply, reusing them with other bindings', async () => {
    const a = await planScenario(s);
    const applicable = new Set(candidatePool(a.world, 1).filter((e) => e.valid).map((e) => e.op.id));
    expect(applicable.size).toBeLessThanOrEqual(10);
    expect(a.world.operators.operators.length).toBeGreaterThan(applicable.size);
    const used = a.plan.beats.flatMap((b) => b.applications);
    for (const app of used) expect(applicable).toContain(app.operator_id);
    // Reuse, but never the very same move twice.
    expect(new Set(used.map((x) => x.operator_id)).size).toBeLessThan(used.length);
    expect(new Set(used.map((x) => `${x.operator_id}${JSON.stringify(x.bindings)}`)).size).toBe(used.length);
    expect(a.plan.acceptance_checks.every((c) => c.passed)).toBe(true);
  });
});

describe('an impossible world', () => {
  it('fails with exit 6 and a diagnostic naming the rule that could not be met', async () => {
    const s = scenario('planning-impossible');
    try {
      await planScenario(s);
      expect.unreachable('planning should fail');
    } catch (e) {
      expect(isAureusError(e)).toBe(true);
      if (!isAureusError(e)) return;
      expect(e.exitCode).toBe(6);
      expect(e.diagnostics[0]!.code).toBe('AUR3001');
      expect(e.diagnostics[0]!.message).toMatch(/rule "prereqs_hold" could not be met/);
    }
  });

  it('a world whose only cliffhanger operator cannot apply names the cliffhanger rule', async () => {
    const s = scenario('planning-base');
    const { world } = await loadScenario(s);
    const w = structuredClone(world);
    for (const o of w.operators.operators) if (o.beats.includes('cliffhanger')) o.prereqs.push({ expr: 'world.global.unrest > 100' });
    await expect(planScenario(s, 's01e01', w)).rejects.toMatchObject({ exitCode: 6, diagnostics: [expect.objectContaining({ message: expect.stringContaining('"cliffhanger_last"') })] });
  });

  it('a world with no living principal says so', async () => {
    const s = scenario('planning-base');
    const { world } = await loadScenario(s);
    const w = structuredClone(world);
    for (const c of w.characters.characters) if (c.principal) { c.status = 'dead'; c.bdi.intentions = []; }
    await expect(planScenario(s, 's01e01', w)).rejects.toMatchObject({ exitCode: 6, diagnostics: [expect.objectContaining({ code: 'AUR3002' })] });
  });
});

describe('overdue threads', () => {
  it('are marked in the context and advanced in act 1 or 2', async () => {
    const s = scenario('planning-base');
    const { world } = await loadScenario(s);
    const w = structuredClone(world);
    // Planning episode 5: thr_rivals (cadence 3) last progressed in episode 0 → 4 episodes without progress.
    const a = await planScenario({ ...s, episode: 5 }, 's01e05', w);
    const rivals = a.context.active_threads.find((t) => t.id === 'thr_rivals')!;
    expect(rivals.episodes_since_progress).toBe(4);
    expect(rivals.overdue).toBe(true);
    const overdue = a.context.active_threads.filter((t) => t.overdue).map((t) => t.id);
    expect(overdue.length).toBeGreaterThan(0);
    for (const id of overdue) {
      const first = a.plan.beats.find((b) => b.applications.some((x) => x.threads_advanced.includes(id)));
      expect(first?.act, id).toBeLessThanOrEqual(2);
    }
    expect(a.plan.acceptance_checks.find((c) => c.id === 'overdue_first')?.passed).toBe(true);
  });
});
