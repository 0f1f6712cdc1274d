import jsep from 'jsep';
import { diag } from '../../diagnostics/catalog.js';
import '../../diagnostics/codes/core.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { BoundedMemo } from '../bounded-memo.js';

/**
 * Parsing of the expression language (docs/expressions.md) with jsep, configured down to the
 * operators we evaluate, plus `in` at comparison precedence. The parsed tree is validated
 * against a closed set of node shapes, so the interpreter only ever sees forms it knows.
 */

/** The AST shapes the interpreter accepts. `start` is the 0-based source offset of the node. */
export type Ast =
  | { type: 'Literal'; value: number | string | boolean | null; start: number }
  | { type: 'Identifier'; name: string; start: number }
  | { type: 'Member'; object: Ast; property: string; propStart: number; start: number }
  | { type: 'Call'; callee: string; args: Ast[]; start: number }
  | { type: 'Binary'; operator: BinaryOp; left: Ast; right: Ast; start: number }
  | { type: 'Unary'; operator: '!' | '-'; argument: Ast; start: number }
  | { type: 'Array'; elements: Ast[]; start: number };

export type BinaryOp = '||' | '&&' | '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | '+' | '-' | '*' | '/' | '%';

export const MAX_EXPRESSION_LENGTH = 2000;
export const MAX_DEPTH = 48;

const BINARY_PRECEDENCE: Record<BinaryOp, number> = {
  '||': 1, '&&': 2,
  '==': 6, '!=': 6,
  '<': 7, '<=': 7, '>': 7, '>=': 7, in: 7,
  '+': 9, '-': 9,
  '*': 10, '/': 10, '%': 10,
};
const BINARY_OPS = new Set<string>(Object.keys(BINARY_PRECEDENCE));

// ---- jsep configuration (module-level: jsep is a singleton) ----
type JsepNode = { type: string; [k: string]: unknown };
type JsepStatic = typeof jsep & {
  binary_ops: Record<string, number>;
  unary_ops: Record<string, number>;
  Jsep: { prototype: Record<string, unknown> };
};
const J = jsep as JsepStatic;

for (const op of Object.keys(J.binary_ops)) if (!BINARY_OPS.has(op)) J.removeBinaryOp(op);
for (const [op, prec] of Object.entries(BINARY_PRECEDENCE)) J.addBinaryOp(op, prec);
for (const op of Object.keys(J.unary_ops)) if (op !== '!' && op !== '-') J.removeUnaryOp(op);

// jsep does not record source positions; wrap two of its methods so identifiers and tokens carry
// their start offset (used for the column of diagnostics). The wrappers only add a field.
const proto = J.Jsep.prototype as Record<string, unknown> & { __aureusPositions?: boolean };
if (!proto.__aureusPositions) {
  proto.__aureusPositions = true;
  const origIdent = proto.gobbleIdentifier as (this: { index: number }) => JsepNode;
  proto.gobbleIdentifier = function (this: { index: number }) {
    const start = this.index;
    const node = origIdent.call(this);
    node.__start = start;
    return node;
  };
  const origToken = proto.gobbleToken as (this: { index: number; gobbleSpaces(): void }) => JsepNode | false;
  proto.gobbleToken = function (this: { index: number; gobbleSpaces(): void }) {
    this.gobbleSpaces();
    const start = this.index;
    const node = origToken.call(this);
    if (node && typeof node === 'object' && node.__start === undefined) node.__start = start;
    return node;
  };
}

export type ParseResult = { ok: true; ast: Ast } | { ok: false; diagnostic: Diagnostic };

const cache = new BoundedMemo<string, ParseResult>(4096);

const at = (offset: number) => ({ line: 1, column: offset + 1 });

class Reject {
  constructor(readonly diagnostic: Diagnostic) {}
}

function startOf(n: JsepNode, fallback: number): number {
  return typeof n.__start === 'number' ? n.__start : fallback;
}

/** Convert jsep's tree into our closed Ast, rejecting every form the language does not have. */
function convert(n: JsepNode, depth: number, fallback: number): Ast {
  const start = startOf(n, fallback);
  if (depth > MAX_DEPTH) {
    throw new Reject(diag('AUR2010', { detail: `nesting deeper than ${MAX_DEPTH}`, limit: `${MAX_DEPTH} levels and ${MAX_EXPRESSION_LENGTH} characters` }, at(start)));
  }
  const unsupported = (what: string, offset = start): never => {
    throw new Reject(diag('AUR2002', { what }, at(offset)));
  };
  switch (n.type) {
    case 'Literal': {
      const v = n.value;
      if (typeof v === 'number') {
        if (!Number.isFinite(v)) throw new Reject(diag('AUR2009', { detail: `number literal ${String(n.raw)} is not finite` }, at(start)));
        return { type: 'Literal', value: v, start };
      }
      if (typeof v === 'string' || typeof v === 'boolean' || v === null) return { type: 'Literal', value: v, start };
      return unsupported(`literal ${String(n.raw)}`);
    }
    case 'Identifier':
      return { type: 'Identifier', name: n.name as string, start };
    case 'MemberExpression': {
      if (n.computed) return unsupported('computed member access [..]; use .field');
      if (n.optional) return unsupported('optional chaining ?.');
      const prop = n.property as JsepNode;
      if (prop.type !== 'Identifier') return unsupported('member access');
      const object = convert(n.object as JsepNode, depth + 1, start);
      return { type: 'Member', object, property: prop.name as string, propStart: startOf(prop, start), start: object.start };
    }
    case 'CallExpression': {
      const callee = n.callee as JsepNode;
      if (callee.type !== 'Identifier') return unsupported('calling something that is not a function name', startOf(callee, start));
      const args = (n.arguments as (JsepNode | null)[]).map((a) => {
        if (!a) return unsupported('empty argument');
        return convert(a, depth + 1, start);
      });
      const cs = startOf(callee, start);
      return { type: 'Call', callee: callee.name as string, args, start: cs };
    }
    case 'BinaryExpression': {
      const op = n.operator as string;
      if (!BINARY_OPS.has(op)) return unsupported(`operator ${op}`);
      const left = convert(n.left as JsepNode, depth + 1, start);
      const right = convert(n.right as JsepNode, depth + 1, start);
      return { type: 'Binary', operator: op as BinaryOp, left, right, start: left.start };
    }
    case 'UnaryExpression': {
      const op = n.operator as string;
      if (op !== '!' && op !== '-') return unsupported(`unary operator ${op}`);
      return { type: 'Unary', operator: op, argument: convert(n.argument as JsepNode, depth + 1, start), start };
    }
    case 'ArrayExpression': {
      const els = (n.elements as (JsepNode | null)[]).map((e) => {
        if (!e) return unsupported('empty list element');
        return convert(e, depth + 1, start);
      });
      return { type: 'Array', elements: els, start };
    }
    case 'Compound':
      return unsupported('several expressions in one (missing operator between them?)');
    case 'ConditionalExpression':
      return unsupported('conditional ?: (write two prerequisites instead)');
    case 'ThisExpression':
      return unsupported('this');
    default:
      return unsupported(`${n.type}`);
  }
}

/** Deepest ( or [ nesting outside string literals: checked before jsep recurses into it. */
function maxNesting(src: string): number {
  let depth = 0;
  let max = 0;
  let quote = '';
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(' || ch === '[') max = Math.max(max, ++depth);
    else if (ch === ')' || ch === ']') depth--;
  }
  return max;
}

function parseUncached(src: string): ParseResult {
  if (typeof src !== 'string') {
    return { ok: false, diagnostic: diag('AUR2001', { reason: 'expression is not a string' }, at(0)) };
  }
  if (src.length > MAX_EXPRESSION_LENGTH) {
    return { ok: false, diagnostic: diag('AUR2010', { detail: `${src.length} characters`, limit: `${MAX_DEPTH} levels and ${MAX_EXPRESSION_LENGTH} characters` }, at(0)) };
  }
  const nesting = maxNesting(src);
  if (nesting > MAX_DEPTH) {
    return { ok: false, diagnostic: diag('AUR2010', { detail: `brackets nested ${nesting} deep`, limit: `${MAX_DEPTH} levels and ${MAX_EXPRESSION_LENGTH} characters` }, at(0)) };
  }
  if (src.trim() === '') return { ok: false, diagnostic: diag('AUR2001', { reason: 'empty expression' }, at(0)) };
  let tree: JsepNode;
  try {
    tree = jsep(src) as unknown as JsepNode;
  } catch (e) {
    // jsep reports "<message> at character N"; a RangeError means pathological nesting.
    if (e instanceof RangeError) {
      return { ok: false, diagnostic: diag('AUR2010', { detail: 'nesting too deep', limit: `${MAX_DEPTH} levels and ${MAX_EXPRESSION_LENGTH} characters` }, at(0)) };
    }
    const err = e as { description?: string; message?: string; index?: number };
    const index = typeof err.index === 'number' ? Math.max(0, Math.min(err.index, src.length)) : 0;
    const reason = err.description ?? String(err.message ?? e);
    return { ok: false, diagnostic: diag('AUR2001', { reason }, at(index)) };
  }
  try {
    return { ok: true, ast: convert(tree, 0, 0) };
  } catch (e) {
    if (e instanceof Reject) return { ok: false, diagnostic: e.diagnostic };
    if (e instanceof RangeError) {
      return { ok: false, diagnostic: diag('AUR2010', { detail: 'nesting too deep', limit: `${MAX_DEPTH} levels and ${MAX_EXPRESSION_LENGTH} characters` }, at(0)) };
    }
    throw e;
  }
}

/**
 * Parse an expression. Results (including failures) are cached by source text: operators'
 * prerequisites are evaluated thousands of times during planning. Cached ASTs are never mutated.
 */
export function parseExpression(src: string): ParseResult {
  const r = cache.get(src, parseUncached);
  // Callers may decorate a diagnostic with file/pointer: hand out a copy, keep the cache clean.
  return r.ok ? r : { ok: false, diagnostic: { ...r.diagnostic } };
}
