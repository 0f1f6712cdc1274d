import type { ResolvedDelta } from '../../domain/delta.js';
import type { DeltaValue, Effect, RoleKind } from '../../domain/world.js';
import { diag } from '../../diagnostics/catalog.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { makeEvalContext, type EvalContext } from '../expr/context.js';
import { evaluate } from '../expr/evaluate.js';
import { typeName } from '../expr/views.js';
import type { WorldIndex } from '../world-index.js';
import { checkOp, expandRolePath, parsePath } from './paths.js';

export type ResolveResult = { ok: true; deltas: ResolvedDelta[] } | { ok: false; diagnostics: Diagnostic[] };

/**
 * Bind an operator's effects to concrete ids and evaluate their {expr} values on `index` (the
 * state at the moment the operator applies). Every effect is checked (path grammar, op) here,
 * so a resolved batch can only fail on the state itself (overdraw, missing entity). All
 * problems are collected; nothing is partially resolved.
 */
export function resolveEffects(
  effects: readonly Effect[],
  bindings: Record<string, string>,
  index: WorldIndex,
  extra: { episode?: number; roleKinds?: Record<string, RoleKind> } = {},
): ResolveResult {
  const ctx = makeEvalContext(index, bindings, extra);
  const deltas: ResolvedDelta[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const e of effects ?? []) {
    const r = resolveOne(e, ctx);
    if (r.ok) deltas.push(r.delta);
    else diagnostics.push(r.diagnostic);
  }
  return diagnostics.length ? { ok: false, diagnostics } : { ok: true, deltas };
}

type One = { ok: true; delta: ResolvedDelta } | { ok: false; diagnostic: Diagnostic };

function evalValue(v: DeltaValue | undefined, field: string, path: string, ctx: EvalContext): { ok: true; value: number | string | boolean | undefined } | { ok: false; diagnostic: Diagnostic } {
  if (v === undefined || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return { ok: true, value: v };
  if (v !== null && typeof v === 'object' && typeof (v as { expr?: unknown }).expr === 'string') {
    const r = evaluate((v as { expr: string }).expr, ctx);
    if (!r.ok) {
      const where = r.diagnostic.column !== undefined ? ` at column ${r.diagnostic.column}` : '';
      return { ok: false, diagnostic: diag('AUR2027', { field, path, detail: `${r.diagnostic.message}${where}` }) };
    }
    const x = r.value;
    if (typeof x === 'number' || typeof x === 'string' || typeof x === 'boolean') return { ok: true, value: x };
    return { ok: false, diagnostic: diag('AUR2027', { field, path, detail: `it gives ${typeName(x)}, not a number, string or boolean` }) };
  }
  return { ok: false, diagnostic: diag('AUR2022', { path, detail: `${field} must be a number, string, boolean or {"expr": "..."}` }) };
}

function resolveOne(e: Effect, ctx: EvalContext): One {
  const path = String(e?.path);
  const exp = expandRolePath(path, ctx.bindings);
  if (!exp.ok) return exp;
  const parsed = parsePath(exp.path);
  if (!parsed.ok) return { ok: false, diagnostic: diag('AUR2020', { path: exp.path === path ? path : `${path} (${exp.path})` }) };
  const opErr = checkOp(exp.path, parsed.target, e.op);
  if (opErr) return { ok: false, diagnostic: opErr };

  if (e.op === 'transfer') {
    const bind = (x: string | undefined, field: string): string | Diagnostic => {
      if (typeof x !== 'string' || x === '') return diag('AUR2022', { path: exp.path, detail: `transfer needs a ${field} account` });
      return ctx.bindings.get(x)?.id ?? x;
    };
    const from = bind(e.from, 'from');
    if (typeof from !== 'string') return { ok: false, diagnostic: from };
    const to = bind(e.to, 'to');
    if (typeof to !== 'string') return { ok: false, diagnostic: to };
    const amt = evalValue(e.amount, 'amount', exp.path, ctx);
    if (!amt.ok) return amt;
    if (typeof amt.value !== 'number' || !Number.isFinite(amt.value) || amt.value < 0) {
      return { ok: false, diagnostic: diag('AUR2022', { path: exp.path, detail: `transfer amount must be a non-negative number of denarii, got ${JSON.stringify(amt.value)}` }) };
    }
    // Denarii are whole: an evaluated amount (e.g. a share of a balance) is rounded half-up.
    return { ok: true, delta: { path: exp.path, op: 'transfer', from, to, amount: Math.round(amt.value) } };
  }

  const val = evalValue(e.value, 'value', exp.path, ctx);
  if (!val.ok) return val;
  if (val.value === undefined) return { ok: false, diagnostic: diag('AUR2022', { path: exp.path, detail: `op ${e.op} needs a value` }) };
  let value = val.value;
  // Ledger mint/burn amounts are whole denarii too.
  if (parsed.target.kind === 'account' && typeof value === 'number') value = Math.round(value);
  return { ok: true, delta: { path: exp.path, op: e.op, value } };
}
