import { describe, expect, it, beforeAll } from 'vitest';
import type { World } from '../../../src/domain/world.js';
import type { EpisodePlan, OperatorApplication } from '../../../src/domain/plan.js';
import type { ResolvedDelta } from '../../../src/domain/delta.js';
import { indexWorld, travelDays } from '../../../src/core/world-index.js';
import { checkPrereqs } from '../../../src/core/expr/index.js';
import { applyDeltas } from '../../../src/core/deltas/index.js';
import { stateHash } from '../../../src/core/state-hash.js';
import { round } from '../../../src/core/json.js';
import { Rng } from '../../../src/core/rng.js';
import type { PlanningArtifacts } from '../../../src/stages/planning.js';
import { planScenario, scenarios, schemaErrors } from './helpers.js';

/**
 * Every acceptance rule of the issue, asserted on each scenario world twice: through the plan's
 * own acceptance_checks, and independently here by replaying the plan with the core engine.
 */
const TIMES = ['dawn', 'morning', 'day', 'afternoon', 'dusk', 'night'];
const prov = () => ({ episode: 'test', scene: 'test', event: 'e', operator: null });

function replay(plan: EpisodePlan, world: World, a: PlanningArtifacts) {
  let w = world;
  if (a.context.must_start_immediately && a.context.opening) {
    const r = applyDeltas(w, a.context.opening.characters.map((id) => ({ path: `characters.${id}.location`, op: 'set' as const, value: a.context.opening!.location })), prov);
    if (!r.ok) throw new Error('opening');
    w = r.world;
  }
  const before: World[] = [];
  const failures: string[] = [];
  for (const s of plan.scenes) {
    const moves: ResolvedDelta[] = (s.movements ?? []).map((m) => ({ path: `characters.${m.character}.location`, op: 'set', value: m.to }));
    const r = applyDeltas(w, moves, prov);
    if (!r.ok) throw new Error('moves');
    w = r.world;
    before.push(w);
    for (const app of plan.beats.filter((b) => b.scene === s.id).flatMap((b) => b.applications)) {
      const op = w.operators.operators.find((o) => o.id === app.operator_id)!;
      const idx = indexWorld(w);
      if (!checkPrereqs(op, app.bindings, idx, { episode: plan.episode }).holds) failures.push(`${app.id} prereqs`);
      for (const [role, id] of Object.entries(app.bindings)) {
        if ((op.roles[role]?.kind ?? 'character') === 'character' && idx.characters.get(id)?.status !== 'alive') failures.push(`${app.id} ${id} cannot act`);
      }
      const d = applyDeltas(w, app.required_deltas, prov);
      if (!d.ok) failures.push(`${app.id} deltas`);
      else w = d.world;
    }
  }
  return { before, end: w, failures };
}

describe.each(scenarios())('planning on $name', (s) => {
  let a: PlanningArtifacts & { world: World };
  let apps: OperatorApplication[];
  beforeAll(async () => {
    a = await planScenario(s);
    apps = a.plan.beats.flatMap((b) => b.applications);
  });

  it('records every acceptance rule, all passing', () => {
    const ids = a.plan.acceptance_checks.map((c) => c.id);
    for (const id of ['scene_count', 'four_acts', 'phases', 'thriller_count', 'soap_count', 'mandatory_beats', 'cliffhanger_last', 'threads_advanced', 'beats_complete', 'prereqs_hold', 'major_resolved', 'overdue_first', 'risks_rolled', 'drama_responses', 'time_and_place']) {
      expect(ids).toContain(id);
    }
    expect(a.plan.acceptance_checks.filter((c) => !c.passed)).toEqual([]);
  });

  it('writes artifacts valid against their schemas', () => {
    expect(schemaErrors('episode_context', a.context)).toBeNull();
    expect(schemaErrors('agent_proposals', a.proposals)).toBeNull();
    expect(schemaErrors('episode_plan', a.plan)).toBeNull();
    for (const p of a.packets) expect(schemaErrors('scene_packet', p)).toBeNull();
  });

  it('has 18-24 scenes in 4 acts with phases establishment → complication → escalation → pivot', () => {
    expect(a.plan.scenes.length).toBeGreaterThanOrEqual(18);
    expect(a.plan.scenes.length).toBeLessThanOrEqual(24);
    expect([...new Set(a.plan.scenes.map((x) => x.act))]).toEqual([1, 2, 3, 4]);
    const rank = { establishment: 0, complication: 1, escalation: 2, pivot: 3, resolution: 3 };
    const ranks = a.plan.beats.map((b) => rank[b.phase]);
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
    for (const p of ['establishment', 'complication', 'escalation', 'pivot']) expect(a.plan.beats.some((b) => b.phase === p)).toBe(true);
  });

  it('uses 10-14 thriller and 6-10 soap applications, typed by their operators', () => {
    const ops = new Map(a.world.operators.operators.map((o) => [o.id, o]));
    const thr = apps.filter((x) => ops.get(x.operator_id)!.type === 'thriller').length;
    const soap = apps.filter((x) => ops.get(x.operator_id)!.type === 'soap').length;
    expect(thr).toBeGreaterThanOrEqual(10);
    expect(thr).toBeLessThanOrEqual(14);
    expect(soap).toBeGreaterThanOrEqual(6);
    expect(soap).toBeLessThanOrEqual(10);
  });

  it('has exactly one REVEAL, REVERSAL, CONFRONTATION and CLIFFHANGER, the cliffhanger last', () => {
    const ops = new Map(a.world.operators.operators.map((o) => [o.id, o]));
    for (const tag of ['reveal', 'reversal', 'confrontation', 'cliffhanger'] as const) {
      const bs = a.plan.beats.filter((b) => b.tag === tag);
      expect(bs, tag).toHaveLength(1);
      expect(ops.get(bs[0]!.applications[0]!.operator_id)!.beats).toContain(tag);
    }
    expect(a.plan.beats.find((b) => b.tag === 'cliffhanger')!.scene).toBe(a.plan.scenes[a.plan.scenes.length - 1]!.id);
  });

  it('advances at least 2 threads, resolves at most 1 major thread, and advances overdue threads first', () => {
    const advanced = new Set(apps.flatMap((x) => x.threads_advanced));
    expect(advanced.size).toBeGreaterThanOrEqual(2);
    const { end } = replay(a.plan, a.world, a);
    const majorsResolved = a.world.threads.threads.filter((t) => t.major && t.status === 'open').filter((t) => {
      const e = end.threads.threads.find((x) => x.id === t.id)!;
      return e.status === 'resolved' || e.progress >= 1;
    });
    expect(majorsResolved.length).toBeLessThanOrEqual(1);
    for (const t of a.context.active_threads.filter((x) => x.overdue)) {
      const first = a.plan.beats.find((b) => b.applications.some((x) => x.threads_advanced.includes(t.id)));
      expect(first, t.id).toBeDefined();
      expect(first!.act).toBeLessThanOrEqual(2);
    }
  });

  it('binds every role, names required deltas, and every prereq holds on the projected state; only the living act', () => {
    const ops = new Map(a.world.operators.operators.map((o) => [o.id, o]));
    for (const app of apps) {
      const op = ops.get(app.operator_id)!;
      for (const role of ['actor', ...Object.keys(op.roles)]) expect(app.bindings[role], `${app.id} ${role}`).toBeTruthy();
      expect(app.required_deltas.length).toBeGreaterThan(0);
      expect(app.prereqs.every((p) => p.holds)).toBe(true);
    }
    expect(replay(a.plan, a.world, a).failures).toEqual([]);
  });

  it('rolls side-effect risks with the seed into success/fail outcomes', () => {
    const rng = new Rng(a.plan.seed);
    const ops = new Map(a.world.operators.operators.map((o) => [o.id, o]));
    for (const app of apps) {
      const op = ops.get(app.operator_id)!;
      expect(app.risks.map((r) => r.text)).toEqual(op.side_effect_risks.map((r) => r.text));
      app.risks.forEach((r, k) => {
        expect(r.roll).toBe(round(rng.fork(`risk/${app.id}/${k}`).next()));
        expect(r.triggered).toBe(r.roll < r.prob);
      });
      expect(app.outcome).toBe(app.risks.some((r) => r.triggered) ? 'fail' : 'success');
      if (app.outcome === 'fail') expect(app.required_deltas).toContainEqual({ path: `characters.${app.bindings.actor}.stats.dignitas`, op: 'subtract', value: 2 });
    }
  });

  it('keeps everyone in one place at a time and respects travel days between scenes', () => {
    const start = replay({ ...a.plan, scenes: [], beats: [] }, a.world, a).end;
    const idx = indexWorld(start);
    const last = new Map<string, { loc: string; day: number; slot: number }>();
    let prevSlot = -1;
    for (const s of a.plan.scenes) {
      const slot = s.day * 6 + TIMES.indexOf(s.time_of_day);
      expect(slot).toBeGreaterThanOrEqual(prevSlot);
      prevSlot = slot;
      for (const c of s.cast) {
        const p = last.get(c) ?? { loc: idx.characters.get(c)!.location, day: 0, slot: -1 };
        expect(p.slot === slot && p.loc !== s.location, `${c} twice at once`).toBe(false);
        const d = travelDays(idx, p.loc, s.location);
        expect(d, `${c} route`).not.toBeNull();
        expect(s.day - p.day, `${c} travel to ${s.id}`).toBeGreaterThanOrEqual(d!);
        last.set(c, { loc: s.location, day: s.day, slot });
      }
    }
  });

  it('applies and records the drama responses', () => {
    for (const r of a.plan.drama_responses) {
      expect({ pacing_low: 'inject_complication', tension_plateau: 'schedule_confrontation', threads_near_resolution: 'defer_resolution' }[r.condition]).toBe(r.action);
    }
    const sched = a.plan.drama_responses.find((r) => r.action === 'schedule_confrontation');
    if (sched) {
      // The confrontation comes no later than one scene after it was scheduled for.
      const at = a.plan.scenes.findIndex((x) => x.id === sched.at);
      const conf = a.plan.scenes.findIndex((x) => a.plan.beats.some((b) => b.scene === x.id && b.tag === 'confrontation'));
      expect(conf).toBeGreaterThanOrEqual(0);
      expect(conf - at).toBeLessThanOrEqual(2);
    }
  });

  it('builds one self-contained packet per scene from the projected state', () => {
    const { before } = replay(a.plan, a.world, a);
    expect(a.packets.map((p) => p.scene_id)).toEqual(a.plan.scenes.map((x) => x.id));
    a.packets.forEach((p, i) => {
      const scene = a.plan.scenes[i]!;
      expect(p.state_hash_before).toBe(stateHash(before[i]));
      expect(p.setting.location).toBe(scene.location);
      expect(p.cast.map((c) => c.id)).toEqual(scene.cast);
      const appIds = a.plan.beats.filter((b) => b.scene === scene.id).flatMap((b) => b.applications.map((x) => x.id));
      expect(p.constraints.required_deltas.length).toBeGreaterThan(0);
      for (const d of p.constraints.required_deltas) expect(appIds).toContain(d.application_id);
      expect(p.director_instructions.sequence.map((x) => x.application_id)).toEqual(appIds);
      for (const sec of p.retrieved_subgraph.secrets) expect(sec.status).not.toBe('inert');
      for (const sec of before[i]!.secrets.secrets.filter((x) => x.status === 'hidden' && !x.holders.some((h) => scene.cast.includes(h)) )) {
        const bound = a.plan.beats.filter((b) => b.scene === scene.id).some((b) => b.applications.some((x) => Object.values(x.bindings).includes(sec.id)));
        if (bound) continue;
        expect(p.retrieved_subgraph.secrets.map((x) => x.id)).not.toContain(sec.id);
        expect(p.constraints.forbidden_facts.some((f) => f.includes(sec.text))).toBe(true);
      }
      expect(p.token_estimate <= p.token_budget || p.pruned.length > 0).toBe(true);
    });
  });
});

describe('the rules hold whatever the seed', () => {
  it.each(['planning-base', 'planning-few-operators'])('%s: 8 seeds, 8 different valid plans', async (name) => {
    const s = scenarios().find((x) => x.name === name)!;
    const shapes = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const a = await planScenario(s, `seed-${i}`);
      expect(a.plan.acceptance_checks.filter((c) => !c.passed), `seed-${i}`).toEqual([]);
      shapes.add(JSON.stringify(a.plan.beats.map((b) => b.applications.map((x) => [x.operator_id, x.bindings]))));
    }
    expect(shapes.size).toBe(8);
  });
});
