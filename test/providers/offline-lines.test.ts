import { describe, expect, it } from 'vitest';
import { LineBook, sceneBlock } from '../../src/providers/offline/writer-lines.js';
import { REGISTER_LINES, REACTIONS, EXTRA_LINES, HOOKS, RHETORIC_ALL } from '../../src/providers/offline/writer-phrases.js';
import type { ScenePacket } from '../../src/domain/packet.js';

const scene = (number: number, episode = 's01e01') => ({ number, episode_id: episode }) as ScenePacket;

describe('per-scene line blocks', () => {
  it('give the scenes of an episode disjoint entries, and another episode another order', () => {
    const pool = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const drawn = Array.from({ length: 15 }, (_, i) => sceneBlock(pool, 'k', 'seed', scene(i + 1), 2)).flat();
    expect(new Set(drawn).size).toBe(30);
    expect(sceneBlock(pool, 'k', 'seed', scene(1, 's01e02'), 2)).not.toEqual(sceneBlock(pool, 'k', 'seed', scene(1), 2));
    // Deterministic per seed.
    expect(sceneBlock(pool, 'k', 'seed', scene(3), 2)).toEqual(sceneBlock(pool, 'k', 'seed', scene(3), 2));
  });

  it('hand out a block in turn, skipping what does not fit, and never reach into another scene', () => {
    const pool = ['a you', 'b', 'c', 'd'];
    const book = new LineBook('seed', scene(1));
    const block = sceneBlock(pool, 'k', 'seed', scene(1), 2);
    const first = book.take(pool, 'k', 2, (s) => !s.includes('you'));
    expect(block).toContain(first);
    const rest = book.take(pool, 'k', 2);
    expect(rest === undefined || block.includes(rest)).toBe(true);
    expect(book.take(pool, 'k', 2)).toBeUndefined();
  });

  it('keeps every stock pool large enough for a 24-scene episode', () => {
    for (const lines of Object.values(REGISTER_LINES)) expect(lines.length).toBeGreaterThanOrEqual(24);
    for (const pool of [REACTIONS.success, REACTIONS.fail, EXTRA_LINES, HOOKS, RHETORIC_ALL]) expect(pool.length).toBeGreaterThanOrEqual(24);
  });
});
