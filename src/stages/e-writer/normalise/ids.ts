import type { ScenePacket } from '../../../domain/packet.js';

/**
 * Resolving the ids a model writes as names, in capitals or half-remembered (issue 13): actor
 * "Caesar" or "CAESAR" is the character `caesar`, operator "Lay the charge" or "indictment" is
 * `op_indictment`. Only unambiguous matches resolve, the scene's own people and moves first;
 * anything else is left as written for the rules to judge.
 */
export interface NormaliseContext {
  packet: ScenePacket;
  /** The world's characters (names and cues beyond the packet's). */
  characters?: { id: string; name: string; cue?: string }[];
  /** The world's operators, for names and descriptions beyond the packet's. */
  operators?: { id: string; name: string; descriptions?: string[] }[];
}

export interface Resolver {
  character(s: string): string | null;
  operator(s: string): string | null;
  application(s: string): string | null;
}

/** Praenomina are shared by half the Senate: never enough to name someone. */
const PRAENOMINA = new Set(['marcus', 'gaius', 'lucius', 'publius', 'quintus', 'gnaeus', 'titus', 'decimus', 'servius', 'aulus', 'sextus', 'tiberius', 'appius', 'manius', 'spurius', 'numerius', 'mamercus']);

export function words(s: string): string[] {
  return s
    .toLowerCase()
    .replace(/[’']/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

interface Person {
  id: string;
  names: string[][];
}

/** People and their names (the id's words, the name's, the cue's), by the words in them. */
interface NameBook {
  ids: Set<string>;
  /** A name's words joined by spaces → who has that name. */
  exact: Map<string, Set<string>>;
  /** A word → the names (and whose) it is in. */
  byWord: Map<string, { id: string; name: string[] }[]>;
}

function nameBook(persons: Iterable<Person>): NameBook {
  const book: NameBook = { ids: new Set(), exact: new Map(), byWord: new Map() };
  for (const p of persons) {
    book.ids.add(p.id);
    for (const n of p.names) {
      const k = n.join(' ');
      (book.exact.get(k) ?? book.exact.set(k, new Set()).get(k)!).add(p.id);
      for (const x of new Set(n)) (book.byWord.get(x) ?? book.byWord.set(x, []).get(x)!).push({ id: p.id, name: n });
    }
  }
  return book;
}

/** Who in the book is named `w` exactly (a name, or the id), and who has one name holding every word of `w`. */
function lookUp(book: NameBook, w: string[]): { exact: string[]; partial: string[] } {
  const exact = [...(book.exact.get(w.join(' ')) ?? [])];
  if (book.ids.has(w.join('_'))) exact.push(w.join('_'));
  if (!w.some((x) => !PRAENOMINA.has(x))) return { exact, partial: [] };
  // The rarest word's names, then those holding every other word too.
  let fewest: { id: string; name: string[] }[] | undefined;
  for (const x of w) {
    const l = book.byWord.get(x) ?? [];
    if (!fewest || l.length < fewest.length) fewest = l;
  }
  return { exact, partial: (fewest ?? []).filter((e) => w.every((x) => e.name.includes(x))).map((e) => e.id) };
}

/**
 * The world's characters' names, once per list of them (the episode's context). Why (issue 18,
 * seventeenth pass): each scene listed every character of the world again and each look-up scanned
 * them all, ~8 ms a scene at 10,000 characters.
 */
const worldBooks = new WeakMap<object, NameBook>();
const NO_CHARACTERS: { id: string; name: string; cue?: string }[] = [];

function worldBook(characters: { id: string; name: string; cue?: string }[]): NameBook {
  let b = worldBooks.get(characters);
  if (!b) worldBooks.set(characters, (b = nameBook(characters.map((c) => ({ id: c.id, names: [words(c.id), ...[c.name, c.cue].filter((n): n is string => !!n).map(words)] })))));
  return b;
}

/**
 * A character id from what a model wrote: the id itself; else who is named so exactly, the scene's
 * cast first; else who has one name holding every word written (one of them more than a
 * praenomen), the cast first. A person's names are the packet's and the world's together.
 */
function characterResolver(ctx: NormaliseContext): (s: string) => string | null {
  const pk = ctx.packet;
  const castIds = new Set(pk.cast.map((c) => c.id));
  const packet = new Map<string, Person>();
  const add = (id: string, ...names: (string | undefined)[]) => {
    const p = packet.get(id) ?? { id, names: [words(id)] };
    for (const n of names) if (n) p.names.push(words(n));
    packet.set(id, p);
  };
  for (const c of pk.cast) add(c.id, c.name, c.cue);
  for (const d of pk.dead) add(d.id, d.name, d.cue);
  for (const c of pk.retrieved_subgraph.characters) add(c.id, c.name);
  const scene = nameBook(packet.values());
  const world = worldBook(ctx.characters ?? NO_CHARACTERS);
  return (s) => {
    if (scene.ids.has(s) || world.ids.has(s)) return s;
    const w = words(s);
    if (!w.length) return null;
    const a = lookUp(scene, w);
    const b = lookUp(world, w);
    const exact = [...a.exact, ...b.exact];
    const partial = [...a.partial, ...b.partial];
    const cast = (ids: string[]) => ids.filter((id) => castIds.has(id));
    return pick([cast(exact), exact, cast(partial), partial]);
  };
}

/** The one id of the first non-empty tier, or null when several are. */
function pick(tiers: string[][]): string | null {
  for (const t of tiers) {
    const ids = new Set(t);
    if (ids.size === 1) return [...ids][0]!;
    if (ids.size > 1) return null;
  }
  return null;
}

interface Move {
  id: string;
  name: string;
  descriptions: string[];
  here: boolean;
}

function operatorResolver(ctx: NormaliseContext): (s: string) => string | null {
  const here = new Map<string, Move>();
  for (const q of ctx.packet.director_instructions.sequence) here.set(q.operator_id, { id: q.operator_id, name: q.operator_name, descriptions: [], here: true });
  const all: Move[] = [...here.values()];
  for (const o of ctx.operators ?? []) {
    const m = here.get(o.id);
    if (m) m.descriptions.push(...(o.descriptions ?? []));
    else all.push({ id: o.id, name: o.name, descriptions: o.descriptions ?? [], here: false });
  }
  const key = (s: string) => words(s).join(' ');
  return (s) => {
    if (all.some((m) => m.id === s)) return s;
    const k = key(s);
    if (!k) return null;
    const bare = (m: Move) => key(m.id.replace(/^op_/, ''));
    const exact = all.filter((m) => key(m.id) === k || bare(m) === k || key(m.name) === k);
    // "Call in the note: names the sum and the day": its name, then (part of) its description.
    const named = all.filter((m) => k.startsWith(`${key(m.name)} `) || k.startsWith(`${bare(m)} `));
    // A fragment of a description, long enough to mean something (not "the" or "a debt").
    const described = k.length < 12 ? [] : all.filter((m) => m.descriptions.some((d) => key(d).includes(k) || k.includes(key(d))));
    return pick([exact.filter((m) => m.here), exact, named.filter((m) => m.here), named, described.filter((m) => m.here), described].map((t) => t.map((m) => m.id)));
  };
}

export function resolver(ctx: NormaliseContext): Resolver {
  const apps = ctx.packet.director_instructions.sequence.map((q) => q.application_id);
  return {
    character: characterResolver(ctx),
    operator: operatorResolver(ctx),
    application: (s) => (apps.includes(s) ? s : (apps.find((a) => a.toLowerCase() === s.trim().toLowerCase()) ?? null)),
  };
}
