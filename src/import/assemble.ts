import { round } from '../core/json.js';
import { Rng } from '../core/rng.js';
import type {
  AssetsFile, Character, ClientNetwork, Constraint, Contract, Faction, Good, InWorldDate, LedgerAccount, Relationship,
  SeasonGoals, Secret, Thread, WeightName, World,
} from '../domain/world.js';
import { WEIGHT_NAMES } from '../domain/world.js';
import type { SourcePerson, SourceTie } from './model.js';
import { slug } from './dprr/names.js';
import { denariiFor, inventBdi, inventStats, inventVoice, SECRET_TEMPLATES, standing } from './invent.js';
import type { StarterKit } from './kit.js';

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
  stats: { characters: number; principals: number; dead: number; factions: number; relationships: number; secrets: number };
}

const POLITICAL: Faction[] = [
  { id: 'optimates', name: 'Optimates', description: 'The "best men": the Senate\'s old families and their friends, who hold that the Republic is the Senate.', objectives: ['Defend the authority of the Senate', 'Block the agrarian and grain laws', 'Keep the consulship among the nobiles'] },
  { id: 'populares', name: 'Populares', description: 'Politicians who work through the tribunes and the popular assemblies rather than the Senate.', objectives: ['Pass a grain law through the assembly', 'Prosecute a corrupt governor', 'Restore the powers of the tribunes'] },
  { id: 'equites', name: 'Equites', description: 'The equestrian order: tax farmers, bankers and contractors, the Republic\'s money.', objectives: ['Keep the tax contracts of Asia', 'Keep equestrian jurors in the courts', 'Collect the debts senators owe'] },
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

function uniqueCues(persons: SourcePerson[]): Map<string, string> {
  const used = new Set<string>();
  const out = new Map<string, string>();
  const roman = ['II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'];
  for (const p of persons) {
    let cue = p.cue;
    if (used.has(cue)) cue = p.longCue;
    for (let i = 0; used.has(cue); i++) cue = i < roman.length ? `${p.longCue} ${roman[i]}` : `${p.longCue} ${i + 2}`;
    used.add(cue);
    out.set(p.id, cue);
  }
  return out;
}

function mergeTies(ties: SourceTie[], ids: Set<string>, rng: Rng): Map<string, Relationship> {
  const edges = new Map<string, Relationship>();
  for (const t of ties) {
    if (!ids.has(t.from) || !ids.has(t.to) || t.from === t.to) continue;
    const key = `${t.from}\u0000${t.to}`;
    let e = edges.get(key);
    if (!e) {
      e = { from: t.from, to: t.to, weights: Object.fromEntries(WEIGHT_NAMES.map((w) => [w, 0])) as Record<WeightName, number>, flags: [] };
      edges.set(key, e);
    }
    for (const [w, v] of Object.entries(t.weights) as [WeightName, number][]) e.weights[w] = Math.max(e.weights[w], v);
    for (const f of t.flags) if (!e.flags.includes(f)) e.flags.push(f);
  }
  // A little seeded noise, so two brothers of the same father are not carbon copies.
  for (const e of edges.values()) {
    const r = rng.fork(`edge/${e.from}/${e.to}`);
    for (const w of WEIGHT_NAMES) {
      const v = e.weights[w];
      e.weights[w] = v === 0 ? 0 : round(Math.max(0, Math.min(1, v + (r.next() - 0.5) * 0.16)), 2);
    }
    e.flags.sort();
  }
  return edges;
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
  const cues = uniqueCues(persons);
  const living = persons.filter((p) => p.alive);
  const principalIds = new Set(living.slice(0, Math.max(0, opts.principals)).map((p) => p.id));

  // Starter threads and constraints name the starter cast: map it onto this cast. A historical
  // namesake among the living (the kit's Cicero → DPRR's M. Tullius Cicero) is promoted to principal
  // in place of the lowest-ranked principal; the rest map to the next principals by rank.
  const castMapping: Record<string, string> = {};
  const starterCast = kit.characters.filter((c) => c.principal).concat(kit.characters.filter((c) => !c.principal));
  const taken = new Set<string>();
  const rank = new Map(persons.map((p, i) => [p.id, i]));
  for (const sc of starterCast) {
    if (principalIds.size === 0) break;
    const namesake = living.find((p) => !taken.has(p.id) && (p.name === sc.name || p.cue === sc.cue.toUpperCase()));
    if (!namesake) continue;
    castMapping[sc.id] = namesake.id;
    taken.add(namesake.id);
    if (sc.principal && !principalIds.has(namesake.id)) {
      const demote = [...principalIds].filter((id) => !taken.has(id)).sort((a, b) => rank.get(b)! - rank.get(a)!)[0];
      if (demote === undefined) continue;
      principalIds.delete(demote);
      principalIds.add(namesake.id);
    }
  }
  // Starter principals map onto principals, starter supporting characters onto supporting ones;
  // when the imported cast is too small, the unmapped are dropped from threads rather than folded
  // onto someone already cast (which would make every principal a stakeholder of every thread).
  const byRank = (a: string, b: string) => rank.get(a)! - rank.get(b)!;
  const principalPool = [...principalIds].sort(byRank).filter((id) => !taken.has(id));
  const supportPool = living.map((p) => p.id).filter((id) => !principalIds.has(id) && !taken.has(id));
  for (const sc of starterCast) {
    if (castMapping[sc.id]) continue;
    const pick = (sc.principal ? principalPool : supportPool).shift();
    if (pick === undefined) continue;
    castMapping[sc.id] = pick;
    taken.add(pick);
  }

  // Factions: gentes with enough members of their own, everyone else by political leaning.
  const threshold = opts.gensThreshold ?? 3;
  const gensCount = new Map<string, number>();
  for (const p of persons) {
    const g = gensName(p.nomen);
    if (g) gensCount.set(g, (gensCount.get(g) ?? 0) + 1);
  }
  const gentes = [...gensCount.entries()]
    .filter(([, n]) => n >= threshold)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
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
  const factions = [...POLITICAL, ...gensFactions];

  // Relationships: source ties, merged per directed pair, then invented political ties so every
  // principal has allies and rivals among the other principals (the planner needs targets).
  const edges = mergeTies(ties, ids, rng.fork('ties'));
  const principalList = [...principalIds].sort((a, b) => rank.get(a)! - rank.get(b)!);
  const factionById = new Map(persons.map((p) => [p.id, factionOf(p)]));
  const addEdge = (from: string, to: string, weights: Partial<Record<WeightName, number>>, flags: string[]) => {
    const key = `${from}\u0000${to}`;
    if (edges.has(key) || from === to) return;
    const w = Object.fromEntries(WEIGHT_NAMES.map((n) => [n, round(weights[n] ?? 0, 2)])) as Record<WeightName, number>;
    edges.set(key, { from, to, weights: w, flags: [...flags].sort() });
  };
  if (principalList.length > 1) {
    const princDegree = new Map<string, number>(principalList.map((id) => [id, 0]));
    for (const e of edges.values()) if (principalIds.has(e.from) && principalIds.has(e.to)) princDegree.set(e.from, princDegree.get(e.from)! + 1);
    for (const id of principalList) {
      const r = rng.fork(`invented-ties/${id}`);
      for (let tries = 0; princDegree.get(id)! < 3 && tries < 8; tries++) {
        const other = r.pick(principalList);
        if (other === id || edges.has(`${id}\u0000${other}`)) continue;
        const same = factionById.get(id) === factionById.get(other);
        if (same) {
          addEdge(id, other, { loyalty: 0.45 + r.next() * 0.3, trust: 0.4 + r.next() * 0.3, affection: 0.2 + r.next() * 0.3 }, ['ally', 'invented']);
          addEdge(other, id, { loyalty: 0.4 + r.next() * 0.3, trust: 0.35 + r.next() * 0.3, affection: 0.2 + r.next() * 0.3 }, ['ally', 'invented']);
        } else if (r.next() < 0.3) {
          addEdge(id, other, { debt: 0.4 + r.next() * 0.4, fear: 0.1 + r.next() * 0.3, trust: 0.2 + r.next() * 0.2 }, ['debtor', 'invented']);
          addEdge(other, id, { rivalry: 0.1 + r.next() * 0.2, trust: 0.2 + r.next() * 0.2 }, ['creditor', 'invented']);
        } else {
          addEdge(id, other, { rivalry: 0.5 + r.next() * 0.35, fear: 0.1 + r.next() * 0.3, trust: r.next() * 0.15 }, ['invented', 'rival']);
          addEdge(other, id, { rivalry: 0.45 + r.next() * 0.35, fear: 0.1 + r.next() * 0.3, trust: r.next() * 0.15 }, ['invented', 'rival']);
        }
        princDegree.set(id, princDegree.get(id)! + 1);
        princDegree.set(other, (princDegree.get(other) ?? 0) + 1);
      }
    }
  }
  const relationships = [...edges.values()].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0));
  const degree = new Map<string, number>();
  const rivalOf = new Map<string, string>();
  for (const e of relationships) {
    degree.set(e.from, (degree.get(e.from) ?? 0) + 1);
    if (e.weights.rivalry >= 0.3 && !rivalOf.has(e.from) && principalIds.has(e.to)) rivalOf.set(e.from, e.to);
  }

  const byId = new Map(persons.map((p) => [p.id, p]));
  const nameOf = (id: string) => byId.get(id)?.name ?? id;

  // Secrets: invented. About a third of the principals carry one, a few of the others too.
  const secrets: Secret[] = [];
  const sRng = rng.fork('secrets');
  const outgoing = new Map<string, string[]>();
  for (const e of relationships) {
    const l = outgoing.get(e.from);
    if (l) l.push(e.to);
    else outgoing.set(e.from, [e.to]);
  }
  const kinOf = (id: string) => outgoing.get(id) ?? [];
  for (const p of persons) {
    if (!p.alive) continue;
    const r = sRng.fork(p.id);
    const chance = principalIds.has(p.id) ? 0.6 : 0.04;
    if (r.next() >= chance && !(principalIds.has(p.id) && secrets.length < 6)) continue;
    const tpl = r.pick(SECRET_TEMPLATES);
    const near = kinOf(p.id).filter((id) => byId.get(id)?.alive);
    const pool = near.length ? near : principalList.filter((id) => id !== p.id);
    const holders = pool.length ? [...new Set([r.pick(pool), ...(r.next() < 0.4 ? [r.pick(pool)] : [])])].sort() : [];
    const office = p.offices.length ? `${p.offices[p.offices.length - 1].name} in ${Math.abs(p.offices[p.offices.length - 1].year)} BC` : 'a magistrate\'s clerk';
    secrets.push({
      id: `sec_${String(secrets.length + 1).padStart(4, '0')}`,
      text: tpl.text(p.name, holders.length ? nameOf(holders[0]) : 'a freedman', office),
      subject: p.id,
      holders,
      legal_value: round(Math.min(1, Math.max(0.2, tpl.legal + (r.next() - 0.5) * 0.2)), 2),
      public_damage: round(Math.min(1, Math.max(0.2, tpl.pub + (r.next() - 0.5) * 0.2)), 2),
      half_life_episodes: tpl.half + r.int(3),
      status: r.next() < 0.2 ? 'rumored' : 'hidden',
    });
  }
  const knows = new Map<string, string[]>();
  for (const s of secrets) for (const h of s.holders) knows.set(h, [...(knows.get(h) ?? []), `KNOWS:${s.id}`]);

  // Characters.
  const location = kit.world.locations.find((l) => /forum/.test(l.id))?.id ?? kit.world.locations[0]?.id ?? 'forum';
  const characters: Character[] = persons.map((p) => {
    const r = rng.fork(`character/${p.id}`);
    const stats = inventStats(p, degree.get(p.id) ?? 0, r.fork('stats'));
    const firstOffices = p.offices.slice(-4).map((o) => `${o.name} ${Math.abs(o.year)} BC`);
    const more = p.offices.length > 4 ? ` and ${p.offices.length - 4} earlier` : '';
    const career = p.offices.length ? `Offices: ${firstOffices.join('; ')}${more}.` : 'No office on record.';
    const origin = p.origin ? ` From ${p.origin}.` : '';
    return {
      id: p.id,
      name: p.name,
      cue: cues.get(p.id)!,
      // DPRR records each person's sex; pronouns and forms of address follow it.
      gender: p.female ? 'female' : 'male',
      principal: principalIds.has(p.id),
      faction: factionById.get(p.id)!,
      status: p.alive ? 'alive' : 'dead',
      location,
      stats,
      bdi: inventBdi(p, r.fork('bdi'), { rival: p.alive ? rivalOf.get(p.id) : undefined, beliefs: p.alive ? (knows.get(p.id) ?? []) : [] }),
      voice: inventVoice(p, r.fork('voice')),
      description: `${p.name}, ${standing(p)}.${origin} ${career} ${p.source_ref}, attested ${Math.abs(p.era[0])}–${p.era[1] === 0 ? '?' : Math.abs(p.era[1])} BC. ${opts.provenance}`,
    };
  });

  // Ledger: every character and faction holds an account; the kit's institutions (treasury, grain
  // office) are kept so operators that pay into them still resolve.
  const lRng = rng.fork('ledger');
  const memberCount = new Map<string, number>();
  for (const c of characters) memberCount.set(c.faction, (memberCount.get(c.faction) ?? 0) + 1);
  const cash: LedgerAccount[] = characters.map((c) => ({ id: c.id, owner: c.id, owner_kind: 'character', denarii: denariiFor(c.stats.wealth, lRng.fork(c.id)) }));
  for (const f of factions) {
    const members = memberCount.get(f.id) ?? 0;
    cash.push({ id: f.id, owner: f.id, owner_kind: 'faction', denarii: Math.round(50_000 * Math.sqrt(Math.max(1, members))) });
  }
  const institutions = (kit.assets.cash_ledger ?? []).filter((a) => a.owner_kind === 'institution' && !ids.has(a.id));
  for (const a of institutions) if (!cash.some((c) => c.id === a.id)) cash.push({ ...a });
  if (!cash.some((c) => c.owner_kind === 'institution')) cash.push({ id: 'aerarium', owner: 'aerarium', owner_kind: 'institution', denarii: 10_000_000 });

  const aRng = rng.fork('assets');
  const livingIds = characters.filter((c) => c.status === 'alive').map((c) => c.id);
  const goods: Good[] = [];
  const contracts: Contract[] = [];
  const networks: ClientNetwork[] = [];
  const wealthy = characters.filter((c) => c.status === 'alive').sort((a, b) => b.stats.wealth - a.stats.wealth || (a.id < b.id ? -1 : 1));
  for (const c of wealthy.slice(0, Math.max(3, Math.ceil(wealthy.length / 10)))) {
    goods.push({ id: `good_grain_${c.id}`, name: 'Sicilian grain in store at Ostia', owner: c.id, quantity: 1000 * (5 + aRng.fork(c.id).int(50)), unit: 'modii' });
  }
  const equites = characters.filter((c) => c.faction === 'equites' && c.status === 'alive');
  const principalsAlive = characters.filter((c) => c.principal);
  const contractCount = Math.min(20, Math.max(2, Math.ceil(principalsAlive.length / 20)));
  const farms = ['the tithes of Asia', 'the Sicilian grain tithe', 'the harbour dues of Ostia', 'the road repairs on the Via Appia', 'the pasture tax of Apulia'];
  for (let i = 0; i < contractCount && principalsAlive.length > 0; i++) {
    const r = aRng.fork(`contract/${i}`);
    const a = r.pick(equites.length ? equites : principalsAlive).id;
    const b = r.pick(principalsAlive).id;
    contracts.push({ id: `contract_${String(i + 1).padStart(3, '0')}`, name: `Contract for ${farms[i % farms.length]}`, parties: [...new Set([a, b])].sort(), value_denarii: 100_000 * (2 + r.int(40)), status: 'active' });
  }
  const supportingByFaction = new Map<string, Character[]>();
  for (const c of characters) {
    if (c.principal || c.status !== 'alive') continue;
    const l = supportingByFaction.get(c.faction) ?? [];
    if (l.length < 50) l.push(c);
    supportingByFaction.set(c.faction, l);
  }
  for (const p of principalsAlive) {
    const sp = byId.get(p.id)!;
    if (!['dictator', 'censor', 'consul', 'praetor'].includes(sp.tier)) continue;
    const clients = (supportingByFaction.get(p.faction) ?? [])
      .filter((c) => c.stats.dignitas < p.stats.dignitas)
      .slice(0, 5)
      .map((c) => c.id);
    if (clients.length) networks.push({ id: `net_${p.id}`, patron: p.id, clients, strength: round(0.3 + aRng.fork(`net/${p.id}`).next() * 0.6, 2) });
  }
  const assets: AssetsFile = { $schema: kit.schemaRefs['world/assets.json'], format: 1, cash_ledger: cash, goods, contracts, networks };

  const starterById = new Map(kit.characters.map((c) => [c.id, c]));
  const renameText = (text: string): string => {
    let out = text;
    for (const [from, to] of Object.entries(castMapping)) {
      const sc = starterById.get(from)!;
      const tgt = byId.get(to)!;
      const tgtShort = tgt.cue.charAt(0) + tgt.cue.slice(1).toLowerCase();
      out = out.split(sc.name).join(tgt.name);
      const short = sc.cue.charAt(0) + sc.cue.slice(1).toLowerCase();
      if (short.length > 2) out = out.replace(new RegExp(`\\b${short.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'g'), tgtShort);
    }
    return out;
  };
  const threads: Thread[] = kit.threads.threads.map((t) => ({
    ...t,
    question: renameText(t.question),
    stakeholders: [...new Set(t.stakeholders.flatMap((id) => (castMapping[id] ? [castMapping[id]] : [])))],
  }));
  const constraints: Constraint[] = kit.constraints.constraints.map((c) => ({
    ...c,
    expr: c.expr.replace(/'([a-z0-9_]+)'|"([a-z0-9_]+)"/g, (m, a: string | undefined, b: string | undefined) => {
      const id = a ?? b!;
      return castMapping[id] ? `'${castMapping[id]}'` : m;
    }),
    message: renameText(c.message),
  }));

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
    assets,
    secrets: { $schema: kit.schemaRefs['world/secrets.json'], format: 1, secrets },
    threads: { $schema: kit.schemaRefs['world/threads.json'], format: 1, threads },
    constraints: { $schema: kit.schemaRefs['world/constraints.json'], format: 1, constraints },
    operators: { ...kit.operators, $schema: kit.schemaRefs['operators/operators.json'] },
    canon: { $schema: kit.schemaRefs['world/canon.json'], format: 1, facts: [] },
  };
  const seasonGoals: SeasonGoals = { ...kit.seasonGoals, title: `${kit.seasonGoals.title} (${opts.title})`, logline: renameText(kit.seasonGoals.logline), goals: kit.seasonGoals.goals.map((g) => ({ ...g, text: renameText(g.text) })) };
  return {
    world,
    seasonGoals,
    castMapping,
    stats: {
      characters: characters.length,
      principals: principalIds.size,
      dead: characters.filter((c) => c.status === 'dead').length,
      factions: factions.length,
      relationships: relationships.length,
      secrets: secrets.length,
    },
  };
}
