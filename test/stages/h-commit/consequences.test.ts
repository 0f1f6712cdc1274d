import { describe, expect, it } from 'vitest';
import { applyDeltas } from '../../../src/core/deltas/index.js';
import { cascadeDeltas } from '../../../src/core/cascade.js';
import { checkStateInvariants } from '../../../src/core/invariants.js';
import { indexWorld } from '../../../src/core/world-index.js';
import { checkPrereqs } from '../../../src/core/expr/index.js';
import { readStarterWorld } from '../../support/starter-world.js';

const prov = () => ({ episode: 's01e01', scene: 'SC01', event: 'plan', operator: null });

describe('consequences that land (core/cascade.ts)', () => {
  it('a death drops the intentions and the secrets of the dead, and the world stays valid', () => {
    const w = readStarterWorld();
    const kill = [{ path: 'characters.catiline.status', op: 'set' as const, value: 'dead' }];
    const cascade = cascadeDeltas(w, kill);
    const r = applyDeltas(w, [...kill, ...cascade], prov);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const cat = r.world.characters.characters.find((c) => c.id === 'catiline')!;
    expect(cat.status).toBe('dead');
    expect(cat.bdi.intentions).toEqual([]);
    expect(r.world.secrets.secrets.filter((s) => s.holders.includes('catiline'))).toEqual([]);
    // Secrets about him still exist (the living still hold them).
    expect(r.world.secrets.secrets.find((s) => s.id === 'sec_catiline_plot')!.holders.length).toBeGreaterThan(0);
    expect(checkStateInvariants(r.world).filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('an exile leaves the city for a camp or a port and no longer holds intentions', () => {
    const w = readStarterWorld();
    const exile = [{ path: 'characters.catiline.status', op: 'set' as const, value: 'exiled' }];
    const r = applyDeltas(w, [...exile, ...cascadeDeltas(w, exile)], prov);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const cat = r.world.characters.characters.find((c) => c.id === 'catiline')!;
    expect(['faesulae', 'ostia']).toContain(cat.location);
    expect(cat.bdi.intentions).toEqual([]);
    // The exiled man can no longer be sent to act: every operator's alive prereq fails for him.
    const op = r.world.operators.operators.find((o) => o.id === 'op_assassination_attempt')!;
    expect(checkPrereqs(op, { actor: 'catiline', target: 'cicero' }, indexWorld(r.world), { episode: 1 }).holds).toBe(false);
  });

  it('an explicit destination wins over the default place of exile; a fallen man falls once', () => {
    const w = readStarterWorld();
    const d = [
      { path: 'characters.catiline.status', op: 'set' as const, value: 'exiled' },
      { path: 'characters.catiline.location', op: 'set' as const, value: 'villa_tusculum' },
    ];
    expect(cascadeDeltas(w, d).some((x) => x.path === 'characters.catiline.location')).toBe(false);
    const dead = applyDeltas(w, [{ path: 'characters.catiline.status', op: 'set', value: 'dead' }], prov);
    if (!dead.ok) throw new Error('setup');
    expect(cascadeDeltas(dead.world, [{ path: 'characters.catiline.status', op: 'set', value: 'exiled' }])).toEqual([]);
  });
});
