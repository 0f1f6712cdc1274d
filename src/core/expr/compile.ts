import type { RoleKind } from '../../domain/world.js';
import { diag } from '../../diagnostics/catalog.js';
import type { WorldIndex } from '../world-index.js';
import { EvalFail, makeEvalContext, viewOf, worldViewOf, type EvalContext } from './context.js';
import { binaryValue, bool, callValue, member, relField, unaryValue } from './evaluate.js';
import { arityOk, FUNCTIONS } from './functions.js';
import { parseExpression, type Ast } from './parse.js';
import type { Value } from './views.js';

/**
 * A condition turned once into closures, for callers that only need its verdict: whether
 * evaluateAst(ast, makeEvalContext(index, bindings, { episode, roleKinds: kinds })) gives `true`
 * (a failure, whatever its diagnostic, counts as not holding). Issue 18: planning asks ~6,000 such
 * verdicts per episode (the pool's conjuncts, the Director's tries), each building a context (a map
 * of its bindings) and walking the tree through the interpreter's switch and argument arrays.
 *
 * Each closure does what `ev` does for its node, in the same order, through the interpreter's own
 * helpers (evaluate.ts: operators, members, `rel(a, b).field`, calls), which throw the same
 * failures. What differs is only how a name is read: `world` and the roles the operator declares a
 * kind for are read from the bindings and the index directly (a declared role's kind is never
 * inferred, so makeEvalContext binds it exactly when its id is a string). A condition naming
 * anything else, or calling an unknown function or with the wrong number of arguments, is not
 * compiled (null): the caller evaluates it. expr-compile.test.ts checks the verdicts against the
 * interpreter on the real worlds' operators.
 */
export type Verdict = (index: WorldIndex, bindings: Readonly<Record<string, string>>, episode: number | undefined) => boolean;

interface Env {
  index: WorldIndex;
  b: Readonly<Record<string, string>>;
  episode: number | undefined;
}
type Node = (env: Env) => Value;

/** Raised for an unbound role or a missing entity (the interpreter's AUR2003, AUR2008): only ever read as a false verdict. */
const UNBOUND = new EvalFail(diag('AUR2003', { name: 'a role', known: 'the bound roles' }, { line: 1, column: 1 }));

const verdicts = new WeakMap<Ast, WeakMap<object, Verdict | null>>();

/** The verdict of `ast` for an operator's declared role kinds (operatorRoleKinds: one object per operator), or null. */
export function compiledVerdict(ast: Ast, kinds: Readonly<Record<string, RoleKind>>): Verdict | null {
  let byKinds = verdicts.get(ast);
  if (!byKinds) verdicts.set(ast, (byKinds = new WeakMap()));
  let v = byKinds.get(kinds);
  if (v === undefined) {
    const f = compileNode(ast, kinds);
    v = f && ((index, b, episode) => {
      try {
        return f({ index, b, episode }) === true;
      } catch {
        return false; // every failure, as evaluateAst's caller reads it (`r.ok && r.value === true`)
      }
    });
    byKinds.set(kinds, v);
  }
  return v;
}

/** Functions read only the index and views (functions.ts): one context with no bindings serves every call on an index. */
const callContexts = new WeakMap<WorldIndex, EvalContext>();
function callContext(index: WorldIndex): EvalContext {
  let c = callContexts.get(index);
  if (!c) callContexts.set(index, (c = makeEvalContext(index, {})));
  return c;
}

function compileNode(node: Ast, kinds: Readonly<Record<string, RoleKind>>): Node | null {
  const sub = (n: Ast): Node | null => compileNode(n, kinds);
  switch (node.type) {
    case 'Literal': {
      const value = node.value;
      return () => value;
    }
    case 'Identifier': {
      if (node.name === 'world') return (env) => worldViewOf(env.index, env.episode);
      const name = node.name;
      if (!Object.hasOwn(kinds, name)) return null;
      const kind = kinds[name]!;
      return (env) => {
        const id = Object.hasOwn(env.b, name) ? env.b[name] : undefined;
        if (typeof id !== 'string') throw UNBOUND;
        const v = viewOf(env.index, kind, id);
        if (!v) throw UNBOUND;
        return v;
      };
    }
    case 'Member': {
      const call = node.object;
      if (call.type === 'Call' && call.callee === 'rel' && call.args.length === 2) {
        const a = sub(call.args[0]!);
        const b = sub(call.args[1]!);
        return a && b && ((env) => { const x = a(env); return relField(node, call, x, b(env), env); });
      }
      const obj = sub(node.object);
      return obj && ((env) => member(node, obj(env)));
    }
    case 'Call': {
      const f = FUNCTIONS.get(node.callee);
      if (!f || !arityOk(f, node.args.length)) return null;
      const args = node.args.map(sub);
      if (args.some((x) => x === null)) return null;
      const fs = args as Node[];
      return (env) => callValue(node, f, fs.map((x) => x(env)), callContext(env.index));
    }
    case 'Unary': {
      const arg = sub(node.argument);
      return arg && ((env) => unaryValue(node, arg(env)));
    }
    case 'Array': {
      const els = node.elements.map(sub);
      if (els.some((x) => x === null)) return null;
      const fs = els as Node[];
      return (env) => Object.freeze(fs.map((x) => x(env)));
    }
    case 'Binary': {
      const l = sub(node.left);
      const r = sub(node.right);
      if (!l || !r) return null;
      if (node.operator === '&&') return (env) => (bool(l(env), '&&', node.start) ? bool(r(env), '&&', node.start) : false);
      if (node.operator === '||') return (env) => (bool(l(env), '||', node.start) ? true : bool(r(env), '||', node.start));
      return (env) => { const x = l(env); return binaryValue(node, x, r(env)); };
    }
  }
  return null;
}

/** Conditions with no roles (the world's constraints): one kinds object, so their verdicts are kept. */
export const NO_ROLES: Readonly<Record<string, RoleKind>> = Object.freeze({});

/**
 * True when the condition `src` compiles and holds; false when it does not compile or does not hold:
 * then a caller that reports why evaluates it (the interpreter's value or diagnostic), as before.
 */
export function holdsCompiled(src: string, kinds: Readonly<Record<string, RoleKind>>, index: WorldIndex, bindings: Readonly<Record<string, string>>, episode: number | undefined): boolean {
  const verdict = sourceVerdict(src, kinds);
  return verdict !== null && verdict(index, bindings, episode);
}

/** The verdict of the condition `src` (parsed through the parser's cache), or null when it does not parse or compile. */
export function sourceVerdict(src: string, kinds: Readonly<Record<string, RoleKind>>): Verdict | null {
  const parsed = parseExpression(src);
  return parsed.ok ? compiledVerdict(parsed.ast, kinds) : null;
}
