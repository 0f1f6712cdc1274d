import type { Operator, RoleKind } from '../../domain/world.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { WorldIndex } from '../world-index.js';
import { makeEvalContext, type EvalContext } from './context.js';
import { holdsCompiled, sourceVerdict } from './compile.js';
import { evaluateCondition } from './evaluate.js';

export interface PrereqResult {
  expr: string;
  holds: boolean;
  /** Set when the expression could not be evaluated (it then counts as not holding). */
  error?: Diagnostic;
}

const kindsMemo = new WeakMap<object, Readonly<Record<string, RoleKind>>>();

/**
 * The declared kind of each role of an operator (`actor` is always a character). Kept per roles
 * object (operators are never edited by planning): the Director checks prerequisites per move tried.
 */
export function operatorRoleKinds(operator: Pick<Operator, 'roles'>): Readonly<Record<string, RoleKind>> {
  const roles = operator.roles;
  const hit = roles ? kindsMemo.get(roles) : undefined;
  if (hit) return hit;
  const kinds: Record<string, RoleKind> = Object.create(null);
  for (const [role, spec] of Object.entries(roles ?? {})) if (spec?.kind) kinds[role] = spec.kind;
  if (!kinds.actor) kinds.actor = 'character';
  if (roles) kindsMemo.set(roles, Object.freeze(kinds));
  return kinds;
}

/**
 * Evaluate every prerequisite of an operator under the given bindings on one state.
 * `holds` is true only when every prerequisite evaluates to true; an evaluation error is
 * reported in the result and counts as not holding. All prerequisites are evaluated (no
 * short-circuit) so planners and reports can show each one.
 */
export function checkPrereqs(
  operator: Pick<Operator, 'roles' | 'prereqs'>,
  bindings: Record<string, string>,
  index: WorldIndex,
  extra: { episode?: number } = {},
): { holds: boolean; results: PrereqResult[] } {
  const kinds = operatorRoleKinds(operator);
  let ctx: EvalContext | undefined;
  const results: PrereqResult[] = (operator.prereqs ?? []).map((p) => {
    // One that holds by its compiled closures needs no context; the others are evaluated for their value or error.
    if (holdsCompiled(p.expr, kinds, index, bindings, extra.episode)) return { expr: p.expr, holds: true };
    ctx ??= makeEvalContext(index, bindings, { episode: extra.episode, roleKinds: kinds });
    const r = evaluateCondition(p.expr, ctx);
    return r.ok ? { expr: p.expr, holds: r.value } : { expr: p.expr, holds: false, error: r.diagnostic };
  });
  return { holds: results.every((r) => r.holds), results };
}

/**
 * checkPrereqs(...).holds, stopping at the first prerequisite that does not hold (or cannot be
 * evaluated): for callers that only need the verdict, not each prerequisite's result.
 */
export function prereqsHold(
  operator: Pick<Operator, 'roles' | 'prereqs'>,
  bindings: Record<string, string>,
  index: WorldIndex,
  extra: { episode?: number } = {},
): boolean {
  const kinds = operatorRoleKinds(operator);
  let ctx: EvalContext | undefined;
  for (const p of operator.prereqs ?? []) {
    // A prerequisite that parses and compiles is judged by its closures (compile.ts), without a context.
    const verdict = sourceVerdict(p.expr, kinds);
    if (verdict) {
      if (!verdict(index, bindings, extra.episode)) return false;
      continue;
    }
    ctx ??= makeEvalContext(index, bindings, { episode: extra.episode, roleKinds: kinds });
    const r = evaluateCondition(p.expr, ctx);
    if (!r.ok || !r.value) return false;
  }
  return true;
}
