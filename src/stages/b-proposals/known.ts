import type { Character, RoleKind, Secret, Thread, World } from '../../domain/world.js';
import { entitiesById, type WorldIndex } from '../../core/world-index.js';
import { episodesSinceProgress } from '../a-snapshot/index.js';
import { atMostCandidates, canAct, candidatesFor } from './bdi.js';

/**
 * What an agent knows (GraphRAG-lite, spec §2.2; docs/planning.md "Scaling"). Planning cost is
 * acting principals × operators × bindings, and a binding ranges over every candidate of each
 * role: over a whole 10,000-principal world that is hopeless, and it is not how a Roman senator
 * plots either. So:
 *
 * - an episode's acting principals are at most ACTING_CAP (actingPrincipals);
 * - a character role ranges over the actor's neighbourhood, at most KNOWN_CAP characters ranked by
 *   relevance (knownCharacters); secret and thread roles over those connected to the actor or a
 *   neighbour.
 *
 * A world small enough that a kind has at most KNOWN_CAP candidates (the starter world: 15
 * characters, 9 threads) is known in full, so its plans are exactly what they were without the
 * restriction. The restriction only drops bindings; every binding kept still has its prereqs
 * checked exactly.
 */
export const KNOWN_CAP = 16;
/** Most principals who act (propose and are planned for) in one episode. */
export const ACTING_CAP = 24;
/** Of ACTING_CAP, how many come from the stakeholders of the most urgent threads (the rest by standing). */
export const ACTING_FROM_THREADS = 12;

/** Relevance of a neighbour, by how the actor knows them (summed over every connection). */
const RELEVANCE = { edgeOut: 3, edgeIn: 2, secret: 1.5, coStake: 1, place: 0.25 } as const;

interface Known {
  /** Secrets (not inert) by holder and by subject id, sorted by id. */
  secretsOf: Map<string, Secret[]>;
  /** Open threads by stakeholder id. */
  threadsOf: Map<string, Thread[]>;
  /** Open threads without stakeholders (anyone may take part). */
  openUnowned: Thread[];
  /** Characters who can act, by location (a city holds thousands). */
  at: Map<string, Place>;
  full: Map<RoleKind, string[] | null>;
  chars: Map<string, string[]>;
  acting: Map<number, Character[]>;
}

const cache = new WeakMap<World, Known>();

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

function known(world: World): Known {
  let k = cache.get(world);
  if (k) return k;
  const secretsOf = new Map<string, Secret[]>();
  for (const s of [...world.secrets.secrets].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    if (s.status === 'inert') continue;
    for (const h of new Set([...s.holders, s.subject])) push(secretsOf, h, s);
  }
  const threadsOf = new Map<string, Thread[]>();
  const openUnowned: Thread[] = [];
  for (const t of world.threads.threads) {
    if (t.status !== 'open') continue;
    if (t.stakeholders.length === 0) openUnowned.push(t);
    for (const s of new Set(t.stakeholders)) push(threadsOf, s, t);
  }
  const at = new Map<string, Place>();
  for (const c of world.characters.characters) {
    if (!canAct(c)) continue;
    const p = at.get(c.location);
    if (p) p.ids.push(c.id);
    else at.set(c.location, { ids: [c.id] });
  }
  k = { secretsOf, threadsOf, openUnowned, at, full: new Map(), chars: new Map(), acting: new Map() };
  cache.set(world, k);
  return k;
}

/**
 * The ids of those who can act at one place, in world order; the first few by id, or all of them
 * sorted, once asked (newcomers), and as a set only should the world repeat an id (isAt).
 */
interface Place {
  ids: string[];
  first?: string[];
  set?: Set<string>;
}

const byIdText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The first `n` ids of a place by id (all of them, sorted, when n reaches its size); a longer prefix already made does too. */
function firstAt(place: Place, n: number): string[] {
  if (place.first && (place.first.length >= n || place.first.length === place.ids.length)) return place.first;
  place.first = n >= place.ids.length ? place.ids.slice().sort() : firstInOrder(place.ids, n, byIdText);
  return place.first;
}

/**
 * Who the actor may meet at its place: the first who can act there by id, neither the actor nor
 * scored already, up to the neighbourhood's cap. With distinct ids that reads at most KNOWN_CAP + 1 +
 * score.size of the place's ids, so only that many are put in order (issue 18: every place's list
 * was sorted, thousands of ids, ~3 ms of a plan at 10,000 characters); should they run out first,
 * the whole list is.
 */
function newcomers(place: Place, actor: string, score: ReadonlyMap<string, number>): string[] {
  for (let n = KNOWN_CAP + 1 + score.size; ; n = place.ids.length) {
    const here = firstAt(place, n);
    const extra: string[] = [];
    for (let i = 0; i < here.length && score.size + extra.length < KNOWN_CAP; i++) {
      if (here[i] !== actor && !score.has(here[i]!)) extra.push(here[i]!);
    }
    if (score.size + extra.length >= KNOWN_CAP || here.length === place.ids.length) return extra;
  }
}

/** Whether someone of that id can act at `loc` (the place's list): looked up by id, unless the world repeats an id. */
function isAt(world: World, place: Place, loc: string, id: string): boolean {
  const chars = world.characters.characters;
  const byId = entitiesById(chars);
  if (byId.size !== chars.length) return (place.set ??= new Set(place.ids)).has(id);
  const c = byId.get(id);
  return canAct(c) && c!.location === loc;
}

/**
 * Every candidate of a kind in the world (sorted) when there are at most `cap` of them, else null;
 * memoized per world (each kind is asked with one cap). Counted first: a big world's 10,000
 * characters were listed and sorted only to learn that they were more than a handful (issue 18).
 */
function smallList(world: World, kind: RoleKind, cap: number): string[] | null {
  const k = known(world);
  let l = k.full.get(kind);
  if (l === undefined) k.full.set(kind, (l = atMostCandidates(world, kind, cap) ? candidatesFor(world, kind) : null));
  return l;
}

/**
 * The characters `actor` considers for a character role, sorted by id: everyone who can act when
 * there are at most KNOWN_CAP others; else the KNOWN_CAP most relevant of its neighbourhood —
 * relationship edges out and in, holders and subjects of the secrets it holds, co-stakeholders
 * of its open threads, and who is at its location (weights in RELEVANCE; ties by id).
 */
export function knownCharacters(world: World, index: WorldIndex, actor: string): string[] {
  const all = smallList(world, 'character', KNOWN_CAP + 1);
  if (all) return all.filter((id) => id !== actor);
  const k = known(world);
  const hit = k.chars.get(actor);
  if (hit) return hit;
  const score = new Map<string, number>();
  const add = (id: string, v: number) => {
    if (id === actor || !canAct(index.characters.get(id))) return;
    score.set(id, (score.get(id) ?? 0) + v);
  };
  for (const r of index.edgesFrom.get(actor) ?? []) add(r.to, RELEVANCE.edgeOut);
  for (const r of index.edgesTo.get(actor) ?? []) add(r.from, RELEVANCE.edgeIn);
  for (const s of k.secretsOf.get(actor) ?? []) {
    if (!s.holders.includes(actor)) continue;
    for (const h of s.holders) add(h, RELEVANCE.secret);
    add(s.subject, RELEVANCE.secret);
  }
  for (const t of k.threadsOf.get(actor) ?? []) for (const s of t.stakeholders) add(s, RELEVANCE.coStake);
  const loc = index.characters.get(actor)?.location;
  // Everyone at the same place is a possible acquaintance, weakly: in a big city that is thousands,
  // so they are scored last and only fill the neighbourhood up to the cap.
  const place = loc ? k.at.get(loc) : undefined;
  if (place) {
    for (const id of newcomers(place, actor, score)) add(id, RELEVANCE.place);
    for (const [id, v] of score) if (isAt(world, place, loc!, id)) score.set(id, v + RELEVANCE.place);
  }
  const out = [...score].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, KNOWN_CAP).map(([id]) => id).sort();
  k.chars.set(actor, out);
  return out;
}

/**
 * Candidate ids of one role kind for `actor` (the actor excluded for character roles is done by
 * the enumerator): characters as knownCharacters; secrets held by or about the actor or a known
 * character; open threads with the actor or a known character among their stakeholders (or none);
 * locations and factions in full (a season has tens of them). A kind with at most KNOWN_CAP
 * candidates in the world is known in full.
 */
export function knownCandidates(world: World, index: WorldIndex, actor: string, kind: RoleKind): string[] {
  if (kind === 'character') return knownCharacters(world, index, actor);
  const all = smallList(world, kind, kind === 'location' || kind === 'faction' ? Infinity : KNOWN_CAP);
  if (all) return all;
  const k = known(world);
  const people = [actor, ...knownCharacters(world, index, actor)];
  const ids = new Set<string>();
  if (kind === 'secret') for (const p of people) for (const s of k.secretsOf.get(p) ?? []) ids.add(s.id);
  else {
    for (const p of people) for (const t of k.threadsOf.get(p) ?? []) ids.add(t.id);
    for (const t of k.openUnowned) ids.add(t.id);
  }
  return [...ids].sort();
}

const standing = (c: Character): number => (c.stats.auctoritas ?? 0) + (c.stats.dignitas ?? 0) + (c.stats.gratia ?? 0);
const byId = (a: Character, b: Character): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The first `k` of `items` as sorting them by `cmp` would list them (cmp a total order: ids are unique
 * in a valid world), kept in a small sorted list instead of sorting every item.
 */
export function firstInOrder<T>(items: readonly T[], k: number, cmp: (a: T, b: T) => number): T[] {
  const top: T[] = [];
  if (k <= 0) return top;
  for (const x of items) {
    if (top.length === k && cmp(x, top[k - 1]!) >= 0) continue;
    let i = top.length;
    while (i > 0 && cmp(x, top[i - 1]!) < 0) i--;
    top.splice(i, 0, x);
    if (top.length > k) top.pop();
  }
  return top;
}

/**
 * The principals who act in an episode, sorted by id: every principal who can act when there are
 * at most ACTING_CAP; else the stakeholders of the most urgent open threads (overdue first, then
 * priority, then id — the order stage A lists them in; each thread's stakeholders by standing)
 * up to ACTING_FROM_THREADS, then the rest by standing (auctoritas + dignitas + gratia, ties by
 * id) up to ACTING_CAP. Deterministic, and a function of the world and the episode only.
 */
export function actingPrincipals(world: World, episode: number): Character[] {
  // A big world's choice is kept per episode (below): stage B and the pool ask for it twice, and
  // the filter over every character is most of a second call at 10,000 characters.
  const kept = cache.get(world)?.acting.get(episode);
  if (kept) return kept;
  const all = world.characters.characters.filter((c) => c.principal && canAct(c));
  if (all.length <= ACTING_CAP) return all.sort(byId);
  const k = known(world);
  const hit = k.acting.get(episode);
  if (hit) return hit;
  const byStanding = (a: Character, b: Character) => standing(b) - standing(a) || (a.id < b.id ? -1 : 1);
  const principal = new Map(all.map((c) => [c.id, c]));
  const chosen = new Set<Character>();
  const threads = world.threads.threads
    .filter((t) => t.status === 'open')
    .map((t) => ({ t, overdue: episodesSinceProgress(t, episode) > t.cadence }))
    .sort((a, b) => Number(b.overdue) - Number(a.overdue) || b.t.priority - a.t.priority || (a.t.id < b.t.id ? -1 : 1));
  for (const { t } of threads) {
    if (chosen.size >= ACTING_FROM_THREADS) break;
    const stake = t.stakeholders.map((id) => principal.get(id)).filter((c): c is Character => !!c).sort((a, b) => standing(b) - standing(a) || (a.id < b.id ? -1 : 1));
    for (const c of stake) if (chosen.size < ACTING_FROM_THREADS) chosen.add(c);
  }
  // The rest by standing: at most ACTING_CAP + chosen.size of that order are looked at, so only those are
  // put in order (issue 18: sorting all 10,000 principals, twice, for 24 of them).
  for (const c of firstInOrder(all, ACTING_CAP + chosen.size, byStanding)) if (chosen.size < ACTING_CAP) chosen.add(c);
  const out = [...chosen].sort(byId);
  k.acting.set(episode, out);
  return out;
}
