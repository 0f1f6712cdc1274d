import { afterAll, describe, expect, it } from 'vitest';
import { loadValidatedWorld } from '../../src/store/validate.js';
import { episodeRef } from '../../src/domain/context.js';
import type { World } from '../../src/domain/world.js';
import { hashValue, sha256 } from '../../src/core/hash.js';
import { StateHasher, stateHash } from '../../src/core/state-hash.js';
import { deriveSeed } from '../../src/pipeline/seed.js';
import { planEpisode } from '../../src/stages/planning.js';
import { cleanup, makeWorld } from './world.js';

afterAll(cleanup);

/**
 * The default seed's hash of the world is taken by planning's state hasher (issue 18), which then
 * gives stage A its state hash from the same chunk digests. The seed must stay the one defined by
 * hashValue, and a world changed after the seed must never get the state hash of the world before.
 */
describe('the default seed and stage A share one hash of the world', () => {
  it('derives the defined seed and the same plan with the shared hasher as without it', async () => {
    const root = await makeWorld('seed-shared');
    const { world } = await loadValidatedWorld(root);
    const ref = episodeRef(1, 1);
    const hasher = new StateHasher();
    const seed = deriveSeed(ref, null, world, hasher);
    expect(seed).toBe(sha256(`aureus/s01e01\nworld:${hashValue(world)}`).slice(0, 12));
    expect(deriveSeed(ref, null, world)).toBe(seed);
    // With a previous cliffhanger the world is not hashed: the cliffhanger's text is the basis.
    expect(deriveSeed(episodeRef(1, 2), '{"kind":"revelation"}', world, new StateHasher())).toBe(sha256('aureus/s01e02\n{"kind":"revelation"}').slice(0, 12));

    const shared = await planEpisode({ world, ref, seed, previousCliffhanger: null, hasher });
    const fresh = await planEpisode({ world, ref, seed, previousCliffhanger: null });
    expect(shared.context.state_hash).toBe(stateHash(world));
    expect(shared).toEqual(fresh);
  }, 120_000);

  it('gives a world changed after the seed (copy-on-write) its own seed and state hash', async () => {
    const root = await makeWorld('seed-changed');
    const { world } = await loadValidatedWorld(root);
    const ref = episodeRef(1, 1);
    const hasher = new StateHasher();
    const seed = deriveSeed(ref, null, world, hasher);
    const before = stateHash(world);

    // One character replaced by a changed copy, in a new list; every other element and file shared.
    const chars = world.characters.characters.slice();
    const i = chars.length - 1;
    chars[i] = { ...chars[i]!, name: `${chars[i]!.name} the Younger` };
    const changed: World = { ...world, characters: { ...world.characters, characters: chars } };
    const after = stateHash(changed);
    expect(after).not.toBe(before);

    // The same hasher, as stage A would use it after a change: the changed world's values, not the cached ones.
    const plan = await planEpisode({ world: changed, ref, seed, previousCliffhanger: null, hasher });
    expect(plan.context.state_hash).toBe(after);
    expect(deriveSeed(ref, null, changed, hasher)).toBe(deriveSeed(ref, null, changed));
    expect(deriveSeed(ref, null, changed)).not.toBe(seed);
    // And the first world again, through the same hasher: its own hashes still.
    expect(hasher.hash(world)).toBe(before);
    expect(hasher.flatHash(world)).toBe(hashValue(world));
  }, 120_000);
});
