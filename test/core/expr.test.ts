import { describe, expect, it } from 'vitest';
import { checkPrereqs, evaluate, makeEvalContext, parseExpression } from '../../src/core/expr/index.js';
import { indexWorld } from '../../src/core/world-index.js';
import { smallWorld, witnessFlip } from './fixture.js';

const world = smallWorld();
const index = indexWorld(world);
const ctx = makeEvalContext(index, { actor: 'crassus', target: 'cicero', secret: 'sec_debts', thr: 'thr_grain', place: 'ostia', fac: 'populares' }, { episode: 3 });
const val = (src: string) => {
  const r = evaluate(src, ctx);
  if (!r.ok) throw new Error(`${src}: ${r.diagnostic.code} ${r.diagnostic.message}`);
  return r.value;
};
const err = (src: string) => {
  const r = evaluate(src, ctx);
  if (r.ok) throw new Error(`${src} unexpectedly gave ${JSON.stringify(r.value)}`);
  return r.diagnostic;
};

describe('the spec examples', () => {
  it('evaluates each example from the issue', () => {
    expect(val('actor.wealth > target.wealth * 10')).toBe(true); // 95 > 80
    expect(val("actor.status == 'alive' && target.location == actor.location")).toBe(true);
    expect(val('rel(actor, target).loyalty < 0.2')).toBe(false); // 0.3
    expect(val('rel(target, actor).loyalty < 0.2')).toBe(true); // 0.1
    expect(val("secret('sec_debts').status == 'hidden'")).toBe(true);
    expect(val("'TESTIFY' in target.bdi.intentions")).toBe(true);
    expect(val("'TESTIFY' in actor.bdi.intentions")).toBe(false);
    expect(val('world.global.unrest >= 6')).toBe(false);
    expect(val('world.global.unrest >= 4')).toBe(true);
  });
});

describe('operators and precedence', () => {
  it('does arithmetic with the usual precedence', () => {
    expect(val('1 + 2 * 3')).toBe(7);
    expect(val('(1 + 2) * 3')).toBe(9);
    expect(val('10 - 4 - 3')).toBe(3);
    expect(val('7 % 4')).toBe(3);
    expect(val('-actor.wealth + 100')).toBe(5);
    expect(val('9 / 3')).toBe(3);
  });
  it('compares, joins strings and short-circuits', () => {
    expect(val("'ab' + 'c' == 'abc'")).toBe(true);
    expect(val("'a' < 'b'")).toBe(true);
    expect(val('1 != 2 && !(1 == 2)')).toBe(true);
    expect(val('true || char(\'nobody\').wealth > 1')).toBe(true);
    expect(val('false && char(\'nobody\').wealth > 1')).toBe(false);
    expect(val('1 + 1 in [1, 2, 3]')).toBe(true);
    expect(val("'x' in []")).toBe(false);
    expect(val('null == null')).toBe(true);
  });
  it('compares entity views by id and with id strings', () => {
    expect(val("actor == 'crassus'")).toBe(true);
    expect(val('actor == char(\'crassus\')')).toBe(true);
    expect(val('actor != target')).toBe(true);
    expect(val("secret.subject == actor.id")).toBe(true);
  });
});

describe('names, fields and functions', () => {
  it('reads every documented view field', () => {
    expect(val('actor.stats.wealth')).toBe(95);
    expect(val('actor.principal')).toBe(true);
    expect(val("actor.faction == 'optimates'")).toBe(true);
    expect(val("'power' in actor.bdi.desires")).toBe(true);
    expect(val("'KNOWS:sec_debts' in target.bdi.beliefs")).toBe(true);
    expect(val("'cicero' in secret.holders")).toBe(true);
    expect(val('secret.legal_value + secret.public_damage')).toBeCloseTo(1.4);
    expect(val('thr.progress')).toBe(0.2);
    expect(val('thr.major && thr.priority == 4')).toBe(true);
    expect(val("place.setting == 'port'")).toBe(true);
    expect(val("fac.name == 'Populares'")).toBe(true);
    expect(val('world.date.year_bc')).toBe(63);
    expect(val('world.episode')).toBe(3);
    expect(val('world.days_per_episode')).toBe(3);
  });
  it('implements the function table', () => {
    expect(val('balance(actor)')).toBe(100000);
    expect(val("balance('cicero')")).toBe(500);
    expect(val("balance('tiro')")).toBe(0);
    expect(val("travel_days('rome_forum', 'capua')")).toBe(4); // via ostia (1 + 3), not 5
    expect(val("travel_days(actor, 'ostia')")).toBe(1);
    expect(val("travel_days(char('clodius'), actor)")).toBe(1);
    expect(val('holds(target, secret)')).toBe(true);
    expect(val("holds(actor, 'sec_debts')")).toBe(false);
    expect(val("has_flag(target, actor, 'rival')")).toBe(true);
    expect(val("has_flag(actor, target, 'rival')")).toBe(false);
    expect(val('count_alive()')).toBe(3); // sulla is dead, tiro is not a principal
    expect(val('min(3, 1, 2) + max(1, 5) + abs(-2)')).toBe(8);
    expect(val('len(target.bdi.intentions)')).toBe(1);
    expect(val('min_balance()')).toBe(500);
    expect(val('ledger_total()')).toBe(152500);
    expect(val("alive('sulla')")).toBe(false);
    expect(val("rel('clodius', 'sulla').trust")).toBe(0); // a missing edge reads as zero
    expect(val("len(rel('clodius', 'sulla').flags)")).toBe(0);
    expect(val("thread('thr_love').cadence")).toBe(1);
    expect(val("faction('optimates').id")).toBe('optimates');
    expect(val("location('capua').name")).toBe('Capua');
  });
  it('reports unknown names, fields and functions with a column', () => {
    const d1 = err('actor.wealth > rival.wealth');
    expect(d1).toMatchObject({ code: 'AUR2003', column: 16 });
    const d2 = err('actor.weath > 1');
    expect(d2).toMatchObject({ code: 'AUR2004', column: 7 });
    expect(d2.hint).toContain('wealth');
    expect(err('  frobnicate(actor)')).toMatchObject({ code: 'AUR2005', column: 3 });
    expect(err('abs(1, 2)')).toMatchObject({ code: 'AUR2006' });
    expect(err("char('nobody').wealth")).toMatchObject({ code: 'AUR2008' });
    expect(err("travel_days('rome_forum', 'island')")).toMatchObject({ code: 'AUR2012' });
  });
  it('reports type and arithmetic errors as values', () => {
    expect(err("actor.wealth > 'x'")).toMatchObject({ code: 'AUR2007' });
    expect(err('1 && true')).toMatchObject({ code: 'AUR2007' });
    expect(err('!3')).toMatchObject({ code: 'AUR2007' });
    expect(err("'x' in 'xyz'")).toMatchObject({ code: 'AUR2007' });
    expect(err('1 / 0')).toMatchObject({ code: 'AUR2009' });
    expect(err('5 % 0')).toMatchObject({ code: 'AUR2009' });
    expect(err('1e308 * 10')).toMatchObject({ code: 'AUR2009' });
    expect(err('actor.wealth.x')).toMatchObject({ code: 'AUR2004' });
  });
});

describe('parsing', () => {
  it('rejects forms outside the language', () => {
    for (const [src, code] of [
      ['a = 1', 'AUR2001'],
      ['actor["wealth"]', 'AUR2002'],
      ['a ? b : c', 'AUR2002'],
      ['this', 'AUR2002'],
      ['a b', 'AUR2002'],
      ['1 ** 2', 'AUR2001'],
      ['1 | 2', 'AUR2001'],
      ['~1', 'AUR2001'],
      ['actor?.wealth', 'AUR2002'],
      ['actor.f()', 'AUR2002'],
      ['', 'AUR2001'],
      ['1 +', 'AUR2001'],
      ["'unterminated", 'AUR2001'],
    ] as const) {
      const r = parseExpression(src);
      expect(r.ok, src).toBe(false);
      if (!r.ok) expect(r.diagnostic.code, src).toBe(code);
    }
  });
  it('gives the column of a syntax error', () => {
    const r = parseExpression('actor.wealth > > 3');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostic.column).toBeGreaterThan(13);
  });
  it('caches the AST and hands out fresh diagnostics', () => {
    const a = parseExpression('actor.wealth > 1');
    const b = parseExpression('actor.wealth > 1');
    expect(a.ok && b.ok && a.ast === b.ast).toBe(true);
    const e1 = parseExpression('1 +');
    if (!e1.ok) e1.diagnostic.file = 'x.json';
    const e2 = parseExpression('1 +');
    expect(!e2.ok && e2.diagnostic.file).toBe(undefined);
  });
  it('limits length and depth', () => {
    expect(parseExpression('1+'.repeat(1500) + '1')).toMatchObject({ ok: false, diagnostic: { code: 'AUR2010' } });
    expect(parseExpression('('.repeat(60) + '1' + ')'.repeat(60))).toMatchObject({ ok: false, diagnostic: { code: 'AUR2010' } });
    expect(parseExpression('('.repeat(20) + '1' + ')'.repeat(20)).ok).toBe(true);
  });
});

describe('the in operator and names that start with "in"', () => {
  it('keeps identifiers like informer and index intact', () => {
    const c = makeEvalContext(index, { informer: 'crassus', index: 'cicero' });
    const v = (src: string) => evaluate(src, c);
    expect(v('informer.wealth > 1')).toEqual({ ok: true, value: true });
    expect(v('index.wealth < informer.wealth')).toEqual({ ok: true, value: true });
    expect(v('informer.wealth>1&&index.wealth<9')).toEqual({ ok: true, value: true });
    expect(v("'a'in['a']")).toEqual({ ok: true, value: true });
    expect(v('1 in[2]')).toEqual({ ok: true, value: false });
  });
});

describe('checkPrereqs', () => {
  it('evaluates every prerequisite with the operator role kinds', () => {
    const op = witnessFlip();
    const ok = checkPrereqs(op, { actor: 'crassus', target: 'cicero' }, index);
    expect(ok.holds).toBe(true);
    expect(ok.results.map((r) => r.holds)).toEqual([true, true]);
    const no = checkPrereqs(op, { actor: 'cicero', target: 'crassus' }, index);
    expect(no.holds).toBe(false);
    expect(no.results.map((r) => r.holds)).toEqual([false, true]);
    const dead = checkPrereqs(op, { actor: 'crassus', target: 'sulla' }, index);
    expect(dead.results[1]!.holds).toBe(false);
  });
  it('reports an unevaluable prerequisite as not holding, with the error', () => {
    const op = { ...witnessFlip(), prereqs: [{ expr: 'actor.wealth > rival.wealth' }, { expr: 'actor.wealth' }] };
    const r = checkPrereqs(op, { actor: 'crassus', target: 'cicero' }, index);
    expect(r.holds).toBe(false);
    expect(r.results[0]!.error?.code).toBe('AUR2003');
    expect(r.results[1]!.error?.code).toBe('AUR2011');
  });
  it('binds roles by declared kind even when ids collide across kinds', () => {
    const w = smallWorld();
    w.factions.factions.push({ id: 'crassus', name: 'Crassiani', description: '', objectives: [] });
    const ix = indexWorld(w);
    const op = { roles: { actor: { kind: 'character' as const }, f: { kind: 'faction' as const } }, prereqs: [{ expr: "f.name == 'Crassiani' && actor.wealth == 95" }] };
    expect(checkPrereqs(op, { actor: 'crassus', f: 'crassus' }, ix).holds).toBe(true);
  });
});
