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

/** The one candidate of the first non-empty tier, or null when none or several match. */
function pick<T extends { id: string }>(tiers: T[][]): string | null {
  for (const t of tiers) {
    const ids = [...new Set(t.map((c) => c.id))];
    if (ids.length === 1) return ids[0];
    if (ids.length > 1) return null;
  }
  return null;
}

interface Person {
  id: string;
  names: string[][];
  cast: boolean;
}

function people(ctx: NormaliseContext): Person[] {
  const pk = ctx.packet;
  const castIds = new Set(pk.cast.map((c) => c.id));
  const out = new Map<string, Person>();
  const add = (id: string, ...names: (string | undefined)[]) => {
    const p = out.get(id) ?? { id, names: [words(id)], cast: castIds.has(id) };
    for (const n of names) if (n) p.names.push(words(n));
    out.set(id, p);
  };
  for (const c of pk.cast) add(c.id, c.name, c.cue);
  for (const d of pk.dead) add(d.id, d.name, d.cue);
  for (const c of pk.retrieved_subgraph.characters) add(c.id, c.name);
  for (const c of ctx.characters ?? []) add(c.id, c.name, c.cue);
  return [...out.values()];
}

function characterResolver(ctx: NormaliseContext): (s: string) => string | null {
  const ps = people(ctx);
  const ids = new Set(ps.map((p) => p.id));
  return (s) => {
    if (ids.has(s)) return s;
    const w = words(s);
    if (!w.length) return null;
    const exact = ps.filter((p) => p.id === w.join('_') || p.names.some((n) => n.join(' ') === w.join(' ')));
    // Every word written is part of the name, and one of them is more than a praenomen.
    const partial = w.some((x) => !PRAENOMINA.has(x)) ? ps.filter((p) => p.names.some((n) => w.every((x) => n.includes(x)))) : [];
    return pick([exact.filter((p) => p.cast), exact, partial.filter((p) => p.cast), partial]);
  };
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
    return pick([exact.filter((m) => m.here), exact, named.filter((m) => m.here), named, described.filter((m) => m.here), described]);
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
