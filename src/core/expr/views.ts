import { STAT_NAMES, WEIGHT_NAMES } from '../../domain/world.js';
import type { Character, Faction, Location, Relationship, Secret, Thread, World } from '../../domain/world.js';

/**
 * Read-only views of the world that expressions see. A view is a frozen, null-prototype object
 * holding exactly the documented fields; member access checks Object.hasOwn, so no prototype,
 * method or JS internal is ever reachable. The static field table below drives both the views
 * and the type checker, so the two cannot disagree.
 */

export type StructName =
  | 'character'
  | 'stats'
  | 'bdi'
  | 'secret'
  | 'thread'
  | 'location'
  | 'faction'
  | 'edge'
  | 'world'
  | 'global'
  | 'date';

/** Static types of the expression language. */
export type ExprType = 'number' | 'string' | 'boolean' | 'null' | 'list' | 'any' | StructName;

export const STRUCT_NAMES: readonly StructName[] = ['character', 'stats', 'bdi', 'secret', 'thread', 'location', 'faction', 'edge', 'world', 'global', 'date'];

const statFields = Object.fromEntries(STAT_NAMES.map((s) => [s, 'number' as ExprType]));
const weightFields = Object.fromEntries(WEIGHT_NAMES.map((w) => [w, 'number' as ExprType]));

/** Field tables. `global` is filled from the world's declared metrics (see structFields). */
export const STRUCT_FIELDS: Readonly<Record<StructName, Readonly<Record<string, ExprType>>>> = {
  character: {
    id: 'string', name: 'string', cue: 'string', status: 'string', location: 'string', faction: 'string',
    principal: 'boolean', stats: 'stats', bdi: 'bdi', ...statFields,
  },
  stats: statFields,
  bdi: { beliefs: 'list', intentions: 'list', desires: 'list' },
  secret: {
    id: 'string', text: 'string', subject: 'string', holders: 'list', status: 'string',
    legal_value: 'number', public_damage: 'number', half_life_episodes: 'number',
  },
  thread: {
    id: 'string', question: 'string', status: 'string', progress: 'number', priority: 'number', major: 'boolean',
    type: 'string', cadence: 'number', last_progress_episode: 'number', stakeholders: 'list', tags: 'list',
  },
  location: { id: 'string', name: 'string', setting: 'string' },
  faction: { id: 'string', name: 'string' },
  edge: { from: 'string', to: 'string', ...weightFields, flags: 'list' },
  world: { global: 'global', date: 'date', episode: 'number', days_per_episode: 'number' },
  global: {},
  date: { year_bc: 'number', month: 'number', day: 'number' },
};

export function isStruct(t: ExprType): t is StructName {
  return (STRUCT_NAMES as readonly string[]).includes(t);
}

/** The fields of a struct type; `global` lists the metrics the world declares. */
export function structFields(name: StructName, world?: World): Readonly<Record<string, ExprType>> {
  if (name === 'global') {
    const out: Record<string, ExprType> = Object.create(null);
    for (const k of Object.keys(world?.world?.global ?? {})) out[k] = 'number';
    return out;
  }
  return STRUCT_FIELDS[name];
}

// ---- runtime views ----

export type Value = number | string | boolean | null | readonly Value[] | View;
/** A view: null-prototype, frozen, only own string-keyed fields. */
export type View = { readonly [field: string]: Value };

export interface ViewMeta {
  kind: StructName;
  /** Entity id for entity views (character, secret, thread, location, faction). */
  id?: string;
}

const META = new WeakMap<object, ViewMeta>();

export function viewMeta(v: unknown): ViewMeta | undefined {
  return v !== null && typeof v === 'object' ? META.get(v) : undefined;
}

export function isView(v: unknown): v is View {
  return viewMeta(v) !== undefined;
}

function makeView(meta: ViewMeta, fields: Record<string, Value>): View {
  const o: Record<string, Value> = Object.create(null);
  for (const k of Object.keys(fields)) o[k] = fields[k]!;
  Object.freeze(o);
  META.set(o, meta);
  return o;
}

const scalar = (x: unknown): x is string | number | boolean => {
  const t = typeof x;
  return t === 'string' || t === 'number' || t === 'boolean';
};
const list = (xs: readonly unknown[] | undefined): readonly Value[] => Object.freeze((xs ?? []).filter(scalar));

const num = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
const str = (x: unknown): string => (typeof x === 'string' ? x : '');

export function characterView(c: Character): View {
  const stats: Record<string, Value> = {};
  for (const s of STAT_NAMES) stats[s] = num(c.stats?.[s]);
  const statsView = makeView({ kind: 'stats' }, stats);
  const bdi = makeView({ kind: 'bdi' }, {
    beliefs: list(c.bdi?.beliefs),
    intentions: list(c.bdi?.intentions),
    desires: list((c.bdi?.desires ?? []).map((d) => d?.kind)),
  });
  return makeView({ kind: 'character', id: c.id }, {
    id: c.id, name: str(c.name), cue: str(c.cue), status: str(c.status), location: str(c.location),
    faction: str(c.faction), principal: c.principal === true, stats: statsView, bdi, ...stats,
  });
}

export function secretView(s: Secret): View {
  return makeView({ kind: 'secret', id: s.id }, {
    id: s.id, text: str(s.text), subject: str(s.subject), holders: list(s.holders), status: str(s.status),
    legal_value: num(s.legal_value), public_damage: num(s.public_damage), half_life_episodes: num(s.half_life_episodes),
  });
}

export function threadView(t: Thread): View {
  return makeView({ kind: 'thread', id: t.id }, {
    id: t.id, question: str(t.question), status: str(t.status), progress: num(t.progress), priority: num(t.priority),
    major: t.major === true, type: str(t.type), cadence: num(t.cadence), last_progress_episode: num(t.last_progress_episode),
    stakeholders: list(t.stakeholders), tags: list(t.tags),
  });
}

export function locationView(l: Location): View {
  return makeView({ kind: 'location', id: l.id }, { id: l.id, name: str(l.name), setting: str(l.setting) });
}

export function factionView(f: Faction): View {
  return makeView({ kind: 'faction', id: f.id }, { id: f.id, name: str(f.name) });
}

/** The edge from→to; a missing edge reads as all-zero weights and no flags. */
export function edgeView(from: string, to: string, r: Relationship | undefined): View {
  const fields: Record<string, Value> = { from, to };
  for (const w of WEIGHT_NAMES) fields[w] = num(r?.weights?.[w]);
  fields.flags = list(r?.flags);
  return makeView({ kind: 'edge' }, fields);
}

const WEIGHTS: ReadonlySet<string> = new Set(WEIGHT_NAMES);

/**
 * The field `field` of edgeView(from, to, r) when it is a scalar (from, to or a weight), read without
 * building the view; undefined for its flags or a field edges do not have. `rel(a, b).trust` is most
 * of what prerequisites read, and the view it built was seen by nothing but that member access.
 */
export function edgeScalar(from: string, to: string, r: Relationship | undefined, field: string): number | string | undefined {
  if (field === 'from') return from;
  if (field === 'to') return to;
  return WEIGHTS.has(field) ? num(r?.weights?.[field as (typeof WEIGHT_NAMES)[number]]) : undefined;
}

export function worldView(world: World, episode: number): View {
  const g: Record<string, Value> = Object.create(null);
  for (const [k, m] of Object.entries(world.world?.global ?? {})) g[k] = num(m?.value);
  const d = world.world?.date;
  return makeView({ kind: 'world' }, {
    global: makeView({ kind: 'global' }, g),
    date: makeView({ kind: 'date' }, { year_bc: num(d?.year_bc), month: num(d?.month), day: num(d?.day) }),
    episode,
    days_per_episode: num(world.world?.days_per_episode),
  });
}

/** A short, safe description of a runtime value's type for messages. */
export function typeName(v: Value | undefined): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  const m = viewMeta(v);
  if (m) return `a ${m.kind}`;
  return `a ${typeof v}`;
}
