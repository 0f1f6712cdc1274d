import { afterAll, describe, expect, it } from 'vitest';
import { applyDeltas } from '../../src/core/deltas/index.js';
import { violatedConstraints } from '../../src/core/invariants.js';
import { episodeRef } from '../../src/domain/context.js';
import type { World } from '../../src/domain/world.js';
import { isAureusError } from '../../src/errors.js';
import { planEpisode } from '../../src/stages/planning.js';
import { requireHardConstraints } from '../../src/stages/h-commit/hard-constraints.js';
import { readStarterWorld } from '../support/starter-world.js';
import { cleanup, cli, editJson, makeWorld } from '../pipeline/world.js';

/** Issue 12, item 6: world/constraints.json hard constraints hold at validate, in planning and before commit. */
afterAll(cleanup);


function withConstraint(world: World, expr: string, id = 'cst_test'): World {
  const w = structuredClone(world);
  w.constraints.constraints.push({ id, kind: 'hard', expr, message: 'test constraint' } as World['constraints']['constraints'][number]);
  return w;
}

describe('hard constraints at validate', () => {
  it('Cicero dead against cst_cicero_lives: exit 3 with AUR2056 naming the constraint', async () => {
    const root = await makeWorld('cst-dead');
    editJson(root, 'world/characters.json', (v) => {
      const c = v.characters.find((x: any) => x.id === 'cicero');
      c.status = 'dead';
      c.bdi.intentions = []; // the dead do not act (AUR1024): otherwise a reference error comes first
    });
    const r = await cli(['validate', '--json'], root);
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout);
    const d = out.diagnostics.find((x: any) => x.code === 'AUR2056');
    expect(d.message).toContain('cst_cicero_lives');
    expect(d.file).toBe('world/constraints.json');
  });

  it('an added count_alive() < 0 constraint fails validate', async () => {
    const root = await makeWorld('cst-count');
    editJson(root, 'world/constraints.json', (v) => v.constraints.push({ id: 'cst_never', kind: 'hard', expr: 'count_alive() < 0', message: 'never holds' }));
    const r = await cli(['validate', '--json'], root);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout).diagnostics.map((x: any) => x.message).join('\n')).toContain('cst_never');
  });
});

describe('hard constraints in planning', () => {
  it('the Director never plans a move whose state breaks one', async () => {
    const starter = readStarterWorld();
    const ref = episodeRef(1, 1);
    // Unconstrained, the starter plan lowers Cicero's dignitas (an indictment) …
    const free = await planEpisode({ world: starter, ref, seed: 's01e01', previousCliffhanger: null });
    const lowers = free.plan.beats.flatMap((b) => b.applications).some((a) => a.required_deltas.some((d) => d.path === 'characters.cicero.stats.dignitas' && d.op === 'subtract'));
    expect(lowers).toBe(true);
    // … with a hard constraint against that, no application's projected state breaks it.
    const world = withConstraint(starter, "char('cicero').dignitas >= 85", 'cst_cicero_dignitas');
    const held = await planEpisode({ world, ref, seed: 's01e01', previousCliffhanger: null });
    let w = world;
    for (const s of held.plan.scenes) {
      const moves = (s.movements ?? []).map((m) => ({ path: `characters.${m.character}.location`, op: 'set' as const, value: m.to }));
      for (const app of [null, ...held.plan.beats.filter((b) => b.scene === s.id).flatMap((b) => b.applications)]) {
        const r = applyDeltas(w, app ? app.required_deltas : moves, () => ({ episode: 's01e01', scene: s.id, event: 'test', operator: null }));
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        w = r.world;
        expect(violatedConstraints(w, 'hard', { episode: 1 }).map((v) => v.id), `after ${app?.id ?? s.id}`).toEqual([]);
      }
    }
  });
});

describe('hard constraints before commit', () => {
  it('a delta set that breaks one is rejected with its constraint id (exit 6)', () => {
    const before = readStarterWorld();
    const r = applyDeltas(before, [{ path: 'characters.cicero.status', op: 'set', value: 'dead' }], () => ({ episode: 's01e01', scene: 'SC01', event: 'test', operator: null }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    let err: any;
    try {
      requireHardConstraints(before, r.world, 1, 's01e01');
    } catch (e) {
      err = e;
    }
    expect(isAureusError(err) && err.exitCode).toBe(6);
    expect(err.diagnostics.map((d: any) => d.code)).toEqual(['AUR2070', 'AUR2056']);
    expect(err.diagnostics[0].message).toContain('cst_cicero_lives');
    expect(() => requireHardConstraints(before, before, 1, 's01e01')).not.toThrow();
  });
});
