import type { World } from '../../domain/world.js';
import type { LexiconEntry } from '../e-writer/types.js';
import type { KnownCharacter, VerifyContext } from './context.js';

/**
 * Shortest travel days between locations over the world's symmetric travel edges (Floyd-Warshall;
 * worlds have a few dozen locations). Unknown pairs give undefined: no teleport finding is made
 * without evidence.
 */
export function travelMatrix(world: Pick<World, 'world'>): (from: string, to: string) => number | undefined {
  const ids = world.world.locations.map((l) => l.id);
  const idx = new Map(ids.map((id, i) => [id, i]));
  const n = ids.length;
  const d: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 0 : Infinity)));
  for (const e of world.world.travel) {
    const a = idx.get(e.from);
    const b = idx.get(e.to);
    if (a === undefined || b === undefined) continue;
    d[a][b] = Math.min(d[a][b], e.days);
    d[b][a] = Math.min(d[b][a], e.days);
  }
  for (let k = 0; k < n; k++) for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (d[i][k] + d[k][j] < d[i][j]) d[i][j] = d[i][k] + d[k][j];
  return (from, to) => {
    if (from === to) return 0;
    const a = idx.get(from);
    const b = idx.get(to);
    if (a === undefined || b === undefined) return undefined;
    return Number.isFinite(d[a][b]) ? d[a][b] : undefined;
  };
}

export function knownCharacters(world: Pick<World, 'characters'>): KnownCharacter[] {
  return world.characters.characters.map((c) => ({ id: c.id, name: c.name, cue: c.cue, status: c.status, location: c.location, ...(c.office ? { office: c.office } : {}) }));
}

/** Everything but the packet: what the pipeline verifies each scene against. */
export function worldVerifyContext(world: World, lexicon: LexiconEntry[]): Omit<VerifyContext, 'packet'> {
  const operators = (world.operators?.operators ?? []).map((o) => ({ id: o.id, name: o.name, descriptions: [o.writer_guidance?.success_beat, o.writer_guidance?.fail_beat].filter((d): d is string => !!d) }));
  return { lexicon, travelDays: travelMatrix(world), characters: knownCharacters(world), canon: world.canon?.facts ?? [], operators };
}
