import { describe, expect, it } from 'vitest';
import { typecheckWorldExpressions } from '../../src/core/expr/check.js';
import type { World } from '../../src/domain/world.js';
import { smallWorld, witnessFlip } from './fixture.js';

function withOperator(over: Partial<ReturnType<typeof witnessFlip>>): World {
  const w = smallWorld();
  w.operators.operators = [{ ...witnessFlip(), ...over }];
  return w;
}

describe('typecheckWorldExpressions', () => {
  it('accepts the fixture world', () => {
    expect(typecheckWorldExpressions(smallWorld())).toEqual([]);
  });
  it('reports an unknown field with file, pointer and column', () => {
    const d = typecheckWorldExpressions(withOperator({ prereqs: [{ expr: 'actor.wealth > 1' }, { expr: 'actor.weath > target.wealth' }] }));
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ code: 'AUR2004', file: 'operators/operators.json', pointer: '/operators/0/prereqs/1/expr', column: 7 });
    expect(d[0]!.line).toBeUndefined();
  });
  it('reports unknown roles, functions, arity, literal ids, types and non-boolean conditions', () => {
    const d = typecheckWorldExpressions(withOperator({
      prereqs: [
        { expr: 'rival.wealth > 1' },
        { expr: 'frob(actor) > 1' },
        { expr: 'rel(actor) .loyalty > 0' },
        { expr: "secret('sec_nope').status == 'hidden'" },
        { expr: "actor.wealth > 'rich'" },
        { expr: 'actor.wealth + 1' },
        { expr: 'world.global.unrst > 2' },
        { expr: "'X' in actor.name" },
        { expr: 'holds(actor, target)' },
        { expr: 'actor.wealth.x > 1' },
        { expr: 'actor.wealth >' },
        { expr: "actor.status == 1 || actor == 'crassus' || actor != target || actor.location == null" },
      ],
    }));
    for (const x of d) expect(`${x.message} ${x.hint ?? ''}`).not.toMatch(/\{\w+\}/);
    expect(d.map((x) => [x.code, x.pointer!.split('/').pop() === 'expr' ? x.pointer!.split('/')[4] : x.pointer, x.column])).toEqual([
      ['AUR2003', '0', 1],
      ['AUR2005', '1', 1],
      ['AUR2006', '2', 1],
      ['AUR2008', '3', 8],
      ['AUR2007', '4', 1],
      ['AUR2011', '5', 1],
      ['AUR2004', '6', 14],
      ['AUR2007', '7', 8],
      ['AUR2007', '8', 14],
      ['AUR2004', '9', 14],
      ['AUR2001', '10', 15],
      ['AUR2007', '11', 1],
    ]);
  });
  it('checks effect paths, ops and value/amount expressions, including risk effects', () => {
    const d = typecheckWorldExpressions(withOperator({
      effects: [
        { path: 'target.charm', op: 'add', value: 1 },
        { path: 'victim.wealth', op: 'add', value: 1 },
        { path: 'target.status', op: 'add', value: 'dead' },
        { path: 'actor.wealth', op: 'add', value: { expr: 'target.weath / 2' } },
        { path: 'assets.cash_ledger', op: 'transfer', from: 'actor', to: 'target', amount: { expr: "'lots'" } },
        { path: 'actor.wealth', op: 'add', value: { expr: 'actor.bdi' } },
      ],
      side_effect_risks: [{ text: 'x', prob: 0.1, effects: [{ path: 'actor.fama', op: 'transfer', value: 1 }] }],
    }));
    expect(d.map((x) => [x.code, x.pointer])).toEqual([
      ['AUR2020', '/operators/0/effects/0/path'],
      ['AUR2024', '/operators/0/effects/1/path'],
      ['AUR2021', '/operators/0/effects/2/op'],
      ['AUR2004', '/operators/0/effects/3/value/expr'],
      ['AUR2007', '/operators/0/effects/4/amount/expr'],
      ['AUR2007', '/operators/0/effects/5/value/expr'],
      ['AUR2021', '/operators/0/side_effect_risks/0/effects/0/op'],
    ]);
  });
  it('checks constraints with no roles in scope', () => {
    const w = smallWorld();
    w.constraints.constraints.push({ id: 'c_bad', kind: 'hard', expr: 'actor.wealth > 0', message: 'x' });
    w.constraints.constraints.push({ id: 'c_ok', kind: 'hard', expr: "world.global.unrest <= 10 && count_alive() >= 1 && balance('crassus') >= 0", message: 'x' });
    const d = typecheckWorldExpressions(w);
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ code: 'AUR2003', file: 'world/constraints.json', pointer: '/constraints/2/expr', column: 1 });
  });
  it('treats hostile member names as unknown fields', () => {
    for (const f of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']) {
      const d = typecheckWorldExpressions(withOperator({ prereqs: [{ expr: `actor.${f} == 1` }] }));
      expect(d.map((x) => x.code), f).toEqual(['AUR2004']);
    }
  });
});
