import type { ResolvedDelta } from '../domain/delta.js';
import type { World } from '../domain/world.js';

/**
 * Consequences that land (docs/planning.md, "Season model"): when a move kills, exiles or
 * imprisons a character, the world follows the invariants — the fallen stop intending anything,
 * their secrets lose a holder who can still tell them, and the exiled leave the city. These deltas
 * ride with the move that caused them, so the plan, the verifier and stage H all see the same fall.
 */
export const FALLEN_STATUSES = ['dead', 'exiled', 'imprisoned'] as const;

/** Where the exiled go when the world does not say: the most distant place of the map (by id order on ties). */
function exilePlace(world: World, from: string): string | null {
  const places = world.world.locations ?? [];
  const far = places.filter((l) => l.id !== from && /camp|port/.test(l.setting));
  return (far.length ? far : places.filter((l) => l.id !== from)).map((l) => l.id).sort()[0] ?? null;
}

/** The cascade of the status changes among `deltas`, judged on `world` (the world before the move). */
export function cascadeDeltas(world: World, deltas: readonly ResolvedDelta[]): ResolvedDelta[] {
  const out: ResolvedDelta[] = [];
  for (const d of deltas) {
    const m = /^characters\.([a-z0-9_]+)\.status$/.exec(d.path);
    if (!m || d.op !== 'set' || !(FALLEN_STATUSES as readonly string[]).includes(String(d.value))) continue;
    const id = m[1]!;
    const c = world.characters.characters.find((x) => x.id === id);
    if (!c || c.status !== 'alive') continue;
    for (const i of c.bdi?.intentions ?? []) out.push({ path: `characters.${id}.bdi.intentions`, op: 'subtract', value: i });
    // The dead keep no secret; the exiled and imprisoned still know it but can no longer use it here.
    if (d.value === 'dead') {
      for (const s of world.secrets.secrets) if (s.holders.includes(id)) out.push({ path: `secrets.${s.id}.holders`, op: 'subtract', value: id });
    }
    const explicitMove = deltas.some((x) => x.path === `characters.${id}.location`);
    if (d.value === 'exiled' && !explicitMove) {
      const to = exilePlace(world, c.location);
      if (to) out.push({ path: `characters.${id}.location`, op: 'set', value: to });
    }
  }
  return out;
}
