import { beforeAll, describe, expect, it } from 'vitest';
import type { EpisodePlan } from '../../../src/domain/plan.js';
import type { World } from '../../../src/domain/world.js';
import type { EpisodeContext } from '../../../src/domain/episode-context.js';
import { acceptanceChecks } from '../../../src/stages/c-director/checks.js';
import { planErrors } from '../../../src/stages/c-director/llm.js';
import { planScenario, scenario } from './helpers.js';

/** The checks must be able to fail: each broken plan flips exactly the rule it breaks. */
describe('acceptance checks reject broken plans', () => {
  let plan: EpisodePlan;
  let world: World;
  let context: EpisodeContext;
  beforeAll(async () => {
    const a = await planScenario(scenario('planning-base'));
    plan = a.plan;
    world = a.world;
    context = a.context;
  });
  const failing = (p: EpisodePlan) => acceptanceChecks(p, world, context).checks.filter((c) => !c.passed).map((c) => c.id);
  const copy = () => structuredClone(plan);

  it('the planned episode passes', () => expect(failing(plan)).toEqual([]));

  it('too few scenes', () => {
    const p = copy();
    const cut = p.scenes.slice(0, 17);
    p.scenes = cut;
    p.beats = p.beats.filter((b) => cut.some((s) => s.id === b.scene));
    expect(failing(p)).toContain('scene_count');
  });

  it('a cliffhanger that is not in the last scene', () => {
    const p = copy();
    const cliff = p.beats.find((b) => b.tag === 'cliffhanger')!;
    const rev = p.beats.find((b) => b.tag === 'reversal')!;
    [cliff.tag, rev.tag] = [rev.tag, cliff.tag];
    const f = failing(p);
    expect(f).toContain('cliffhanger_last');
    expect(f).toContain('mandatory_beats');
  });

  it('a missing REVEAL', () => {
    const p = copy();
    p.beats.find((b) => b.tag === 'reveal')!.tag = null;
    expect(failing(p)).toContain('mandatory_beats');
  });

  it('phases out of order', () => {
    const p = copy();
    p.beats[0]!.phase = 'pivot';
    expect(failing(p)).toContain('phases');
  });

  it('a dead character made to act, and a prerequisite that no longer holds', () => {
    const p = copy();
    const w = structuredClone(world);
    const victim = p.beats[3]!.applications[0]!.bindings.actor!;
    const ch = w.characters.characters.find((c) => c.id === victim)!;
    ch.status = 'dead';
    ch.bdi.intentions = [];
    const f = acceptanceChecks(p, w, context).checks.filter((c) => !c.passed).map((c) => c.id);
    expect(f).toContain('prereqs_hold');
    expect(f).toContain('time_and_place');
  });

  it('a teleport: a character crossing to Ostia with no day to travel', () => {
    const p = copy();
    const s = p.scenes.find((x, i) => i > 0 && x.location !== 'ostia' && x.cast.length > 0)!;
    s.location = 'ostia';
    expect(failing(p)).toContain('time_and_place');
  });

  it('risk rolls that are not the seed\'s', () => {
    const p = copy();
    const app = p.beats.flatMap((b) => b.applications).find((a) => a.risks.length > 0)!;
    app.risks[0]!.roll = app.risks[0]!.roll > 0.5 ? 0.01 : 0.99;
    expect(failing(p)).toContain('risks_rolled');
  });

  it('too few soap applications', () => {
    const p = copy();
    const soapBeats = p.beats.filter((b) => b.applications.every((a) => a.type === 'soap') && !b.tag);
    for (const b of soapBeats) b.applications = [];
    const f = failing(p);
    expect(f).toContain('soap_count');
    expect(f).toContain('beats_complete');
  });

  it('fewer than 2 threads advanced', () => {
    const p = copy();
    for (const b of p.beats) for (const a of b.applications) a.threads_advanced = [];
    expect(failing(p)).toContain('threads_advanced');
  });

  it('a model plan is judged by the schema first, then by every rule', () => {
    expect(planErrors({ episode_id: 's01e01' }, world, context, plan.seed)[0]).toMatch(/^schema:/);
    const p = copy();
    p.beats.find((b) => b.tag === 'reveal')!.tag = null;
    expect(planErrors(p, world, context, plan.seed).join('\n')).toMatch(/mandatory_beats/);
    expect(planErrors(plan, world, context, plan.seed)).toEqual([]);
    expect(planErrors(plan, world, context, 'another-seed').join('\n')).toMatch(/seed must be/);
  });
});
