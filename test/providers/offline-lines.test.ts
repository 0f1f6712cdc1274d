import { describe, expect, it } from 'vitest';
import { LineBook, ownLines, sceneBlock } from '../../src/providers/offline/writer-lines.js';
import { REGISTER_LINES, REACTIONS, EXTRA_LINES, HOOKS, RHETORIC_ALL } from '../../src/providers/offline/writer-phrases.js';
import type { ScenePacket } from '../../src/domain/packet.js';

const scene = (number: number, episode = 's01e01', voices?: string[]) => ({ number, episode_id: episode, ...(voices ? { voices } : {}) }) as ScenePacket;
const VOICES = ['caesar', 'cato', 'cicero', 'crassus', 'servilia', 'terentia'];

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
    const first = book.take(pool, 'k', 2, undefined, (s) => !s.includes('you'));
    expect(block).toContain(first);
    const rest = book.take(pool, 'k', 2, undefined);
    expect(rest === undefined || block.includes(rest)).toBe(true);
    expect(book.take(pool, 'k', 2, undefined)).toBeUndefined();
  });

  it('keeps every stock pool large enough for a 24-scene episode', () => {
    for (const lines of Object.values(REGISTER_LINES)) expect(lines.length).toBeGreaterThanOrEqual(24);
    for (const pool of [REACTIONS.success, REACTIONS.fail, EXTRA_LINES, HOOKS, RHETORIC_ALL]) expect(pool.length).toBeGreaterThanOrEqual(24);
  });

  it('never wrap: a scene past the end of the pool (more than 24 scenes) gets no block, not an earlier scene\'s', () => {
    const pool = Array.from({ length: 24 }, (_, i) => `line ${i}`);
    const drawn = Array.from({ length: 30 }, (_, i) => new LineBook('seed', scene(i + 1)).take(pool, 'k', 1, undefined));
    expect(drawn.slice(24)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
    expect(new Set(drawn.slice(0, 24)).size).toBe(24);
  });
});

describe('stock lines owned by one character for the season (packet voices)', () => {
  it('give every line of a pool exactly one owner, the same in every scene and episode', () => {
    const pool = REACTIONS.success;
    const all = (episode: string, v: string) => new Set(Array.from({ length: 24 }, (_, n) => ownLines(pool, 'reaction/success', 'seed', scene(n + 1, episode, VOICES), v)).flat());
    const owned = VOICES.map((v) => [...all('s01e01', v)].sort());
    expect(owned.flat().sort()).toEqual([...pool].sort());
    for (const [i, v] of VOICES.entries()) expect([...all('s01e09', v)].sort()).toEqual(owned[i]);
    // Another seed shares the lines out differently.
    expect(VOICES.map((v) => ownLines(pool, 'reaction/success', 'other', scene(1, 's01e01', VOICES), v))).not.toEqual(owned);
  });

  it('across 12 episodes of 30 scenes, no line in two mouths, each scene never repeating itself', () => {
    const saidBy = new Map<string, string>();
    for (let e = 1; e <= 12; e++) {
      for (let n = 1; n <= 30; n++) {
        const book = new LineBook('seed', scene(n, `s01e${String(e).padStart(2, '0')}`, VOICES));
        const inScene: string[] = [];
        for (let k = 0; k < 4; k++) {
          const who = VOICES[(n + e + k) % VOICES.length]!;
          for (const [pool, key] of [[HOOKS, 'hook'], [RHETORIC_ALL, 'rhetoric'], [REGISTER_LINES.patrician, 'register/patrician']] as const) {
            const line = book.take(pool, key, 1, who);
            if (line === undefined) continue;
            expect(saidBy.get(line) ?? who).toBe(who);
            saidBy.set(line, who);
            if (VOICES.indexOf(who) === (n + e) % VOICES.length) inScene.push(line);
          }
        }
        expect(new Set(inScene).size).toBe(inScene.length);
      }
    }
    expect(saidBy.size).toBeGreaterThan(50);
    // Nobody speaks a stock line without a speaker once the world's voices are known.
    expect(new LineBook('seed', scene(1, 's01e01', VOICES)).take(HOOKS, 'hook', 1, undefined)).toBeUndefined();
  });
});
