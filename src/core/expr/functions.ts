import type { RoleKind } from '../../domain/world.js';
import { diag } from '../../diagnostics/catalog.js';
import { edgeOf, travelDays } from '../world-index.js';
import { OverlayMap } from '../overlay-map.js';
import { EvalFail, type EvalContext } from './context.js';
import { edgeView, typeName, viewMeta, type ExprType, type Value } from './views.js';

/**
 * The function table of the expression language (docs/expressions.md). A Map, not an object:
 * `constructor`, `toString`, `__proto__` are simply unknown functions.
 */

/** How a parameter is read: an entity given as a view or as an id string, or a plain value. */
export type ParamSpec =
  | { ref: RoleKind | 'account' | 'place' }
  | { type: 'number' | 'string' | 'list' };

export interface FunctionSpec {
  name: string;
  params: ParamSpec[];
  /** Variadic functions repeat their last parameter; min is the least number of arguments. */
  variadic?: { min: number };
  returns: ExprType;
  impl(args: Value[], ctx: EvalContext, at: { line: number; column: number }): Value;
}

const fail = (code: string, args: Record<string, unknown>, at: { line: number; column: number }): never => {
  throw new EvalFail(diag(code, args, at));
};

type Characters = EvalContext['index']['characters'];
const livingCounts = new WeakMap<Characters, number>();
const living = (c: { principal?: boolean; status?: string } | undefined): number => (c && c.principal && c.status === 'alive' ? 1 : 0);

/**
 * count_alive(): the living principals of the index's character map, memoised per map. A projected
 * state's map is usually an overlay of the snapshot's (core/overlay-map.ts): its count is the base's,
 * corrected at the changed keys. Planning checks the hard constraints (count_alive() >= 8 in the kit)
 * for every move it tries; each check walked every character (issue 18).
 */
function livingPrincipals(chars: Characters): number {
  let n = livingCounts.get(chars);
  if (n !== undefined) return n;
  const { base, changed } = OverlayMap.split(chars);
  if (base === chars) {
    n = 0;
    for (const c of chars.values()) n += living(c);
  } else {
    n = livingPrincipals(base);
    for (const k of changed) n += living(chars.get(k)) - living(base.get(k));
  }
  livingCounts.set(chars, n);
  return n;
}

/** The id an argument denotes: an entity view's id, or the string itself. */
export function refId(v: Value, what: string, at: { line: number; column: number }): string {
  if (typeof v === 'string') return v;
  const m = viewMeta(v);
  if (m?.id !== undefined) return m.id;
  return fail('AUR2007', { detail: `${what} must be an entity or an id string, got ${typeName(v)}` }, at);
}

function entity(kind: RoleKind, ctx: EvalContext, v: Value, at: { line: number; column: number }): Value {
  const id = refId(v, `${kind}() argument`, at);
  const view = ctx.view(kind, id);
  if (!view) return fail('AUR2008', { kind, id }, at);
  return view;
}

/** A location id from a location id/view or a character (its current location). */
function place(ctx: EvalContext, v: Value, at: { line: number; column: number }): string {
  const m = viewMeta(v);
  if (m?.kind === 'character') return ctx.index.characters.get(m.id!)!.location;
  const id = refId(v, 'travel_days() argument', at);
  if (ctx.index.locations.has(id)) return id;
  const c = ctx.index.characters.get(id);
  if (c) return c.location;
  return fail('AUR2008', { kind: 'location', id }, at);
}

function number(v: Value, fn: string, at: { line: number; column: number }): number {
  if (typeof v !== 'number') return fail('AUR2007', { detail: `${fn}() takes numbers, got ${typeName(v)}` }, at);
  return v;
}

/** rel(a, b)'s arguments checked and its edge looked up: the function's body, and evaluate.ts's `rel(a, b).field` shortcut. */
export function relEdge(a: Value, b: Value, ctx: Pick<EvalContext, 'index'>, at: { line: number; column: number }) {
  const from = refId(a, 'rel() argument', at);
  const to = refId(b, 'rel() argument', at);
  return { from, to, edge: edgeOf(ctx.index, from, to) };
}

const SPECS: FunctionSpec[] = [
  {
    name: 'rel', params: [{ ref: 'character' }, { ref: 'character' }], returns: 'edge',
    impl: ([a, b], ctx, at) => {
      const { from, to, edge } = relEdge(a!, b!, ctx, at);
      return edgeView(from, to, edge);
    },
  },
  { name: 'char', params: [{ ref: 'character' }], returns: 'character', impl: ([a], ctx, at) => entity('character', ctx, a!, at) },
  { name: 'secret', params: [{ ref: 'secret' }], returns: 'secret', impl: ([a], ctx, at) => entity('secret', ctx, a!, at) },
  { name: 'thread', params: [{ ref: 'thread' }], returns: 'thread', impl: ([a], ctx, at) => entity('thread', ctx, a!, at) },
  { name: 'faction', params: [{ ref: 'faction' }], returns: 'faction', impl: ([a], ctx, at) => entity('faction', ctx, a!, at) },
  { name: 'location', params: [{ ref: 'location' }], returns: 'location', impl: ([a], ctx, at) => entity('location', ctx, a!, at) },
  {
    // A missing account holds nothing: balance() of a character without an account is 0.
    name: 'balance', params: [{ ref: 'account' }], returns: 'number',
    impl: ([a], ctx, at) => ctx.index.ledger.get(refId(a!, 'balance() argument', at))?.denarii ?? 0,
  },
  {
    name: 'travel_days', params: [{ ref: 'place' }, { ref: 'place' }], returns: 'number',
    impl: ([a, b], ctx, at) => {
      const from = place(ctx, a!, at);
      const to = place(ctx, b!, at);
      const d = travelDays(ctx.index, from, to);
      return d ?? fail('AUR2012', { from, to }, at);
    },
  },
  {
    name: 'holds', params: [{ ref: 'character' }, { ref: 'secret' }], returns: 'boolean',
    impl: ([c, s], ctx, at) => {
      const who = refId(c!, 'holds() argument', at);
      const sid = refId(s!, 'holds() argument', at);
      const sec = ctx.index.secrets.get(sid);
      if (!sec) return fail('AUR2008', { kind: 'secret', id: sid }, at);
      return (sec.holders ?? []).includes(who);
    },
  },
  {
    name: 'has_flag', params: [{ ref: 'character' }, { ref: 'character' }, { type: 'string' }], returns: 'boolean',
    impl: ([a, b, f], ctx, at) => {
      if (typeof f !== 'string') return fail('AUR2007', { detail: `has_flag() flag must be a string, got ${typeName(f)}` }, at);
      const e = edgeOf(ctx.index, refId(a!, 'has_flag() argument', at), refId(b!, 'has_flag() argument', at));
      return (e?.flags ?? []).includes(f);
    },
  },
  {
    name: 'count_alive', params: [], returns: 'number',
    impl: (_args, ctx) => livingPrincipals(ctx.index.characters),
  },
  {
    name: 'min', params: [{ type: 'number' }], variadic: { min: 1 }, returns: 'number',
    impl: (args, _ctx, at) => Math.min(...args.map((a) => number(a, 'min', at))),
  },
  {
    name: 'max', params: [{ type: 'number' }], variadic: { min: 1 }, returns: 'number',
    impl: (args, _ctx, at) => Math.max(...args.map((a) => number(a, 'max', at))),
  },
  { name: 'abs', params: [{ type: 'number' }], returns: 'number', impl: ([a], _ctx, at) => Math.abs(number(a!, 'abs', at)) },
  // Additions beyond the lead's list (documented in docs/expressions.md):
  {
    name: 'len', params: [{ type: 'list' }], returns: 'number',
    impl: ([a], _ctx, at) => (Array.isArray(a) ? a.length : fail('AUR2007', { detail: `len() takes a list, got ${typeName(a)}` }, at)),
  },
  {
    name: 'min_balance', params: [], returns: 'number',
    impl: (_args, ctx) => {
      let m = 0;
      let first = true;
      for (const a of ctx.index.ledger.values()) { if (first || a.denarii < m) m = a.denarii; first = false; }
      return m;
    },
  },
  {
    name: 'ledger_total', params: [], returns: 'number',
    impl: (_args, ctx) => { let t = 0; for (const a of ctx.index.ledger.values()) t += a.denarii; return t; },
  },
  {
    name: 'alive', params: [{ ref: 'character' }], returns: 'boolean',
    impl: ([a], ctx, at) => {
      const id = refId(a!, 'alive() argument', at);
      const c = ctx.index.characters.get(id);
      if (!c) return fail('AUR2008', { kind: 'character', id }, at);
      return c.status === 'alive';
    },
  },
];

export const FUNCTIONS: ReadonlyMap<string, FunctionSpec> = new Map(SPECS.map((s) => [s.name, s]));

export function arityText(f: FunctionSpec): string {
  return f.variadic ? `at least ${f.variadic.min}` : String(f.params.length);
}

export function arityOk(f: FunctionSpec, n: number): boolean {
  return f.variadic ? n >= f.variadic.min : n === f.params.length;
}

/** The parameter spec for argument i (variadic functions repeat their last one). */
export function paramAt(f: FunctionSpec, i: number): ParamSpec | undefined {
  return f.params[i] ?? (f.variadic ? f.params[f.params.length - 1] : undefined);
}
