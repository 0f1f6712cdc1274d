import type { ResolvedDelta } from '../domain/delta.js';
import { applyDeltas } from './deltas/apply.js';
import type { Operator, World } from '../domain/world.js';
import { WORLD_FILES } from '../domain/world.js';
import { diag } from '../diagnostics/catalog.js';
import '../diagnostics/codes/core.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { makeEvalContext, type EvalContext } from './expr/context.js';
import { holdsCompiled, NO_ROLES } from './expr/compile.js';
import { evaluateCondition } from './expr/evaluate.js';
import { checkPrereqs } from './expr/prereqs.js';
import { indexWorld, ledgerTotal, travelDays, type WorldIndex } from './world-index.js';

/**
 * The hard invariants of spec §9.1 as pure checks, each with a stable code. The verifier
 * (stage F), the planner (stage C) and commit (stage H) call these; none of them throws.
 */

/** AUR2050: every balance is a whole, non-negative number of denarii. */
export function checkLedger(world: World): Diagnostic[] {
  const out: Diagnostic[] = [];
  (world.assets?.cash_ledger ?? []).forEach((a, i) => {
    if (typeof a.denarii !== 'number' || !Number.isSafeInteger(a.denarii) || a.denarii < 0) {
      out.push(diag('AUR2050', { account: a.id, balance: a.denarii }, { file: WORLD_FILES.assets, pointer: `/cash_ledger/${i}/denarii` }));
    }
  });
  return out;
}

/** Net denarii created by a batch: mints (add on an account) minus burns (subtract). Transfers count zero. */
export function mintedBy(deltas: readonly ResolvedDelta[]): number {
  let net = 0;
  for (const d of deltas) {
    if (typeof d.path !== 'string' || !d.path.startsWith('assets.cash_ledger.') || typeof d.value !== 'number') continue;
    if (d.op === 'add') net += d.value;
    else if (d.op === 'subtract') net -= d.value;
  }
  return net;
}

/**
 * AUR2051: the ledger total after a batch equals the total before plus explicit mints minus
 * burns, i.e. every transfer conserved it.
 */
export function checkLedgerConservation(before: World, after: World, deltas: readonly ResolvedDelta[]): Diagnostic[] {
  const b = ledgerTotal(before);
  const a = ledgerTotal(after);
  const expected = b + mintedBy(deltas);
  return a === expected ? [] : [diag('AUR2051', { before: b, after: a, expected })];
}

/** True when `who` can get from where they are now to `toLocation` within `days` days. */
export function canReach(index: WorldIndex, who: string, toLocation: string, days: number): boolean {
  const c = index.characters.get(who);
  if (!c) return false;
  const need = travelDays(index, c.location, toLocation);
  return need !== null && need <= days;
}

/**
 * AUR2053 (or AUR2059 for an unknown character): a character appearing at `toLocation` must be
 * able to travel there from `from` (default: where the index says they are) in `days` days.
 */
export function checkReach(index: WorldIndex, who: string, toLocation: string, days: number, from?: string): Diagnostic | null {
  const c = index.characters.get(who);
  if (!c) return diag('AUR2059', { who });
  const start = from ?? c.location;
  const need = travelDays(index, start, toLocation);
  if (need !== null && need <= days) return null;
  return diag('AUR2053', { who, from: start, to: toLocation, days, need: need === null ? 'no route' : `${need} day(s)` });
}

/** AUR2052: every actor is a known, living character (dead, exiled or imprisoned ones cannot act). */
export function checkActorsAlive(index: WorldIndex, actors: readonly string[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const who of [...new Set(actors)]) {
    const c = index.characters.get(who);
    if (!c) out.push(diag('AUR2059', { who }));
    else if (c.status !== 'alive') out.push(diag('AUR2052', { who, status: c.status }));
  }
  return out;
}

/** AUR2054/AUR2055: an operator's prerequisites hold on the state before its effects apply. */
export function checkOperatorPrereqs(
  operator: Pick<Operator, 'id' | 'roles' | 'prereqs'>,
  bindings: Record<string, string>,
  index: WorldIndex,
  extra: { episode?: number } = {},
): Diagnostic[] {
  const r = checkPrereqs(operator, bindings, index, extra);
  const out: Diagnostic[] = [];
  for (const p of r.results) {
    if (p.error) out.push(diag('AUR2055', { operator: operator.id, expr: p.expr, detail: p.error.message }));
    else if (!p.holds) out.push(diag('AUR2054', { operator: operator.id, expr: p.expr }));
  }
  return out;
}

const NO_BINDINGS: Readonly<Record<string, string>> = Object.freeze({});

/** The constraints of one kind that do not hold (or cannot be evaluated), each with its id and diagnostic. */
export function violatedConstraints(worldOrIndex: World | WorldIndex, kind: 'hard' | 'soft', extra: { episode?: number } = {}): { id: string; diagnostic: Diagnostic }[] {
  // An index has lookups a world never has; its maps may be derived ones, not plain Maps (issue 18).
  const index = 'travel' in worldOrIndex ? worldOrIndex : indexWorld(worldOrIndex);
  let ctx: EvalContext | undefined;
  const out: { id: string; diagnostic: Diagnostic }[] = [];
  (index.world.constraints?.constraints ?? []).forEach((c, i) => {
    if (c.kind !== kind) return;
    // The Director checks these for every move it tries: one that holds by its compiled closures
    // (core/expr/compile.ts) needs no context; the others are evaluated for their diagnostic.
    if (holdsCompiled(c.expr, NO_ROLES, index, NO_BINDINGS, extra.episode)) return;
    const where = { file: WORLD_FILES.constraints, pointer: `/constraints/${i}/expr` };
    ctx ??= makeEvalContext(index, {}, { episode: extra.episode });
    const r = evaluateCondition(c.expr, ctx);
    if (!r.ok) out.push({ id: c.id, diagnostic: diag('AUR2057', { id: c.id, detail: r.diagnostic.message }, where) });
    else if (!r.value) out.push({ id: c.id, diagnostic: diag(kind === 'hard' ? 'AUR2056' : 'AUR2058', { id: c.id, message: c.message }, where) });
  });
  return out;
}

function checkConstraints(worldOrIndex: World | WorldIndex, kind: 'hard' | 'soft', extra: { episode?: number }): Diagnostic[] {
  return violatedConstraints(worldOrIndex, kind, extra).map((v) => v.diagnostic);
}

/** AUR2056/AUR2057: every hard constraint of world/constraints.json holds. */
export function checkHardConstraints(world: World | WorldIndex, extra: { episode?: number } = {}): Diagnostic[] {
  return checkConstraints(world, 'hard', extra);
}

/** AUR2058 (warnings): soft constraints that do not hold. */
export function checkSoftConstraints(world: World | WorldIndex, extra: { episode?: number } = {}): Diagnostic[] {
  return checkConstraints(world, 'soft', extra);
}

/**
 * The state invariants that need no scene context: ledger balances and the hard constraints.
 * Run on every state the engine produces.
 */
export function checkStateInvariants(world: World, extra: { episode?: number } = {}): Diagnostic[] {
  const index = indexWorld(world);
  return [...checkLedger(world), ...checkHardConstraints(index, extra)];
}

/** A scene as far as travel is concerned (PlannedScene has these fields). */
export interface SceneWhereabouts {
  id: string;
  location: string;
  /** Day offset within the episode (0-based). */
  day: number;
  cast: readonly string[];
}

/**
 * No teleportation: walking the scenes in order, each cast member must be able to travel from
 * where they were last seen (initially: their location in the index, on `startDay`) to the
 * scene's location in the days elapsed since. Each problem is returned with its scene id:
 * AUR2053 (cannot reach), AUR2059 (unknown character), AUR2052 (with `requireAlive`, a cast
 * member who is not alive in the index).
 */
export function checkMovements(
  index: WorldIndex,
  scenes: readonly SceneWhereabouts[],
  opts: { startDay?: number; requireAlive?: boolean } = {},
): { scene: string; diagnostic: Diagnostic }[] {
  const out: { scene: string; diagnostic: Diagnostic }[] = [];
  const seen = new Map<string, { location: string; day: number }>();
  for (const sc of scenes) {
    for (const who of sc.cast) {
      const c = index.characters.get(who);
      if (!c) { out.push({ scene: sc.id, diagnostic: diag('AUR2059', { who }) }); continue; }
      if (opts.requireAlive && c.status !== 'alive') { out.push({ scene: sc.id, diagnostic: diag('AUR2052', { who, status: c.status }) }); continue; }
      const last = seen.get(who) ?? { location: c.location, day: opts.startDay ?? 0 };
      const days = sc.day - last.day;
      const d = checkReach(index, who, sc.location, Math.max(0, days), last.location);
      if (d) out.push({ scene: sc.id, diagnostic: d });
      seen.set(who, { location: sc.location, day: sc.day });
    }
  }
  return out;
}

/** One operator use in an episode, in order: what checkApplicationSequence walks. */
export interface ApplicationStep {
  id: string;
  operator: Pick<Operator, 'id' | 'roles' | 'prereqs'>;
  bindings: Record<string, string>;
  /** The resolved deltas this application applies. */
  deltas: readonly ResolvedDelta[];
  /** Role names that act (default: ["actor"]); they must be alive when it applies. */
  actors?: readonly string[];
}

/**
 * Prerequisites hold before effects, actors are alive, and the ledger is conserved, across a
 * sequence of applications: each step is checked on the state left by the steps before it.
 * Returns the problems per application id; the walk stops at a batch that cannot apply.
 */
export function checkApplicationSequence(
  world: World,
  steps: readonly ApplicationStep[],
  extra: { episode?: number } = {},
): { application: string; diagnostic: Diagnostic }[] {
  const out: { application: string; diagnostic: Diagnostic }[] = [];
  let cur = world;
  for (const st of steps) {
    const index = indexWorld(cur);
    const push = (d: Diagnostic) => out.push({ application: st.id, diagnostic: d });
    const actors = (st.actors ?? ['actor']).map((r) => st.bindings[r]).filter((x): x is string => typeof x === 'string');
    checkActorsAlive(index, actors).forEach(push);
    checkOperatorPrereqs(st.operator, st.bindings, index, extra).forEach(push);
    const r = applyDeltas(cur, st.deltas, () => ({ episode: '', scene: '', event: st.id, operator: st.operator.id }));
    if (!r.ok) {
      r.diagnostics.forEach(push);
      break;
    }
    checkLedgerConservation(cur, r.world, st.deltas).forEach(push);
    cur = r.world;
  }
  return out;
}
