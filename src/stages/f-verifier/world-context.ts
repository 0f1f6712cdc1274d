import type { World } from '../../domain/world.js';
import type { LexiconEntry } from '../e-writer/types.js';
import type { KnownCharacter, VerifyContext } from './context.js';

/** The parts of a world the verifier reads: plain data, which a worker thread can be sent (stages/verify-pool.ts). */
export interface WorldVerifySource {
  world: Pick<World['world'], 'locations' | 'travel'>;
  characters: Pick<World['characters'], 'characters'>;
  canon?: Pick<World['canon'], 'facts'>;
  operators?: Pick<World['operators'], 'operators'>;
}

/** An episode's base context as data: the world's parts, the lexicon, the plan's prerequisites, the word floor. */
export interface VerifyBaseSpec {
  world: WorldVerifySource;
  lexicon: LexiconEntry[];
  prereqs: Record<string, { expr: string; holds: boolean }[]>;
  min_scene_words?: number;
}

/** Those parts of a world, and nothing else (the rest of a large world is not copied to a worker). */
export function verifySource(world: World): WorldVerifySource {
  return {
    world: { locations: world.world.locations, travel: world.world.travel },
    characters: { characters: world.characters.characters },
    ...(world.canon ? { canon: { facts: world.canon.facts } } : {}),
    ...(world.operators ? { operators: { operators: world.operators.operators } } : {}),
  };
}

/**
 * Shortest travel days between locations over the world's symmetric travel edges (Floyd-Warshall;
 * worlds have a few dozen locations). Unknown pairs give undefined: no teleport finding is made
 * without evidence.
 */
export function travelMatrix(world: Pick<WorldVerifySource, 'world'>): (from: string, to: string) => number | undefined {
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

export function knownCharacters(world: Pick<WorldVerifySource, 'characters'>): KnownCharacter[] {
  return world.characters.characters.map((c) => ({ id: c.id, name: c.name, cue: c.cue, status: c.status, location: c.location, ...(c.office ? { office: c.office } : {}) }));
}

/** Everything but the packet: what the pipeline verifies each scene against. */
export function worldVerifyContext(world: WorldVerifySource, lexicon: LexiconEntry[]): Omit<VerifyContext, 'packet'> {
  const operators = (world.operators?.operators ?? []).map((o) => ({ id: o.id, name: o.name, descriptions: [o.writer_guidance?.success_beat, o.writer_guidance?.fail_beat].filter((d): d is string => !!d) }));
  return { lexicon, travelDays: travelMatrix(world), characters: knownCharacters(world), canon: world.canon?.facts ?? [], operators };
}

/** The context every scene of an episode is verified against, but its packet: the same in the main thread and in a worker. */
export function verifyBase(spec: VerifyBaseSpec): Omit<VerifyContext, 'packet'> {
  return { ...worldVerifyContext(spec.world, spec.lexicon), prereqs: spec.prereqs, ...(spec.min_scene_words !== undefined ? { min_scene_words: spec.min_scene_words } : {}) };
}
