import type { World } from '../../domain/world.js';
import type { LexiconEntry } from '../e-writer/types.js';
import type { KnownCharacter, VerifyContext } from './context.js';

/** A list of entities as the verifier needs it: their ids. */
type Ids = readonly { id: string }[];

/** The parts of a world the verifier reads: plain data, which a worker thread can be sent (stages/verify-pool.ts). */
export interface WorldVerifySource {
  world: Pick<World['world'], 'locations' | 'travel'>;
  characters: Pick<World['characters'], 'characters'>;
  canon?: Pick<World['canon'], 'facts'>;
  operators?: Pick<World['operators'], 'operators'>;
  /** The family ties among the relationships (flags married, sibling): who "Cicero's wife" is (prose/names.ts). Only those are sent. */
  relationships?: { relationships: Edges };
  /**
   * The other entities a canon fact's subject may name (ids are enough). With the characters and
   * locations, every id store/references.ts accepts as a subject; absent, subjects are not judged.
   */
  factions?: { factions: Ids };
  secrets?: { secrets: Ids };
  threads?: { threads: Ids };
  assets?: { cash_ledger: Ids; goods: Ids; contracts: Ids; networks: Ids };
}

/** Relationship edges as the verifier reads them: their ends and flags. */
type Edges = readonly { from: string; to: string; flags?: readonly string[] }[];

const idsOf = (list: Ids): { id: string }[] => list.map((e) => ({ id: e.id }));

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
    ...(world.relationships ? { relationships: { relationships: kinEdges(world.relationships.relationships) } } : {}),
    ...subjectSource(world),
  };
}

/** The flags of a family tie the prose may name someone by ("Cicero's wife", "Servilia's half-brother"). */
const KIN_FLAGS = ['married', 'sibling'];

/** The edges flagged married or sibling, ends and those flags only (a worker is sent these, not the world's 35,000 relationships). */
function kinEdges(rels: Edges): { from: string; to: string; flags: string[] }[] {
  return rels.flatMap((r) => {
    const flags = (r.flags ?? []).filter((f) => KIN_FLAGS.includes(f));
    return flags.length ? [{ from: r.from, to: r.to, flags }] : [];
  });
}

/** The words for a tie, by the gender of the one it names: a spouse or a sibling (half-siblings are siblings). */
const KIN_WORDS: Record<string, Record<'male' | 'female', string[]>> = {
  married: { male: ['husband'], female: ['wife'] },
  sibling: { male: ['brother', 'half-brother'], female: ['sister', 'half-sister'] },
};

/**
 * Each character's relatives by the word the prose may call them ("Cicero's wife" is Terentia,
 * "Servilia's half-brother" Cato): from the edges flagged married or sibling, either way round, the
 * word chosen by the relative's gender (both words when it is not known). A word that fits two
 * people names neither (the prose's "his brother" could be either).
 */
export function relativesOf(rels: Edges, characters: readonly { id: string; gender?: string }[]): ReadonlyMap<string, ReadonlyMap<string, string>> {
  const gender = new Map(characters.map((c) => [c.id, c.gender]));
  const seen = new Map<string, Map<string, string | null>>();
  const note = (of: string, who: string, flag: string) => {
    const g = gender.get(who);
    const words = g === 'male' || g === 'female' ? KIN_WORDS[flag]![g] : [...KIN_WORDS[flag]!.male, ...KIN_WORDS[flag]!.female];
    const mine = seen.get(of) ?? seen.set(of, new Map()).get(of)!;
    for (const w of words) mine.set(w, mine.has(w) && mine.get(w) !== who ? null : who);
  };
  for (const r of rels) {
    if (r.from === r.to) continue;
    for (const flag of (r.flags ?? []).filter((f) => KIN_FLAGS.includes(f))) {
      note(r.from, r.to, flag);
      note(r.to, r.from, flag);
    }
  }
  return new Map([...seen].map(([id, words]) => [id, new Map([...words].filter((e): e is [string, string] => e[1] !== null))]));
}

/** The other entities a subject may name, ids only (a worker is sent the ids, not every secret's text); none from a partial world. */
function subjectSource(world: Partial<World>): Pick<WorldVerifySource, 'factions' | 'secrets' | 'threads' | 'assets'> {
  const { factions: f, secrets: s, threads: t, assets: a } = world;
  if (!f || !s || !t || !a) return {};
  return {
    factions: { factions: idsOf(f.factions) },
    secrets: { secrets: idsOf(s.secrets) },
    threads: { threads: idsOf(t.threads) },
    assets: { cash_ledger: idsOf(a.cash_ledger), goods: idsOf(a.goods), contracts: idsOf(a.contracts), networks: idsOf(a.networks) },
  };
}

/**
 * Every id a canon fact's subject may name (store/references.ts checks canon.json against the same
 * entities: AUR1022 for any other), or undefined when the source lacks some of them.
 */
export function canonSubjects(w: WorldVerifySource): ReadonlySet<string> | undefined {
  if (!w.factions || !w.secrets || !w.threads || !w.assets) return undefined;
  const a = w.assets;
  const lists: Ids[] = [w.characters.characters, w.world.locations, w.factions.factions, w.secrets.secrets, w.threads.threads, a.cash_ledger, a.goods, a.contracts, a.networks];
  const ids = new Set<string>();
  for (const list of lists) for (const e of list) ids.add(e.id);
  return ids;
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
  return world.characters.characters.map((c) => ({ id: c.id, name: c.name, cue: c.cue, status: c.status, location: c.location, ...(c.office ? { office: c.office } : {}), ...(c.gender ? { gender: c.gender } : {}) }));
}

/**
 * What the parts of a world at hand give the verifier, but the packet and the lexicon: the one
 * builder of the pipeline's context (worldVerifyContext, every part) and of `scene verify`'s
 * (load.ts loadWorldContext, the parts it could read), so the CLI judges an answer as the pipeline
 * does (held-out corpus 4, z08: the CLI's own copy once dropped the characters' office and gender).
 */
export function worldPartsContext(w: Partial<WorldVerifySource>): Omit<VerifyContext, 'packet' | 'lexicon'> {
  const subjects = w.world && w.characters ? canonSubjects(w as WorldVerifySource) : undefined;
  return {
    ...(w.world ? { travelDays: travelMatrix({ world: w.world }), locations: w.world.locations.map((l) => ({ id: l.id, name: l.name })) } : {}),
    ...(w.characters ? { characters: knownCharacters({ characters: w.characters }) } : {}),
    ...(w.canon ? { canon: w.canon.facts } : {}),
    ...(w.operators ? { operators: w.operators.operators.map(operatorContext) } : {}),
    ...(subjects ? { subjects } : {}),
    ...(w.relationships ? { relatives: relativesOf(w.relationships.relationships, w.characters?.characters ?? []) } : {}),
  };
}

/** An operator as the verifier reads it: names, its directives (together for resolving a name, apart for success words), its role names. */
function operatorContext(o: World['operators']['operators'][number]): NonNullable<VerifyContext['operators']>[number] {
  const g = o.writer_guidance;
  return {
    id: o.id,
    name: o.name,
    descriptions: [g?.success_beat, g?.fail_beat].filter((d): d is string => !!d),
    ...(g?.success_beat ? { success: g.success_beat } : {}),
    ...(g?.fail_beat ? { fail: g.fail_beat } : {}),
    roles: Object.keys(o.roles ?? {}),
    ...((o.effects ?? []).some((e) => e.op === 'transfer' && e.path === 'assets.cash_ledger' && e.to === 'actor') ? { enriches: true } : {}),
  };
}

/** Everything but the packet: what the pipeline verifies each scene against (a world without canon or operators gives empty lists). */
export function worldVerifyContext(world: WorldVerifySource, lexicon: LexiconEntry[]): Omit<VerifyContext, 'packet'> {
  return { lexicon, canon: [], operators: [], ...worldPartsContext(world) };
}

/** The context every scene of an episode is verified against, but its packet: the same in the main thread and in a worker. */
export function verifyBase(spec: VerifyBaseSpec): Omit<VerifyContext, 'packet'> {
  return { ...worldVerifyContext(spec.world, spec.lexicon), prereqs: spec.prereqs, ...(spec.min_scene_words !== undefined ? { min_scene_words: spec.min_scene_words } : {}) };
}
