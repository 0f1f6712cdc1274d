import { sha256 } from '../../core/hash.js';
import { Rng } from '../../core/rng.js';
import type { ScenePacket } from '../../domain/packet.js';

/**
 * Stock dialogue that no two characters share, in an episode or across a season. Scenes are
 * written independently (and concurrently), and episodes months apart, so they cannot ask each
 * other what was said; instead every stock line has one owner for the season among the world's
 * characters (the packet's `voices`), chosen by rendezvous hashing on the seed, the pool and the
 * line: only its owner ever says it. A character may say one of their own lines again in a later
 * scene (a turn of phrase of theirs), never someone else's. A character added to the world takes
 * lines from the others without moving any other line.
 *
 * Older packets carry no `voices`: then each pool is shuffled once per episode and cut into
 * blocks, and a scene draws only from the block its number owns. A scene past the end of the pool
 * (more than 24 scenes) gets no block: the pool does not wrap and bring lines back.
 */

const owners = new Map<string, Map<string, string>>();

/** The owner of each line of `pool` among `voices` (memoised: a season asks the same pools often). */
function ownership(pool: readonly string[], key: string, seed: string, voices: readonly string[]): Map<string, string> {
  const memoKey = `${seed}\u0000${key}\u0000${voices.join(',')}\u0000${pool.length}\u0000${pool[0] ?? ''}`;
  const known = owners.get(memoKey);
  if (known) return known;
  const out = new Map<string, string>();
  for (const line of pool) {
    let best = '';
    let bestScore = '';
    for (const v of voices) {
      const score = sha256(`${seed}/${key}/${line}/${v}`);
      if (score > bestScore) [best, bestScore] = [v, score];
    }
    if (best) out.set(line, best);
  }
  if (owners.size > 256) owners.clear();
  owners.set(memoKey, out);
  return out;
}

/**
 * The lines of `pool` that `speaker` owns, in a seeded order that starts at a different place in
 * each scene of the season (so one character's scenes do not open on the same line of theirs).
 */
export function ownLines(pool: readonly string[], key: string, seed: string, pk: ScenePacket, speaker: string, voices = pk.voices ?? []): string[] {
  const own = ownership(pool, key, seed, voices);
  const mine = new Rng(seed).fork(`own/${key}/${speaker}`).shuffle(pool.filter((l) => own.get(l) === speaker));
  if (!mine.length) return [];
  const episode = Number(pk.episode_id.replace(/\D/g, '')) || 0;
  const start = (pk.number - 1 + episode * 7) % mine.length;
  return [...mine.slice(start), ...mine.slice(0, start)];
}

/**
 * The entries this scene owns in `pool` (perScene of them, in a seeded order), for `key` in this
 * episode, for packets without `voices`. Callers take the first that fits; with none fitting they
 * say something else, never a line from another scene's block.
 */
export function sceneBlock(pool: readonly string[], key: string, seed: string, pk: ScenePacket, perScene: number): string[] {
  const order = new Rng(seed).fork(`lines/${key}/${pk.episode_id}`).shuffle(pool);
  const start = (pk.number - 1) * perScene;
  return order.slice(start, start + perScene);
}

/** Hands out a scene's lines in turn, skipping the ones that do not fit or were said in this scene. */
export class LineBook {
  private readonly taken = new Map<string, number>();
  private readonly said = new Set<string>();
  constructor(
    private readonly seed: string,
    private readonly pk: ScenePacket,
  ) {}

  /**
   * The next unused line for `speaker` that fits; undefined when none is left. With the packet's
   * voices, only lines the speaker owns (none without a speaker); without, this scene's block.
   */
  take(pool: readonly string[], key: string, perScene: number, speaker: string | undefined, fits: (s: string) => boolean = () => true, voices = this.pk.voices): string | undefined {
    if (voices?.length) {
      if (!speaker) return undefined;
      const line = ownLines(pool, key, this.seed, this.pk, speaker, voices).find((l) => !this.said.has(l) && fits(l));
      if (line !== undefined) this.said.add(line);
      return line;
    }
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
