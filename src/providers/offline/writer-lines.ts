import { Rng } from '../../core/rng.js';
import type { ScenePacket } from '../../domain/packet.js';

/**
 * Stock dialogue that no two characters share, in an episode or across a season. Scenes are
 * written independently (and concurrently), and episodes months apart, so they cannot ask each
 * other what was said; instead every stock line has one owner for the season among the world's
 * characters (dealt round their ids, sorted, like cards): only its owner ever says it. A
 * character may say one of their own lines again in a later scene (a turn of phrase of theirs),
 * never someone else's; with none of theirs left for the scene they say something else.
 *
 * Where a character sits at that table comes from the packet: `voice_seats` (each character it
 * names, with their seat, and how many seats there are), or the whole sorted list, `voices`, in
 * packets written before the seats. Older packets still carry neither: then each pool is shuffled
 * once per episode and cut into blocks, and a scene draws only from the block its number owns. A
 * scene past the end of the pool (more than 24 scenes) gets no block: the pool does not wrap and
 * bring lines back.
 */

/** The table stock lines are dealt round: how many seats, and a character's seat (-1: none). */
export interface Seats {
  readonly count: number;
  seatOf(id: string): number;
}

/** Seats round a sorted list of names (an older packet's `voices`, the extras' names). */
export function listSeats(list: readonly string[]): Seats {
  return { count: list.length, seatOf: (id) => list.indexOf(id) };
}

/** The packet's seats: its `voice_seats`, else its `voices` list; undefined for a packet with neither. */
export function packetSeats(pk: ScenePacket): Seats | undefined {
  const v = pk.voice_seats;
  if (v && v.count > 0) return { count: v.count, seatOf: (id) => (Object.hasOwn(v.at, id) ? v.at[id]! : -1) };
  return pk.voices?.length ? listSeats(pk.voices) : undefined;
}

/** How often one character may say one of their own lines in an episode (then they say something else). */
export const LAPS_PER_EPISODE = 3;

/**
 * The lines of `pool` that `speaker` owns: the pool in a seeded order (the same all season) dealt
 * round the seats like cards, so each character owns one line in every `seats.count`.
 */
function owned(pool: readonly string[], key: string, seed: string, seats: Seats, speaker: string): string[] {
  const at = seats.seatOf(speaker);
  if (at < 0) return [];
  return new Rng(seed).fork(`own/${key}`).shuffle(pool).filter((_, i) => i % seats.count === at);
}

/**
 * The one line of theirs `speaker` may say in this scene for `key` (or none): the walk through their
 * lines starts at another place each episode and steps one line per scene, and stops after
 * LAPS_PER_EPISODE laps, so a character who is in every scene does not say the same thing all episode.
 */
export function ownLines(pool: readonly string[], key: string, seed: string, pk: ScenePacket, speaker: string, seats = packetSeats(pk)): string[] {
  const line = seats ? turnOf(owned(pool, key, seed, seats, speaker), pk) : undefined;
  return line === undefined ? [] : [line];
}

/** This scene's turn in a character's own list of lines (see ownLines); none past the laps. */
export function turnOf<T>(mine: readonly T[], pk: ScenePacket): T | undefined {
  if (!mine.length || pk.number - 1 >= LAPS_PER_EPISODE * mine.length) return undefined;
  const episode = Number(pk.episode_id.replace(/\D/g, '')) || 0;
  return mine[(pk.number - 1 + episode * 7) % mine.length];
}

/**
 * The entries this scene owns in `pool` (perScene of them, in a seeded order), for `key` in this
 * episode, for packets without seats. Callers take the first that fits; with none fitting they
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
   * The next unused line for `speaker` that fits; undefined when none is left. With seats (the
   * packet's, or `seats` given), only lines the speaker owns (none without a speaker); without, this
   * scene's block.
   */
  take(pool: readonly string[], key: string, perScene: number, speaker: string | undefined, fits: (s: string) => boolean = () => true, seats = packetSeats(this.pk)): string | undefined {
    if (seats) {
      if (!speaker) return undefined;
      const line = ownLines(pool, key, this.seed, this.pk, speaker, seats).find((l) => !this.said.has(l) && fits(l));
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
