import { describe, expect, it } from 'vitest';
import type { ScenePacket } from '../../src/domain/packet.js';
import { evaluate, suggestNext } from '../../src/play/evaluate.js';
import { emptyState } from '../../src/play/state.js';
import type { SceneSetup } from '../../src/play/types.js';

// Only the fields evaluate() reads: names from the walked subgraph, the place's name.
const packet = {
  setting: { location_name: 'Campus Martius' },
  retrieved_subgraph: { characters: [{ id: 'cicero', name: 'Marcus Tullius Cicero' }, { id: 'cato', name: 'Marcus Porcius Cato' }] },
} as unknown as ScenePacket;
const setup = (cast: string[]): SceneSetup => ({ scene: 'SC01', episode: 's01e01', location: 'campus_martius', principal: 'cicero', cast, mode: 'open', turn_budget: 8, objective: null, season: 1 });

describe('the evaluation at the end of a played scene', () => {
  it('names who was on stage, and says "alone" when nobody else was (not "with ;")', () => {
    expect(evaluate(emptyState('s', 's', setup(['cato'])), packet).summary).toMatch(/^Marcus Tullius Cicero played 0 turn\(s\) at Campus Martius with Marcus Porcius Cato; tension/);
    expect(evaluate(emptyState('s', 's', setup([])), packet).summary).toMatch(/^Marcus Tullius Cicero played 0 turn\(s\) at Campus Martius alone; tension/);
  });

  it('suggests a scene with someone close by, and never `--with undefined` when nobody is', () => {
    const withCato = { ...packet, setting: { ...packet.setting, location: 'campus_martius' }, retrieved_subgraph: { threads: [], characters: [{ id: 'cicero', status: 'alive' }, { id: 'cato', status: 'alive' }] } } as unknown as ScenePacket;
    expect(suggestNext(emptyState('s', 's', setup([])), withCato).command).toBe('aureus play --as cicero --at campus_martius --with cato');
    const nobody = { ...withCato, retrieved_subgraph: { threads: [], characters: [{ id: 'cicero', status: 'alive' }, { id: 'cato', status: 'dead' }] } } as unknown as ScenePacket;
    const next = suggestNext(emptyState('s', 's', setup([])), nobody);
    expect(next.command).not.toMatch(/undefined/);
    expect(next).toMatchObject({ kind: 'compile_episode', command: 'aureus episode run' });
  });
});
