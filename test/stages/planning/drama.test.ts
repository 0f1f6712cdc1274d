import { describe, expect, it } from 'vitest';
import type { World } from '../../../src/domain/world.js';
import { loadScenario, planScenario, scenario } from './helpers.js';

/**
 * Spec §10.2 responses, provoked by worlds built for them: a world where moves change almost
 * nothing (pacing collapses, tension stays flat) and threads all on the brink of resolution.
 */
async function stillWorld(): Promise<World> {
  const { world } = await loadScenario(scenario('planning-base'));
  const w = structuredClone(world);
  for (const o of w.operators.operators) {
    o.effects = [{ path: 'world.global.unrest', op: 'add', value: 0 }];
    for (const r of o.side_effect_risks) delete r.effects;
  }
  for (const t of w.threads.threads) { t.progress = 0.85; t.major = false; }
  return w;
}

describe('drama responses while planning', () => {
  it('low pacing for 2 acts injects a complication; flat tension schedules the confrontation; near-resolution threads are deferred', async () => {
    const w = await stillWorld();
    const a = await planScenario(scenario('planning-base'), 's01e01', w);
    const actions = a.plan.drama_responses.map((r) => r.action);
    // Threads at 0.85: more than 2 near resolution, so all but 2 are deferred and never advanced again.
    const defers = a.plan.drama_responses.filter((r) => r.action === 'defer_resolution');
    expect(defers.length).toBeGreaterThan(0);
    for (const d of defers) {
      const id = /; ([a-z0-9_]+) is deferred/.exec(d.detail)![1]!;
      const at = a.plan.scenes.findIndex((s) => s.id === d.at);
      const later = a.plan.beats.filter((b) => a.plan.scenes.findIndex((s) => s.id === b.scene) > at);
      expect(later.some((b) => b.applications.some((x) => x.threads_advanced.includes(id))), id).toBe(false);
    }
    // Nothing moves tension: a confrontation is scheduled.
    expect(actions).toContain('schedule_confrontation');
    // Pacing < 4 for two acts: the next slot takes an operator tagged complication.
    const inject = a.plan.drama_responses.find((r) => r.action === 'inject_complication');
    expect(inject, JSON.stringify(a.plan.drama_responses)).toBeDefined();
    expect(inject!.at).toMatch(/^SC\d{2}$/);
    const beat = a.plan.beats.find((b) => b.scene === inject!.at)!;
    const app = beat.applications.find((x) => x.source === 'injected')!;
    expect(app).toBeDefined();
    expect(w.operators.operators.find((o) => o.id === app.operator_id)!.beats).toContain('complication');
    expect(a.plan.acceptance_checks.every((c) => c.passed)).toBe(true);
  });

  it('a lively world needs no complication injection', async () => {
    const a = await planScenario(scenario('planning-base'));
    expect(a.plan.drama_responses.map((r) => r.action)).not.toContain('inject_complication');
  });
});
