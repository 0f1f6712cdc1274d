import { Rng } from '../../core/rng.js';
import type { ScenePacket } from '../../domain/packet.js';

/**
 * Stock dialogue that no two scenes of an episode share. Scenes are written independently (and
 * concurrently), so they cannot ask each other what was said; instead each pool is shuffled once
 * per episode and cut into blocks, and a scene draws only from the block its number owns. Two
 * different scenes never draw the same entry, so no line comes back in another mouth, as long as
 * the pool holds `perScene` entries for every scene of the episode (the pools hold 24 or more).
 */

/**
 * The entries this scene owns in `pool` (perScene of them, in a seeded order), for `key` in this
 * episode. Callers take the first that fits; with none fitting they say something else, never a
 * line from another scene's block.
 */
export function sceneBlock(pool: readonly string[], key: string, seed: string, pk: ScenePacket, perScene: number): string[] {
  const order = new Rng(seed).fork(`lines/${key}/${pk.episode_id}`).shuffle(pool);
  const start = ((pk.number - 1) * perScene) % Math.max(1, order.length);
  const out: string[] = [];
  for (let i = 0; i < perScene && i < order.length; i++) out.push(order[(start + i) % order.length]!);
  return out;
}

/** Hands out a scene's block entries in turn, skipping the ones that do not fit. */
export class LineBook {
  private readonly taken = new Map<string, number>();
  constructor(
    private readonly seed: string,
    private readonly pk: ScenePacket,
  ) {}

  /** The next unused entry of this scene's block that fits; undefined when none is left. */
  take(pool: readonly string[], key: string, perScene: number, fits: (s: string) => boolean = () => true): string | undefined {
    const block = sceneBlock(pool, key, this.seed, this.pk, perScene);
    const from = this.taken.get(key) ?? 0;
    for (let i = from; i < block.length; i++) {
      if (!fits(block[i]!)) continue;
      this.taken.set(key, i + 1);
      return block[i];
    }
    return undefined;
  }
}
