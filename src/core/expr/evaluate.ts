import { diag } from '../../diagnostics/catalog.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { EvalFail, type EvalContext } from './context.js';
import { arityOk, arityText, FUNCTIONS, relEdge, type FunctionSpec } from './functions.js';
import { parseExpression, type Ast } from './parse.js';
import { edgeScalar, edgeView, isView, typeName, viewMeta, type Value } from './views.js';

/**
 * The tree-walking interpreter. It reads only views (null-prototype objects with Object.hasOwn
 * checks), calls only the FUNCTIONS table, and turns every failure into a diagnostic value:
 * evaluate() never throws.
 */

export type EvalResult = { ok: true; value: Value } | { ok: false; diagnostic: Diagnostic };

export const at = (offset: number) => ({ line: 1, column: offset + 1 });

function fail(code: string, args: Record<string, unknown>, offset: number): never {
  throw new EvalFail(diag(code, args, at(offset)));
}

export function finite(n: number, what: string, offset: number): number {
  if (!Number.isFinite(n)) fail('AUR2009', { detail: `${what} is not a finite number` }, offset);
  return n;
}

/** Equality: primitives by value; entity views by kind and id; a view equals its id string. */
function equals(a: Value, b: Value): boolean {
  if (a === b) return true;
  const ma = viewMeta(a);
  const mb = viewMeta(b);
  if (ma?.id !== undefined && mb?.id !== undefined) return ma.kind === mb.kind && ma.id === mb.id;
  if (ma?.id !== undefined && typeof b === 'string') return ma.id === b;
  if (mb?.id !== undefined && typeof a === 'string') return mb.id === a;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equals(x, b[i]!));
  return false;
}

export function bool(v: Value, what: string, offset: number): boolean {
  if (typeof v !== 'boolean') fail('AUR2007', { detail: `${what} needs a boolean, got ${typeName(v)}` }, offset);
  return v as boolean;
}

export function num(v: Value, what: string, offset: number): number {
  if (typeof v !== 'number') fail('AUR2007', { detail: `${what} needs numbers, got ${typeName(v)}` }, offset);
  return v as number;
}

function ev(node: Ast, ctx: EvalContext): Value {
  switch (node.type) {
    case 'Literal':
      return node.value;
    case 'Identifier': {
      if (node.name === 'world') return ctx.worldView();
      const b = ctx.bindings.get(node.name);
      if (!b) {
        return fail('AUR2003', { name: node.name, known: ['world', ...ctx.bindings.keys()].join(', ') }, node.start);
      }
      const v = ctx.view(b.kind, b.id);
      if (!v) return fail('AUR2008', { kind: b.kind, id: b.id }, node.start);
      return v;
    }
    case 'Member': {
      const call = node.object;
      if (call.type === 'Call' && call.callee === 'rel' && call.args.length === 2) return relMember(node, call, ctx);
      return member(node, ev(node.object, ctx));
    }
    case 'Call': {
      const f = FUNCTIONS.get(node.callee);
      if (!f) return fail('AUR2005', { name: node.callee, known: [...FUNCTIONS.keys()].join(', ') }, node.start);
      if (!arityOk(f, node.args.length)) {
        return fail('AUR2006', { name: f.name, expected: arityText(f), got: node.args.length }, node.start);
      }
      return callValue(node, f, node.args.map((a) => ev(a, ctx)), ctx);
    }
    case 'Unary':
      return unaryValue(node, ev(node.argument, ctx));
    case 'Array':
      return Object.freeze(node.elements.map((e) => ev(e, ctx)));
    case 'Binary':
      return evBinary(node, ctx);
  }
  // Unreachable for ASTs produced by parseExpression; kept so a hand-built AST cannot escape.
  return fail('AUR2002', { what: String((node as { type?: unknown }).type) }, 0);
}

/** A call of a known function with the right number of arguments, once they are evaluated. */
export function callValue(node: Extract<Ast, { type: 'Call' }>, f: FunctionSpec, args: Value[], ctx: EvalContext): Value {
  const r = f.impl(args, ctx, at(node.start));
  if (typeof r === 'number') finite(r, `${f.name}()`, node.start);
  return r;
}

export function unaryValue(node: Extract<Ast, { type: 'Unary' }>, v: Value): Value {
  if (node.operator === '!') return !bool(v, '!', node.start);
  return finite(-num(v, 'unary -', node.start), 'negation', node.start);
}

export function member(node: Extract<Ast, { type: 'Member' }>, obj: Value): Value {
  if (!isView(obj)) {
    return fail('AUR2004', { field: node.property, type: typeName(obj), known: 'none' }, node.propStart);
  }
  if (!Object.hasOwn(obj, node.property)) {
    const kind = viewMeta(obj)!.kind;
    return fail('AUR2004', { field: node.property, type: kind, known: Object.keys(obj).join(', ') }, node.propStart);
  }
  return obj[node.property]!;
}

/**
 * `rel(a, b).field`: what ev gives for the call and then the member, the same failures in the same
 * order (arguments, then rel's own checks, then the field), without building the edge view when the
 * field is a weight (issue 18: planning reads tens of thousands of them).
 */
function relMember(node: Extract<Ast, { type: 'Member' }>, call: Extract<Ast, { type: 'Call' }>, ctx: EvalContext): Value {
  return relField(node, call, ev(call.args[0]!, ctx), ev(call.args[1]!, ctx), ctx);
}

/** relMember once its two arguments are evaluated (compile.ts evaluates them its own way). */
export function relField(node: Extract<Ast, { type: 'Member' }>, call: Extract<Ast, { type: 'Call' }>, a: Value, b: Value, ctx: Pick<EvalContext, 'index'>): Value {
  const { from, to, edge } = relEdge(a, b, ctx, at(call.start));
  const v = edgeScalar(from, to, edge, node.property);
  return v !== undefined ? v : member(node, edgeView(from, to, edge));
}

/** Binary operators, apart from ev because they are most of the interpreter's rules. */
function evBinary(node: Extract<Ast, { type: 'Binary' }>, ctx: EvalContext): Value {
  const op = node.operator;
  // && and || short-circuit, so `alive(x) && char(x).wealth > 3` is safe.
  if (op === '&&') return bool(ev(node.left, ctx), '&&', node.start) ? bool(ev(node.right, ctx), '&&', node.start) : false;
  if (op === '||') return bool(ev(node.left, ctx), '||', node.start) ? true : bool(ev(node.right, ctx), '||', node.start);
  return binaryValue(node, ev(node.left, ctx), ev(node.right, ctx));
}

/** A binary operator other than && and || on its evaluated operands. */
export function binaryValue(node: Extract<Ast, { type: 'Binary' }>, l: Value, r: Value): Value {
  const op = node.operator;
  switch (op) {
    case '==': return equals(l, r);
    case '!=': return !equals(l, r);
    case 'in': {
      if (!Array.isArray(r)) return fail('AUR2007', { detail: `in needs a list on its right, got ${typeName(r)}` }, node.right.start);
      return r.some((x) => equals(l, x));
    }
    case '<': case '<=': case '>': case '>=': {
      let a: number | string, b: number | string;
      if (typeof l === 'string' && typeof r === 'string') { a = l; b = r; }
      else { a = num(l, op, node.start); b = num(r, op, node.start); }
      return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
    }
    case '+': {
      if (typeof l === 'string' && typeof r === 'string') return l + r;
      return finite(num(l, '+', node.start) + num(r, '+', node.start), 'the sum', node.start);
    }
    case '-': return finite(num(l, '-', node.start) - num(r, '-', node.start), 'the difference', node.start);
    case '*': return finite(num(l, '*', node.start) * num(r, '*', node.start), 'the product', node.start);
    case '/': case '%': {
      const a = num(l, op, node.start);
      const b = num(r, op, node.start);
      if (b === 0) return fail('AUR2009', { detail: 'division by zero' }, node.right.start);
      return finite(op === '/' ? a / b : a % b, 'the quotient', node.start);
    }
  }
  // Unreachable for the operators parseExpression produces; a hand-built one fails as ev's unknown node does.
  return fail('AUR2002', { what: node.type }, 0);
}

/** Evaluate a parsed AST. Never throws. */
export function evaluateAst(ast: Ast, ctx: EvalContext): EvalResult {
  try {
    return { ok: true, value: ev(ast, ctx) };
  } catch (e) {
    if (e instanceof EvalFail) return { ok: false, diagnostic: e.diagnostic };
    // A RangeError (pathological input) or a bug in a function: still a value, never a throw.
    return { ok: false, diagnostic: diag('AUR2009', { detail: e instanceof Error ? e.message : 'evaluation failed' }, at(0)) };
  }
}

/** Parse (cached) and evaluate an expression. Never throws. */
export function evaluate(src: string, ctx: EvalContext): EvalResult {
  const p = parseExpression(src);
  if (!p.ok) return p;
  return evaluateAst(p.ast, ctx);
}

/** Evaluate a condition: the result must be a boolean. */
export function evaluateCondition(src: string, ctx: EvalContext): { ok: true; value: boolean } | { ok: false; diagnostic: Diagnostic } {
  const r = evaluate(src, ctx);
  if (!r.ok) return r;
  if (typeof r.value !== 'boolean') return { ok: false, diagnostic: diag('AUR2011', { type: typeName(r.value) }, at(0)) };
  return { ok: true, value: r.value };
}
