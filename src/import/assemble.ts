import { round } from '../core/json.js';
import { Rng } from '../core/rng.js';
import type { Character, Constraint, Faction, InWorldDate, SeasonGoals, Secret, Thread, World } from '../domain/world.js';
import type { SourcePerson, SourceTie } from './model.js';
import { slug } from './dprr/names.js';
import { officeInYear } from './dprr/offices.js';
import { inventBdi, inventStats, inventVoice, officeWords, standing } from './invent.js';
import { aucYear } from '../core/roman-date.js';
import type { StarterKit } from './kit.js';
import { castMapping as mapCast, uniqueCues } from './cast.js';
import { mergeTies, relationshipsOf } from './ties.js';
import { inventSecrets } from './secrets.js';
import { assetsOf } from './assets.js';
import { generationPoint } from './test-hook.js';
import { escapeRegExp } from '../core/regex.js';
import { compareText } from '../core/text-order.js';

export interface AssembleOptions {
  seed: string;
  /** How many of the (ranked) living persons are principals. */
  principals: number;
  date: InWorldDate;
  title: string;
  /** One sentence on where the data came from, appended to every description. */
  provenance: string;
  /** Minimum imported members for a gens to become its own faction. */
  gensThreshold?: number;
  /** Cap on gens factions (largest first); the rest fall back to the political groupings. */
  maxGensFactions?: number;
}

export interface AssembledWorld {
  world: World;
  seasonGoals: SeasonGoals;
  /** Starter principal id → imported character id, used to adapt threads and constraints. */
  castMapping: Record<string, string>;
  /** The kit's constraints left out: they name a starter character this cast has no one for. */
  droppedConstraints: string[];
  stats: { characters: number; principals: number; dead: number; factions: number; relationships: number; secrets: number };
}

const POLITICAL: Faction[] = [
  { id: 'optimates', name: 'Optimates', description: 'The "best men": the Senate\'s old families and their friends, who hold that the Republic is the Senate.', objectives: ['Defend the authority of the Senate', 'Block the agrarian and grain laws', 'Keep the consulship among the nobiles'] },
  { id: 'populares', name: 'Populares', description: 'Politicians who work through the tribunes and the popular assemblies rather than the Senate.', objectives: ['Pass a grain law through the assembly', 'Prosecute a corrupt governor', 'Restore the powers of the tribunes'] },
  { id: 'equites', name: 'Equites', description: 'The equestrian order: tax farmers, money-lenders and contractors, the Republic\'s money.', objectives: ['Keep the tax contracts of Asia', 'Keep equestrian jurors in the courts', 'Collect the debts senators owe'] },
];

/** Gens name from a nomen of either gender: Cornelius / Cornelia → Cornelia. */
export function gensName(nomen: string): string {
  const n = nomen.replace(/[^A-Za-z]/g, '');
  if (!n) return '';
  if (n.endsWith('ius')) return n.slice(0, -3) + 'ia';
  if (n.endsWith('ia')) return n;
  if (n.endsWith('us')) return n.slice(0, -2) + 'a';
  return n;
}

/**
 * Turn ranked source persons and ties into a complete World: characters with invented stats,
 * BDI and voices; factions (large gentes plus the political groupings); weighted edges; ledger,
 * goods, contracts and client networks; invented secrets; the starter kit's operators, locations,
 * metrics, threads and constraints adapted to this cast.
 */
export function assembleWorld(persons: SourcePerson[], ties: SourceTie[], kit: StarterKit, opts: AssembleOptions): AssembledWorld {
  const rng = new Rng(opts.seed);
  const ids = new Set(persons.map((p) => p.id));
  const living = persons.filter((p) => p.alive);
  const principalIds = new Set(living.slice(0, Math.max(0, opts.principals)).map((p) => p.id));
  const castMapping = mapCast(persons, living, principalIds, kit);
  const { factions, factionOf } = factionsOf(persons, opts, rng);

  const edges = mergeTies(ties, ids, rng.fork('ties'));
  const rank = new Map(persons.map((p, i) => [p.id, i]));
  const principalList = [...principalIds].sort((a, b) => rank.get(a)! - rank.get(b)!);
  const factionById = new Map(persons.map((p) => [p.id, factionOf(p)]));
  const relationships = relationshipsOf(edges, principalList, principalIds, factionById, rng);
  const byId = new Map(persons.map((p) => [p.id, p]));
  const secrets = inventSecrets(persons, relationships, principalIds, principalList, byId, rng.fork('secrets'));
  generationPoint('import-characters');
  const characters = charactersOf(persons, { kit, opts, rng, principalIds, factionById, relationships, secrets, cues: uniqueCues(persons) });
  const adapted = adaptKit(kit, castMapping, byId, opts);
  const world: World = {
    world: {
      $schema: kit.schemaRefs['world/world.json'],
      format: 1,
      title: opts.title,
      date: opts.date,
      days_per_episode: kit.world.days_per_episode,
      locations: kit.world.locations,
      travel: kit.world.travel,
      global: kit.world.global,
    },
    factions: { $schema: kit.schemaRefs['world/factions.json'], format: 1, factions },
    characters: { $schema: kit.schemaRefs['world/characters.json'], format: 1, characters },
    relationships: { $schema: kit.schemaRefs['world/relationships.json'], format: 1, relationships },
    assets: assetsOf(characters, factions, kit, ids, byId, rng),
    secrets: { $schema: kit.schemaRefs['world/secrets.json'], format: 1, secrets },
    threads: { $schema: kit.schemaRefs['world/threads.json'], format: 1, threads: adapted.threads },
    constraints: { $schema: kit.schemaRefs['world/constraints.json'], format: 1, constraints: adapted.constraints },
    operators: { ...kit.operators, $schema: kit.schemaRefs['operators/operators.json'] },
    canon: { $schema: kit.schemaRefs['world/canon.json'], format: 1, facts: [] },
  };
  const stats = { characters: characters.length, principals: principalIds.size, dead: characters.filter((c) => c.status === 'dead').length, factions: factions.length, relationships: relationships.length, secrets: secrets.length };
  return { world, seasonGoals: adapted.seasonGoals, castMapping, droppedConstraints: adapted.dropped, stats };
}

/** Factions: gentes with enough members of their own, everyone else by political leaning. */
function factionsOf(persons: SourcePerson[], opts: AssembleOptions, rng: Rng): { factions: Faction[]; factionOf: (p: SourcePerson) => string } {
  const threshold = opts.gensThreshold ?? 3;
  const gensCount = new Map<string, number>();
  for (const p of persons) {
    const g = gensName(p.nomen);
    if (g) gensCount.set(g, (gensCount.get(g) ?? 0) + 1);
  }
  const gentes = [...gensCount.entries()]
    .filter(([, n]) => n >= threshold)
    .sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))
    .slice(0, opts.maxGensFactions ?? 40)
    .map(([g]) => g);
  const gensFactions: Faction[] = gentes.map((g) => ({
    id: `gens_${slug(g)}`,
    name: `Gens ${g}`,
    description: `The ${g} family and its branches, who vote, marry and prosecute as one house.`,
    objectives: [`Return a ${g.replace(/ia$/, 'ius')} to the consulship`, 'Protect the family name in the courts', 'Marry the daughters of the gens into rising houses'],
  }));
  const gensIds = new Set(gentes);
  const factionOf = (p: SourcePerson): string => {
    const g = gensName(p.nomen);
    if (gensIds.has(g)) return `gens_${slug(g)}`;
    if (p.eques) return 'equites';
    if (p.novus || (p.tier === 'tribune' && !p.patrician)) return 'populares';
    if (p.patrician || p.nobilis) return 'optimates';
    return rng.fork(`faction/${p.id}`).next() < 0.5 ? 'optimates' : 'populares';
  };
  return { factions: [...POLITICAL, ...gensFactions], factionOf };
}

interface CharacterInputs {
  kit: StarterKit;
  opts: AssembleOptions;
  rng: Rng;
  principalIds: Set<string>;
  factionById: Map<string, string>;
  relationships: World['relationships']['relationships'];
  secrets: Secret[];
  cues: Map<string, string>;
}

/** Characters: the source persons with invented stats (by their ties), BDI (rival, the secrets they know) and voice. */
function charactersOf(persons: SourcePerson[], x: CharacterInputs): Character[] {
  const { kit, opts, rng, principalIds, factionById, cues } = x;
  const degree = new Map<string, number>();
  const rivalOf = new Map<string, string>();
  for (const e of x.relationships) {
    degree.set(e.from, (degree.get(e.from) ?? 0) + 1);
    if (e.weights.rivalry >= 0.3 && !rivalOf.has(e.from) && principalIds.has(e.to)) rivalOf.set(e.from, e.to);
  }
  const knows = new Map<string, string[]>();
  for (const s of x.secrets) for (const h of s.holders) knows.set(h, [...(knows.get(h) ?? []), `KNOWS:${s.id}`]);
  const location = kit.world.locations.find((l) => /forum/.test(l.id))?.id ?? kit.world.locations[0]?.id ?? 'forum';
  return persons.map((p) => {
    const r = rng.fork(`character/${p.id}`);
    const stats = inventStats(p, degree.get(p.id) ?? 0, r.fork('stats'));
    // Years of the City, not BC: a description can reach a scene's prose, where "63 BC" is an anachronism.
    const firstOffices = p.offices.slice(-4).map((o) => `${officeWords(o.name)} ${aucYear(-o.year)}`);
    const more = p.offices.length > 4 ? ` and ${p.offices.length - 4} earlier` : '';
    const career = p.offices.length ? `Offices (years of the City): ${firstOffices.join('; ')}${more}.` : 'No office on record.';
    const origin = p.origin ? ` From ${p.origin}.` : '';
    return {
      id: p.id,
      name: p.name,
      cue: cues.get(p.id)!,
      // DPRR records each person's sex; pronouns and forms of address follow it.
      gender: p.female ? 'female' : 'male',
      principal: principalIds.has(p.id),
      ...officeField(p, opts.date.year_bc),
      faction: factionById.get(p.id)!,
      status: p.alive ? 'alive' : 'dead',
      location,
      stats,
      bdi: inventBdi(p, r.fork('bdi'), { rival: p.alive ? rivalOf.get(p.id) : undefined, beliefs: p.alive ? (knows.get(p.id) ?? []) : [] }),
      voice: inventVoice(p, r.fork('voice')),
      description: `${p.name}, ${standing(p)}.${origin} ${career} ${p.source_ref}, attested in the years ${aucYear(-p.era[0])}–${p.era[1] === 0 ? '?' : aucYear(-p.era[1])} of the City. ${opts.provenance}`,
    };
  });

}

/** The kit's threads, constraints and season goals, re-cast onto the imported principals. */
function adaptKit(kit: StarterKit, castMapping: Record<string, string>, byId: Map<string, SourcePerson>, opts: AssembleOptions): { threads: Thread[]; constraints: Constraint[]; seasonGoals: SeasonGoals; dropped: string[] } {
  const starterById = new Map(kit.characters.map((c) => [c.id, c]));
  const renameText = (text: string): string => {
    let out = text;
    for (const [from, to] of Object.entries(castMapping)) {
      const sc = starterById.get(from)!;
      const tgt = byId.get(to)!;
      const tgtShort = tgt.cue.charAt(0) + tgt.cue.slice(1).toLowerCase();
      out = out.split(sc.name).join(tgt.name);
      const short = sc.cue.charAt(0) + sc.cue.slice(1).toLowerCase();
      if (short.length > 2) out = out.replace(new RegExp(`\\b${escapeRegExp(short)}\\b`, 'g'), tgtShort);
    }
    return out;
  };
  const threads: Thread[] = kit.threads.threads.map((t) => ({
    ...t,
    question: renameText(t.question),
    stakeholders: [...new Set(t.stakeholders.flatMap((id) => (castMapping[id] ? [castMapping[id]] : [])))],
  }));
  const recast: Constraint[] = kit.constraints.constraints.map((c) => ({
    ...c,
    expr: c.expr.replace(/'([a-z0-9_]+)'|"([a-z0-9_]+)"/g, (m, a: string | undefined, b: string | undefined) => {
      const id = a ?? b!;
      return castMapping[id] ? `'${castMapping[id]}'` : m;
    }),
    message: renameText(c.message),
  }));
  // A constraint about a starter character this cast has no one for ("Caesar lives" in a world of
  // three) says nothing about this world, and `validate` refuses a reference to a missing character
  // (AUR2008): it is left out, and NOTICE.md lists it, as the unmapped are left out of threads.
  const constraints = recast.filter((c) => [...c.expr.matchAll(CHAR_REF)].every((m) => byId.has(m[2]!)));
  const dropped = recast.filter((c) => !constraints.includes(c)).map((c) => c.id);

  const seasonGoals: SeasonGoals = { ...kit.seasonGoals, title: `${kit.seasonGoals.title} (${opts.title})`, logline: renameText(kit.seasonGoals.logline), goals: kit.seasonGoals.goals.map((g) => ({ ...g, text: renameText(g.text) })) };
  return { threads, constraints, seasonGoals, dropped };
}

/** A character named in a constraint: char('id') or char("id"). */
const CHAR_REF = /\bchar\(\s*(['"])([a-z0-9_]+)\1\s*\)/g;

/** The office held in the world's year, when the source records one (prose titles: "the consul"). */
function officeField(p: SourcePerson, yearBc: number): { office?: string } {
  const office = p.alive ? officeInYear(p.offices, yearBc) : undefined;
  return office ? { office } : {};
}
