import type { ScenePacket, VoiceSeats } from '../../domain/packet.js';
import type { World } from '../../domain/world.js';

/**
 * The offline writer deals its stock lines round every character of the world, by sorted id, so
 * no two characters ever say the same line in a season (providers/offline/writer-lines.ts). A
 * packet used to carry that whole list (`voices`); it now carries only the seats of the characters
 * it names (`voice_seats`). Why (issue 18): the list grew with the world, 10,001 ids and ~250 KB of
 * every packet at 10,000 characters, written with every plan and committed with every episode,
 * while the writer, which reads nothing but its packet, can only ever ask for an id the packet names.
 */

/** Every character id of the world, sorted, with its seat: the first, should an invalid world repeat an id (as indexOf found it). */
export interface SeatTable {
  count: number;
  seats: ReadonlyMap<string, number>;
}

export function seatTable(world: World): SeatTable {
  const ids = world.characters.characters.map((c) => c.id).sort();
  const seats = new Map<string, number>();
  ids.forEach((id, i) => {
    if (!seats.has(id)) seats.set(id, i);
  });
  return { count: ids.length, seats };
}

/**
 * The seats of every character id the packet names: any string in it, as a value or a key, that is
 * a character id (the cast, the subgraph, the instructions' bindings, the deltas, what was pruned).
 * Naming more than the writer asks for costs a few bytes; naming less would change who owns a line.
 */
export function voiceSeats(packet: Omit<ScenePacket, 'voice_seats' | 'voices'>, table: SeatTable): VoiceSeats {
  const named = new Map<string, number>();
  const see = (s: string) => {
    const at = table.seats.get(s);
    if (at !== undefined) named.set(s, at);
  };
  const walk = (v: unknown): void => {
    if (typeof v === 'string') see(v);
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        see(k);
        walk(x);
      }
    }
  };
  walk(packet);
  return { count: table.count, at: Object.fromEntries([...named].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
}
