import { readStarterWorld, rolePools } from '../support/starter-world.js';
import { describe, expect, it } from 'vitest';
import { makeEvalContext } from '../../src/core/expr/context.js';
import { evaluateCondition } from '../../src/core/expr/evaluate.js';
import { checkPrereqs, operatorRoleKinds } from '../../src/core/expr/prereqs.js';
import { applyDeltas, resolveEffects } from '../../src/core/deltas/index.js';
import { indexWorld } from '../../src/core/world-index.js';
import type { Operator, RoleKind, World } from '../../src/domain/world.js';

/**
 * The starter kit against the expression and delta engines: every operator can be applied in the
 * starter state, by several different bindings, and its effects resolve and apply; every
 * constraint holds at the start. The Director needs 16-24 applications per episode, so a kit
 * whose operators are dead on arrival would make episode 1 infeasible.
 */

const world = readStarterWorld();
const index = indexWorld(world);

const pools = rolePools(world);

/** The roles an expression mentions (identifiers not preceded by a dot). */
function rolesIn(expr: string, roles: readonly string[]): string[] {
  return roles.filter((r) => new RegExp(`(^|[^.\\w'])${r}(?![\\w'])`).test(expr));
}

/**
 * Up to `limit` bindings (role -> id) under which every prereq holds, in a fixed enumeration
 * order. Each prereq is checked as soon as the roles it mentions are bound, which prunes the
 * search (a four-role operator over 15 characters would otherwise be tens of thousands of checks).
 */
function satisfyingBindings(op: Operator, limit: number): Record<string, string>[] {
  const kinds = operatorRoleKinds(op);
  const roles = Object.keys(kinds);
  const atLevel: Operator['prereqs'][] = roles.map(() => []);
  for (const p of op.prereqs) {
    const used = rolesIn(p.expr, roles).map((r) => roles.indexOf(r));
    atLevel[used.length ? Math.max(...used) : 0]!.push(p);
  }
  const found: Record<string, string>[] = [];
  const walk = (i: number, b: Record<string, string>): void => {
    if (found.length >= limit) return;
    if (i === roles.length) {
      // The full check, exactly as the planner will run it.
      if (checkPrereqs(op, b, index).holds) found.push(b);
      return;
    }
    for (const id of pools[kinds[roles[i]!]!]) {
      const next = { ...b, [roles[i]!]: id };
      if (atLevel[i]!.length && !checkPrereqs({ roles: op.roles, prereqs: atLevel[i]! }, next, index).holds) continue;
      walk(i + 1, next);
    }
  };
  walk(0, {});
  return found;
}

const memo = new Map<string, Record<string, string>[]>();
const bindingsOf = (op: Operator): Record<string, string>[] => {
  if (!memo.has(op.id)) memo.set(op.id, satisfyingBindings(op, 12));
  return memo.get(op.id)!;
};

describe('starter kit: prerequisites, effects and constraints in the starter state', () => {
  const ops = world.operators.operators;

  it('every prerequisite evaluates without error under a satisfying binding', () => {
    for (const op of ops) {
      const [b] = bindingsOf(op);
      expect(b, `${op.id} has no satisfying binding`).toBeDefined();
      const r = checkPrereqs(op, b!, index);
      expect(r.results.filter((x) => x.error), op.id).toEqual([]);
    }
  });

  it('every operator applies under at least two different bindings with two different actors overall', () => {
    let total = 0;
    for (const op of ops) {
      const bs = bindingsOf(op);
      expect(bs.length, `${op.id}: ${bs.length} satisfying bindings`).toBeGreaterThanOrEqual(2);
      total += bs.length;
    }
    // Far more than the 16-24 applications an episode needs.
    expect(total).toBeGreaterThan(24 * 4);
    const actors = new Set(ops.flatMap((op) => bindingsOf(op).map((b) => b.actor)));
    expect(actors.size).toBeGreaterThanOrEqual(10);
  });

  it('the effects and risk effects of every operator resolve and apply on the starter state', () => {
    for (const op of ops) {
      const roleKinds = operatorRoleKinds(op);
      for (const b of bindingsOf(op).slice(0, 3)) {
        const batches = [op.effects, ...op.side_effect_risks.map((r) => r.effects ?? [])];
        for (const effects of batches) {
          const r = resolveEffects(effects, b, index, { roleKinds });
          expect(r.ok ? [] : r.diagnostics, `${op.id} ${JSON.stringify(b)}`).toEqual([]);
          if (!r.ok) continue;
          const applied = applyDeltas(world, r.deltas, () => ({ episode: 's01e01', scene: 'SC01', event: 'e1', operator: op.id }));
          expect(applied.ok ? [] : applied.diagnostics, `${op.id} ${JSON.stringify(b)}`).toEqual([]);
        }
      }
    }
  });

  it('every constraint holds in the starter state', () => {
    const ctx = makeEvalContext(index, {});
    for (const c of world.constraints.constraints) {
      const r = evaluateCondition(c.expr, ctx);
      expect(r, `${c.id}: ${c.expr}`).toEqual({ ok: true, value: true });
    }
  });
});
