import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Operator, RoleKind, World } from '../../src/domain/world.js';
import { checkPrereqs, evaluateAst, evaluateCondition, makeEvalContext, operatorRoleKinds, parseExpression, prereqsHold, type Ast } from '../../src/core/expr/index.js';
import { compiledVerdict, NO_ROLES } from '../../src/core/expr/compile.js';
import { violatedConstraints } from '../../src/core/invariants.js';
import { indexWorld, type WorldIndex } from '../../src/core/world-index.js';
import { applyDeltas } from '../../src/core/deltas/index.js';
import type { Provenance } from '../../src/domain/delta.js';
import { loadScenario, scenarios } from '../stages/planning/helpers.js';

/**
 * Planning judges prerequisites, the pool's conjuncts and the hard constraints through closures
 * compiled from each condition (core/expr/compile.ts). A verdict must be exactly what the interpreter
 * says (true only when the expression evaluates to true) for every binding: real operators of the
 * starter world and the planning fixtures, on their states and on one with deaths and resolved
 * threads, with ids of every kind, missing ids and unbound roles; and for made-up expressions that
 * fail in every way the language can (type errors, unknown fields, division by zero, no route).
 */
const worlds = await Promise.all(scenarios().map(async (s) => ({ name: s.name, world: (await loadScenario(s)).world })));

const parse = (src: string): Ast => {
  const p = parseExpression(src);
  if (!p.ok) throw new Error(src);
  return p.ast;
};
const split = (a: Ast): Ast[] => (a.type === 'Binary' && a.operator === '&&' ? [...split(a.left), ...split(a.right)] : [a]);
const interpreted = (ast: Ast, index: WorldIndex, b: Record<string, string>, kinds: Readonly<Record<string, RoleKind>>, episode: number): boolean => {
  const r = evaluateAst(ast, makeEvalContext(index, b, { episode, roleKinds: kinds }));
  return r.ok && r.value === true;
};

/** The world with a third of its characters dead, its first thread resolved and its first secret revealed. */
function shaken(w: World): World {
  const x = structuredClone(w);
  x.characters.characters.forEach((c, i) => { if (i % 3 === 1) c.status = 'dead'; });
  if (x.threads.threads[0]) x.threads.threads[0].status = 'resolved';
  if (x.secrets.secrets[0]) x.secrets.secrets[0].status = 'revealed';
  return x;
}

function idsOf(w: World): string[] {
  return [
    ...w.characters.characters.map((c) => c.id),
    ...w.secrets.secrets.map((s) => s.id),
    ...w.threads.threads.map((t) => t.id),
    ...w.world.locations.map((l) => l.id),
    ...w.factions.factions.map((f) => f.id),
    'ghost',
  ];
}

/** Bindings of an operator's roles drawn from every id (or left unbound), the actor a character. */
const bindingsOf = (op: Operator, ids: string[], chars: string[]) =>
  fc.record(Object.fromEntries(Object.keys(op.roles ?? {}).filter((r) => r !== 'actor').map((r) => [r, fc.option(fc.constantFrom(...ids), { nil: undefined })])))
    .chain((rest) => fc.constantFrom(...chars).map((actor) => {
      const b: Record<string, string> = { actor };
      for (const [k, v] of Object.entries(rest)) if (typeof v === 'string') b[k] = v;
      return b;
    }));

describe('compiled condition verdicts (core/expr/compile.ts)', () => {
  it('agree with the interpreter on every real prerequisite and conjunct, bindings of every kind', () => {
    let compiled = 0;
    let total = 0;
    const seen = new Set<boolean>();
    for (const { name, world } of worlds) {
      for (const state of [world, shaken(world)]) {
        const index = indexWorld(state);
        const ids = idsOf(state);
        const chars = [...state.characters.characters.map((c) => c.id), 'ghost'];
        for (const op of state.operators.operators) {
          const kinds = operatorRoleKinds(op);
          const asts = (op.prereqs ?? []).flatMap((p) => { const a = parse(p.expr); return [a, ...split(a)]; });
          fc.assert(fc.property(bindingsOf(op, ids, chars), fc.constantFrom(1, 4), (b, episode) => {
            for (const ast of asts) {
              const verdict = compiledVerdict(ast, kinds);
              if (!verdict) continue;
              const want = interpreted(ast, index, b, kinds, episode);
              seen.add(want);
              expect(verdict(index, b, episode), `${name} ${op.id} ${JSON.stringify(b)}`).toBe(want);
            }
            // The callers: the full check's results and the early-exit verdict.
            const plain = (op.prereqs ?? []).map((p) => {
              const r = evaluateCondition(p.expr, makeEvalContext(index, b, { episode, roleKinds: kinds }));
              return r.ok ? { expr: p.expr, holds: r.value } : { expr: p.expr, holds: false, error: r.diagnostic };
            });
            const full = checkPrereqs(op, b, index, { episode });
            expect(full.results).toEqual(plain);
            expect(prereqsHold(op, b, index, { episode })).toBe(plain.every((r) => r.holds));
          }), { numRuns: 12, seed: 7 });
          for (const ast of asts) { total++; if (compiledVerdict(ast, kinds)) compiled++; }
        }
      }
    }
    // Not a vacuous pass: nearly every real condition compiles, and both verdicts occur.
    expect(compiled / total).toBeGreaterThan(0.95);
    expect([...seen].sort()).toEqual([false, true]);
  });

  it('agree with the interpreter on the hard and soft constraints, as violatedConstraints reports them', () => {
    for (const { world } of worlds) {
      for (const state of [world, shaken(world)]) {
        const index = indexWorld(state);
        for (const kind of ['hard', 'soft'] as const) {
          const plain: { id: string; code: string; message: string }[] = [];
          for (const c of state.constraints?.constraints ?? []) {
            if (c.kind !== kind) continue;
            const ast = parse(c.expr);
            const verdict = compiledVerdict(ast, NO_ROLES);
            if (verdict) expect(verdict(index, {}, 3), c.expr).toBe(interpreted(ast, index, {}, NO_ROLES, 3));
            const r = evaluateCondition(c.expr, makeEvalContext(index, {}, { episode: 3 }));
            if (!r.ok || !r.value) plain.push({ id: c.id, code: r.ok ? (kind === 'hard' ? 'AUR2056' : 'AUR2058') : 'AUR2057', message: r.ok ? c.message : r.diagnostic.message });
          }
          const got = violatedConstraints(index, kind, { episode: 3 });
          expect(got.map((v) => v.id)).toEqual(plain.map((p) => p.id));
          expect(got.map((v) => v.diagnostic.code)).toEqual(plain.map((p) => p.code));
        }
      }
    }
  });

  it('agree with the interpreter on made-up expressions that fail in every way', () => {
    const { world } = worlds.find((w) => w.name === 'planning-base')!;
    const index = indexWorld(shaken(world));
    const ids = idsOf(world);
    const kinds = { actor: 'character', target: 'character', thing: 'secret', thr: 'thread' } as Record<string, RoleKind>;
    const atoms = [
      'actor', 'target', 'thing', 'thr', 'world', 'stranger', '1', '0', '2.5', "'alive'", "'x'", 'true', 'false', 'null', '[1, 2]', "['alive', 'dead']",
      'actor.wealth', 'target.status', 'actor.nothing', 'thing.holders', 'thing.subject', 'thr.stakeholders', 'thr.progress', 'world.global', 'world.episode',
      'rel(actor, target).trust', 'rel(target, actor).flags', 'rel(actor, thing).fear', 'rel(actor, target).nope', 'rel(actor, target)',
      'has_flag(actor, target, \'kin\')', 'travel_days(actor, target)', 'balance(actor)', 'holds(actor, thing)', 'count_alive()',
      "char('cicero').status", 'len(thing.holders)', 'nosuch(actor)', 'rel(actor)', 'min(1, actor.wealth)',
      // Well-typed conditions, true for many bindings, so that both verdicts come up often.
      '(actor.wealth >= 0)', "(target.status in ['alive', 'dead'])", '(thr.progress < 2)', '(rel(actor, target).trust >= 0)', '(thing.id != actor.id)',
      // A role compared as a whole (its view, or a failure when unbound or missing).
      "(target != 'x')", '(thing == thing)', "!(target == 'ghost')", '(target in [actor, thing])',
    ];
    const ops = ['==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', 'in', '&&', '||'];
    const expr: fc.Arbitrary<string> = fc.letrec((tie) => ({
      e: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom(...atoms),
        fc.tuple(tie('e'), fc.constantFrom(...ops), tie('e')).map(([l, o, r]) => `(${l} ${o} ${r})`),
        tie('e').map((x) => `!${x}`),
        tie('e').map((x) => `-${x}`),
      ),
    })).e as fc.Arbitrary<string>;
    const chars = world.characters.characters.map((c) => c.id);
    const binding = fc.record({ actor: fc.constantFrom(...chars, ...chars, 'ghost', 'thr_grain'), target: fc.option(fc.constantFrom(...ids), { nil: undefined }), thing: fc.constantFrom(...ids), thr: fc.constantFrom(...ids) })
      .map((b) => Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) as Record<string, string>);
    let trues = 0;
    fc.assert(fc.property(expr, binding, (src, b) => {
      const p = parseExpression(src);
      if (!p.ok) return;
      const verdict = compiledVerdict(p.ast, kinds);
      const want = interpreted(p.ast, index, b, kinds, 2);
      if (want) trues++;
      if (verdict) expect(verdict(index, b, 2), src).toBe(want);
      else expect(/stranger|nosuch|rel\(actor\)/.test(src), src).toBe(true); // only what cannot compile
    }), { numRuns: 3000, seed: 11 });
    expect(trues).toBeGreaterThan(40);
  });

  it('read a state derived by deltas: the entities it changed anew, the others through the views they share', () => {
    const { world } = worlds.find((w) => w.name === 'planning-base')!;
    const [a, b] = world.characters.characters.map((c) => c.id);
    const before = indexWorld(world);
    const prov = (): Provenance => ({ episode: 's01e01', scene: 'SC01', event: 'test', operator: null });
    const r = applyDeltas(world, [{ path: `characters.${a}.status`, op: 'set', value: 'dead' }, { path: 'world.global.unrest', op: 'add', value: 1 }], prov);
    if (!r.ok) throw new Error('delta');
    const after = indexWorld(r.world);
    const read = (index: WorldIndex, src: string) => {
      const v = evaluateAst(parse(src), makeEvalContext(index, { actor: a!, target: b! }, { episode: 1 }));
      return v.ok ? v.value : v.diagnostic.code;
    };
    expect(read(before, 'actor.status')).toBe(world.characters.characters[0]!.status);
    expect(read(after, 'actor.status')).toBe('dead');
    expect(read(after, 'world.global.unrest')).toBe((read(before, 'world.global.unrest') as number) + 1);
    const ctx0 = makeEvalContext(before, {});
    const ctx1 = makeEvalContext(after, {});
    expect(ctx1.view('character', b!)).toBe(ctx0.view('character', b!));
    expect(ctx1.view('character', a!)).not.toBe(ctx0.view('character', a!));
    // One compiled closure read on either state in turn: each answer is its own state's.
    const dead = compiledVerdict(parse("actor.status == 'dead'"), operatorRoleKinds(world.operators.operators[0]!))!;
    expect([before, after, before, after].map((ix) => dead(ix, { actor: a! }, 1))).toEqual([false, true, false, true]);
    expect([after, before].map((ix) => dead(ix, { actor: b! }, 1))).toEqual([false, false]);
  });
});
