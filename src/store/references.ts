import { diag, type Diagnostic } from '../diagnostics/index.js';
import { WORLD_FILES, type Effect, type Operator, type SeasonGoals, type World } from '../domain/world.js';
import { didYouMean, listSome } from './suggest.js';
import { edgesByKey } from '../core/world-index.js';

/**
 * The checks a schema cannot express, run once every file is schema-valid: duplicate ids,
 * dangling references between files, ledger and metric rules, the dead holding intentions, and
 * the structure of operators' roles and effects. Pure: data in, diagnostics out.
 */

export interface SeasonGoalsInput {
  /** Relative path, e.g. seasons/season_01/season_goals.json */
  file: string;
  /** The season number its folder names. */
  season: number;
  goals: SeasonGoals;
}

/** Roots a resolved effect path may start with (docs/paths.md). */
const PATH_ROOTS = ['world', 'characters', 'relationships', 'secrets', 'threads', 'assets'];

interface IdIndex {
  kind: string;
  file: string;
  ids: Map<string, number>; // id -> position of its first occurrence
}

/**
 * Ids the id pattern ([a-z0-9_]+) allows but that name members of every JavaScript object (the
 * lower-case spellings of Object.prototype's members, and `prototype`): as keys of the engine's
 * lookup objects they would read or overwrite the prototype instead of an entity.
 */
export const RESERVED_IDS: readonly string[] = [
  '__proto__', 'constructor', 'prototype', 'tostring', 'valueof', 'tolocalestring', 'hasownproperty', 'isprototypeof', 'propertyisenumerable',
  '__definegetter__', '__definesetter__', '__lookupgetter__', '__lookupsetter__',
];
const RESERVED = new Set(RESERVED_IDS);

function index(kind: string, file: string, items: { id: string }[], base: string, out: Diagnostic[]): IdIndex {
  const ids = new Map<string, number>();
  // Pointers are spelled only for a finding (issue 18: one string per entity of a 10,000-character world).
  const pointer = (i: number) => `${base}/${i}/id`;
  items.forEach((item, i) => {
    if (RESERVED.has(item.id)) out.push(diag('AUR1033', { kind, id: item.id, reserved: RESERVED_IDS.slice(0, 5).join(', ') + '…' }, { file, pointer: pointer(i) }));
    const first = ids.get(item.id);
    if (first !== undefined) out.push(diag('AUR1020', { kind, id: item.id, first: pointer(first) }, { file, pointer: pointer(i) }));
    else ids.set(item.id, i);
  });
  return { kind, file, ids };
}

/** Whether `id` is one of the target's ids (of any of the targets). */
function known(target: IdIndex | IdIndex[], id: string): boolean {
  if (!Array.isArray(target)) return target.ids.has(id);
  for (const t of target) if (t.ids.has(id)) return true;
  return false;
}

/**
 * AUR1022 for an `id` that is not one of the target's ids. Callers ask `known` first and spell the
 * pointer only for a finding (issue 18: a 10,000-character world checks ~100,000 references, and
 * building each one's pointer string, or a closure to build it, was most of this module's time).
 */
function missingRef(out: Diagnostic[], target: IdIndex | IdIndex[], id: string, what: string, file: string, pointer: string): void {
  const targets = Array.isArray(target) ? target : [target];
  const ids = targets.flatMap((t) => [...t.ids.keys()]);
  const kind = targets.map((t) => t.kind).join('/');
  out.push(diag('AUR1022', { what, id, kind, known: listSome(ids), suggestion: didYouMean(id, ids) }, { file, pointer }));
}

export function checkWorldReferences(world: World, seasons: SeasonGoalsInput[] = []): Diagnostic[] {
  const out: Diagnostic[] = [];
  const F = WORLD_FILES;

  const locations = index('location', F.world, world.world.locations, '/locations', out);
  const factions = index('faction', F.factions, world.factions.factions, '/factions', out);
  const characters = index('character', F.characters, world.characters.characters, '/characters', out);
  const secrets = index('secret', F.secrets, world.secrets.secrets, '/secrets', out);
  const threads = index('thread', F.threads, world.threads.threads, '/threads', out);
  index('constraint', F.constraints, world.constraints.constraints, '/constraints', out);
  index('operator', F.operators, world.operators.operators, '/operators', out);
  const accounts = index('ledger account', F.assets, world.assets.cash_ledger, '/cash_ledger', out);
  const goods = index('good', F.assets, world.assets.goods, '/goods', out);
  const contracts = index('contract', F.assets, world.assets.contracts, '/contracts', out);
  const networks = index('network', F.assets, world.assets.networks, '/networks', out);
  index('canon fact', F.canon, world.canon.facts, '/facts', out);
  // Who can own goods, sign contracts or patronise a network: a character, a faction or an account.
  const parties = [characters, factions, accounts];

  checkWorldFile(world, locations, out);

  world.characters.characters.forEach((c, i) => {
    const at = `/characters/${i}`;
    if (!known(factions, c.faction)) missingRef(out, factions, c.faction, 'faction', F.characters, `${at}/faction`);
    if (!known(locations, c.location)) missingRef(out, locations, c.location, 'location', F.characters, `${at}/location`);
    c.bdi.desires.forEach((d, j) => {
      if (d.target !== undefined && !known(characters, d.target)) missingRef(out, characters, d.target, 'desire target character', F.characters, `${at}/bdi/desires/${j}/target`);
    });
    if (c.status === 'dead' && c.bdi.intentions.length > 0)
      out.push(diag('AUR1024', { id: c.id, intentions: c.bdi.intentions.join(', ') }, { file: F.characters, pointer: `${at}/bdi/intentions` }));
  });

  checkRelationships(world, characters, out);

  world.assets.cash_ledger.forEach((a, i) => {
    const at = `/cash_ledger/${i}`;
    if (a.denarii < 0) out.push(diag('AUR1023', { id: a.id, denarii: a.denarii }, { file: F.assets, pointer: `${at}/denarii` }));
    const owners = a.owner_kind === 'character' ? characters : a.owner_kind === 'faction' ? factions : null;
    if (owners && !owners.ids.has(a.owner)) {
      const known = [...owners.ids.keys()];
      out.push(diag('AUR1028', { id: a.id, kind: a.owner_kind, owner: a.owner, known: listSome(known), suggestion: didYouMean(a.owner, known) }, { file: F.assets, pointer: `${at}/owner` }));
    } else if (owners && a.id !== a.owner) {
      out.push(diag('AUR1032', { id: a.id, kind: a.owner_kind, owner: a.owner }, { file: F.assets, pointer: `${at}/id` }));
    }
  });
  world.assets.goods.forEach((g, i) => { if (!known(parties, g.owner)) missingRef(out, parties, g.owner, 'owner', F.assets, `/goods/${i}/owner`); });
  world.assets.contracts.forEach((c, i) => c.parties.forEach((p, j) => { if (!known(parties, p)) missingRef(out, parties, p, 'contract party', F.assets, `/contracts/${i}/parties/${j}`); }));
  world.assets.networks.forEach((n, i) => {
    if (!known(parties, n.patron)) missingRef(out, parties, n.patron, 'patron', F.assets, `/networks/${i}/patron`);
    n.clients.forEach((c, j) => { if (!known(parties, c)) missingRef(out, parties, c, 'client', F.assets, `/networks/${i}/clients/${j}`); });
  });

  world.secrets.secrets.forEach((s, i) => {
    if (!known(characters, s.subject)) missingRef(out, characters, s.subject, 'subject character', F.secrets, `/secrets/${i}/subject`);
    s.holders.forEach((h, j) => {
      if (!known(characters, h)) missingRef(out, characters, h, 'holder character', F.secrets, `/secrets/${i}/holders/${j}`);
    });
  });
  world.threads.threads.forEach((t, i) => t.stakeholders.forEach((s, j) => { if (!known(characters, s)) missingRef(out, characters, s, 'stakeholder character', F.threads, `/threads/${i}/stakeholders/${j}`); }));

  world.operators.operators.forEach((op, i) => checkOperator(op, `/operators/${i}`, { characters, secrets, threads, accounts }, out));

  const anything = [characters, factions, locations, secrets, threads, accounts, goods, contracts, networks];
  world.canon.facts.forEach((f, i) => {
    if (f.subject !== undefined && !known(anything, f.subject)) missingRef(out, anything, f.subject, 'canon fact subject', F.canon, `/facts/${i}/subject`);
  });

  for (const s of seasons) checkSeasonGoals(s, threads, out);
  return out;
}

/** Endpoints, self-loops and duplicate edges of relationships.json. */
function checkRelationships(world: World, characters: IdIndex, out: Diagnostic[]): void {
  const file = WORLD_FILES.relationships;
  const rels = world.relationships.relationships;
  // No edge repeats when indexWorld's edge map of this very list (memoised: planning reads it next)
  // has an entry per relationship; only otherwise is the first position of each edge looked for
  // (issue 18: a map per character of a 10,000-character world, built only to find no repeat).
  const repeats = edgesByKey(rels).size !== rels.length;
  // The first position of each edge, by its ends (no joined key string per relationship).
  const edges = new Map<string, Map<string, number>>();
  for (let i = 0; i < rels.length; i++) {
    const r = rels[i]!;
    if (!known(characters, r.from)) missingRef(out, characters, r.from, 'character', file, `/relationships/${i}/from`);
    if (!known(characters, r.to)) missingRef(out, characters, r.to, 'character', file, `/relationships/${i}/to`);
    if (r.from === r.to) out.push(diag('AUR1030', { from: r.from, to: r.to }, { file, pointer: `/relationships/${i}` }));
    if (!repeats) continue;
    let from = edges.get(r.from);
    if (!from) edges.set(r.from, (from = new Map()));
    const first = from.get(r.to);
    if (first !== undefined) out.push(diag('AUR1020', { kind: 'relationship', id: `${r.from}→${r.to}`, first: `/relationships/${first}` }, { file, pointer: `/relationships/${i}` }));
    else from.set(r.to, i);
  }
}

function checkWorldFile(world: World, locations: IdIndex, out: Diagnostic[]): void {
  const F = WORLD_FILES.world;
  const seen = new Map<string, string>();
  world.world.travel.forEach((t, i) => {
    const at = `/travel/${i}`;
    if (!known(locations, t.from)) missingRef(out, locations, t.from, 'location', F, `${at}/from`);
    if (!known(locations, t.to)) missingRef(out, locations, t.to, 'location', F, `${at}/to`);
    if (t.from === t.to) out.push(diag('AUR1029', { from: t.from, to: t.to }, { file: F, pointer: at }));
    // Travel is symmetric, so a→b and b→a are the same edge.
    const key = [t.from, t.to].sort().join('↔');
    const first = seen.get(key);
    if (first !== undefined) out.push(diag('AUR1020', { kind: 'travel edge', id: key, first }, { file: F, pointer: at }));
    else seen.set(key, at);
  });
  for (const [name, m] of Object.entries(world.world.global)) {
    const at = `/global/${name}`;
    if (m.min > m.max) out.push(diag('AUR1026', { metric: name, min: m.min, max: m.max }, { file: F, pointer: at }));
    else if (m.value < m.min || m.value > m.max) out.push(diag('AUR1025', { metric: name, value: m.value, min: m.min, max: m.max }, { file: F, pointer: `${at}/value` }));
    // The level it cools to (core/cooling.ts) must be one it can hold.
    if (m.min <= m.max && typeof m.rest === 'number' && (m.rest < m.min || m.rest > m.max)) out.push(diag('AUR1025', { metric: `${name}.rest`, value: m.rest, min: m.min, max: m.max }, { file: F, pointer: `${at}/rest` }));
  }
}

interface OperatorScope {
  characters: IdIndex;
  secrets: IdIndex;
  threads: IdIndex;
  accounts: IdIndex;
}

function checkOperator(op: Operator, at: string, scope: OperatorScope, out: Diagnostic[]): void {
  const file = WORLD_FILES.operators;
  const problem = (problem: string, fix: string, pointer: string) => out.push(diag('AUR1027', { operator: op.id, problem, fix }, { file, pointer }));
  const actor = op.roles.actor;
  if (actor && actor.kind !== 'character') problem(`role "actor" has kind "${actor.kind}"`, 'the actor is always a character: set its kind to "character"', `${at}/roles/actor/kind`);

  const roleNames = Object.keys(op.roles);
  const checkEffect = (e: Effect, ptr: string) => {
    const segs = e.path.split('.');
    const first = segs[0]!;
    const role = op.roles[first];
    if (e.op === 'transfer') {
      if (e.path !== 'assets.cash_ledger') problem(`a transfer must have the path "assets.cash_ledger", not "${e.path}"`, 'transfers move denarii between ledger accounts', `${ptr}/path`);
      for (const side of ['from', 'to'] as const) {
        const v = e[side];
        if (v === undefined) {
          problem(`the transfer has no "${side}"`, `add "${side}": a role name or a ledger account id`, ptr);
          continue;
        }
        const r = op.roles[v];
        if (r ? r.kind !== 'character' && r.kind !== 'faction' : !scope.accounts.ids.has(v))
          problem(
            r ? `transfer "${side}" names role "${v}" of kind "${r.kind}"` : `transfer "${side}" "${v}" is neither a role nor a ledger account`,
            `use a character or faction role (${roleNames.join(', ')}) or a ledger account id ${didYouMean(v, [...roleNames, ...scope.accounts.ids.keys()])}`.trim(),
            `${ptr}/${side}`,
          );
      }
      if (e.amount === undefined) problem('the transfer has no "amount"', 'add "amount": denarii as a number or {"expr": "…"}', ptr);
      if (e.value !== undefined) problem('a transfer takes "amount", not "value"', 'rename "value" to "amount"', `${ptr}/value`);
      return;
    }
    if (e.value === undefined) problem(`the "${e.op}" effect on "${e.path}" has no "value"`, 'add "value"', ptr);
    for (const k of ['from', 'to', 'amount'] as const)
      if (e[k] !== undefined) problem(`"${k}" is only for transfers, not "${e.op}"`, `remove "${k}"`, `${ptr}/${k}`);
    // Roles and the path grammar are core/expr/check.ts's (AUR20xx); here only ids written literally.
    if (role || !PATH_ROOTS.includes(first)) return;
    // A literal id right after characters./secrets./threads. must exist (roles are allowed there too).
    const literal = first === 'characters' ? scope.characters : first === 'secrets' ? scope.secrets : first === 'threads' ? scope.threads : null;
    const id = segs[1];
    if (literal && id !== undefined && !op.roles[id] && !literal.ids.has(id)) {
      const known = [...literal.ids.keys()];
      out.push(diag('AUR1022', { what: literal.kind, id, kind: literal.kind, known: listSome(known), suggestion: didYouMean(id, known) }, { file, pointer: `${ptr}/path` }));
    }
    if (first === 'relationships') {
      for (const seg of segs.slice(1, 3)) {
        if (!op.roles[seg] && !scope.characters.ids.has(seg)) {
          const known = [...roleNames, ...scope.characters.ids.keys()];
          out.push(diag('AUR1022', { what: 'character', id: seg, kind: 'role/character', known: listSome(known), suggestion: didYouMean(seg, known) }, { file, pointer: `${ptr}/path` }));
        }
      }
    }
    const account = first === 'assets' && segs[1] === 'cash_ledger' ? segs[2] : undefined;
    if (account !== undefined && !op.roles[account] && !scope.accounts.ids.has(account)) {
      const known = [...roleNames, ...scope.accounts.ids.keys()];
      out.push(diag('AUR1022', { what: 'ledger account', id: account, kind: 'role/ledger account', known: listSome(known), suggestion: didYouMean(account, known) }, { file, pointer: `${ptr}/path` }));
    }
  };
  op.effects.forEach((e, j) => checkEffect(e, `${at}/effects/${j}`));
  op.side_effect_risks.forEach((r, j) => r.effects?.forEach((e, k) => checkEffect(e, `${at}/side_effect_risks/${j}/effects/${k}`)));
}

function checkSeasonGoals(s: SeasonGoalsInput, threads: IdIndex, out: Diagnostic[]): void {
  const g = s.goals;
  if (g.season !== s.season) out.push(diag('AUR1031', { found: g.season, dir: s.file.split('/').slice(0, 2).join('/'), expected: s.season }, { file: s.file, pointer: '/season' }));
  index('season goal', s.file, g.goals, '/goals', out);
  g.goals.forEach((goal, i) => goal.threads.forEach((t, j) => { if (!known(threads, t)) missingRef(out, threads, t, 'thread', s.file, `/goals/${i}/threads/${j}`); }));
  g.finale_threads.forEach((t, i) => { if (!known(threads, t)) missingRef(out, threads, t, 'thread', s.file, `/finale_threads/${i}`); });
}
