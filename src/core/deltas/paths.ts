import { STAT_NAMES, WEIGHT_NAMES } from '../../domain/world.js';
import type { DeltaOp, RoleKind, StatName, WeightName } from '../../domain/world.js';
import { diag } from '../../diagnostics/catalog.js';
import '../../diagnostics/codes/core.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';

/**
 * The path grammar of docs/paths.md. A resolved path parses to a PathTarget: the one place in
 * the world a delta touches, with the ops it allows. Segments are [a-z0-9_]+ only, so a path can
 * never name a prototype or step outside the world model.
 */
export type PathTarget =
  | { kind: 'global'; metric: string }
  | { kind: 'date'; field: DateField }
  | { kind: 'stat'; character: string; stat: StatName }
  | { kind: 'char_status'; character: string }
  | { kind: 'char_location'; character: string }
  | { kind: 'bdi'; character: string; list: 'beliefs' | 'intentions' }
  | { kind: 'weight'; from: string; to: string; weight: WeightName }
  | { kind: 'edge_flags'; from: string; to: string }
  | { kind: 'secret_status'; secret: string }
  | { kind: 'secret_value'; secret: string; field: 'legal_value' | 'public_damage' }
  | { kind: 'secret_holders'; secret: string }
  | { kind: 'secret_told_in'; secret: string }
  | { kind: 'thread_progress'; thread: string }
  | { kind: 'thread_status'; thread: string }
  | { kind: 'thread_last_progress'; thread: string }
  | { kind: 'ledger' }
  | { kind: 'account'; account: string };

export type TargetKind = PathTarget['kind'];

/** The fields of world.date (docs/paths.md): written by stage H's calendar pass. */
export const DATE_FIELDS = ['year_bc', 'month', 'day'] as const;
export type DateField = (typeof DATE_FIELDS)[number];
const isDateField = (s: string): s is DateField => (DATE_FIELDS as readonly string[]).includes(s);

const NUMERIC: DeltaOp[] = ['add', 'subtract', 'set', 'multiply'];
const LIST: DeltaOp[] = ['add', 'subtract'];

export const OPS_BY_TARGET: Readonly<Record<TargetKind, readonly DeltaOp[]>> = {
  global: NUMERIC,
  // Set only: calendar carries (day 30 + 1 → the next month) are the writer's arithmetic, not a clamp's.
  date: ['set'],
  stat: NUMERIC,
  char_status: ['set'],
  char_location: ['set'],
  bdi: LIST,
  weight: NUMERIC,
  edge_flags: LIST,
  secret_status: ['set'],
  secret_value: NUMERIC,
  secret_holders: LIST,
  secret_told_in: ['set'],
  thread_progress: ['add', 'subtract', 'set'],
  thread_status: ['set'],
  thread_last_progress: ['set'],
  ledger: ['transfer'],
  account: ['add', 'subtract'],
};

const SEGMENT = /^[a-z0-9_]+$/;
/** Valid by the id pattern, but never allowed as a path segment (defence in depth). */
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);
const isStat = (s: string): s is StatName => (STAT_NAMES as readonly string[]).includes(s);
const isWeight = (s: string): s is WeightName => (WEIGHT_NAMES as readonly string[]).includes(s);

export type PathResult = { ok: true; target: PathTarget } | { ok: false; diagnostic: Diagnostic };

/** Parse a resolved (ids only) path. */
export function parsePath(path: string): PathResult {
  const bad = (): PathResult => ({ ok: false, diagnostic: diag('AUR2020', { path: String(path) }) });
  if (typeof path !== 'string' || path.length > 512) return bad();
  const s = path.split('.');
  if (!s.every((seg) => SEGMENT.test(seg) && !FORBIDDEN.has(seg))) return bad();
  const [root, a, b, c] = s;
  const n = s.length;
  let target: PathTarget | undefined;
  switch (root) {
    case 'world':
      if (n === 3 && a === 'global') target = { kind: 'global', metric: b! };
      else if (n === 3 && a === 'date' && isDateField(b!)) target = { kind: 'date', field: b };
      break;
    case 'characters':
      if (n === 4 && b === 'stats' && isStat(c!)) target = { kind: 'stat', character: a!, stat: c };
      else if (n === 3 && b === 'status') target = { kind: 'char_status', character: a! };
      else if (n === 3 && b === 'location') target = { kind: 'char_location', character: a! };
      else if (n === 4 && b === 'bdi' && (c === 'beliefs' || c === 'intentions')) target = { kind: 'bdi', character: a!, list: c };
      break;
    case 'relationships':
      if (n === 4 && isWeight(c!)) target = { kind: 'weight', from: a!, to: b!, weight: c };
      else if (n === 4 && c === 'flags') target = { kind: 'edge_flags', from: a!, to: b! };
      break;
    case 'secrets':
      if (n === 3 && b === 'status') target = { kind: 'secret_status', secret: a! };
      else if (n === 3 && (b === 'legal_value' || b === 'public_damage')) target = { kind: 'secret_value', secret: a!, field: b };
      else if (n === 3 && b === 'holders') target = { kind: 'secret_holders', secret: a! };
      else if (n === 3 && b === 'told_in') target = { kind: 'secret_told_in', secret: a! };
      break;
    case 'threads':
      if (n === 3 && b === 'progress') target = { kind: 'thread_progress', thread: a! };
      else if (n === 3 && b === 'status') target = { kind: 'thread_status', thread: a! };
      else if (n === 3 && b === 'last_progress_episode') target = { kind: 'thread_last_progress', thread: a! };
      break;
    case 'assets':
      if (n === 2 && a === 'cash_ledger') target = { kind: 'ledger' };
      else if (n === 3 && a === 'cash_ledger') target = { kind: 'account', account: b! };
      break;
  }
  return target ? { ok: true, target } : bad();
}

/** Check that an op is allowed on a target. */
export function checkOp(path: string, target: PathTarget, op: DeltaOp): Diagnostic | null {
  const allowed = OPS_BY_TARGET[target.kind];
  return allowed.includes(op) ? null : diag('AUR2021', { op: String(op), path, allowed: allowed.join(', ') });
}

const ROOTS = new Set(['world', 'characters', 'relationships', 'secrets', 'threads', 'assets']);

/**
 * Expand a role-relative path (docs/paths.md, "Role-relative forms") to a resolved path.
 * `roles` maps each bound role name to its kind and id.
 */
export function expandRolePath(
  path: string,
  roles: ReadonlyMap<string, { kind: RoleKind; id: string }>,
  where = 'an effect path',
): { ok: true; path: string } | { ok: false; diagnostic: Diagnostic } {
  if (typeof path !== 'string' || path === '') return { ok: false, diagnostic: diag('AUR2020', { path: String(path) }) };
  const s = path.split('.');
  const first = s[0]!;
  const known = [...roles.keys()].join(', ') || 'none';
  if (ROOTS.has(first)) {
    if (first === 'relationships') {
      for (const i of [1, 2]) {
        const seg = s[i];
        const r = seg !== undefined ? roles.get(seg) : undefined;
        if (r) s[i] = r.id;
      }
    }
    // Addition to the lead's list: an account segment may be a role name (its account id).
    if (first === 'assets' && s[1] === 'cash_ledger' && s.length === 3) {
      const r = roles.get(s[2]!);
      if (r) s[2] = r.id;
    }
    return { ok: true, path: s.join('.') };
  }
  const r = roles.get(first);
  if (!r) {
    return { ok: false, diagnostic: diag('AUR2024', { role: first, where: `${where} ${path}`, known }) };
  }
  const rest = s.slice(1);
  switch (r.kind) {
    case 'character':
      // `actor.wealth` is shorthand for `actor.stats.wealth`.
      if (rest.length === 1 && isStat(rest[0]!)) return { ok: true, path: ['characters', r.id, 'stats', rest[0]].join('.') };
      return { ok: true, path: ['characters', r.id, ...rest].join('.') };
    case 'secret':
      return { ok: true, path: ['secrets', r.id, ...rest].join('.') };
    case 'thread':
      return { ok: true, path: ['threads', r.id, ...rest].join('.') };
    default:
      // Locations and factions have no writable fields.
      return { ok: false, diagnostic: diag('AUR2020', { path }) };
  }
}
