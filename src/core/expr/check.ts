import type { Effect, RoleKind, World } from '../../domain/world.js';
import { WORLD_FILES } from '../../domain/world.js';
import { diag } from '../../diagnostics/catalog.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { checkOp, expandRolePath, parsePath } from '../deltas/paths.js';
import { arityOk, arityText, FUNCTIONS, paramAt } from './functions.js';
import { parseExpression, type Ast } from './parse.js';
import { operatorRoleKinds } from './prereqs.js';
import { isStruct, structFields, type ExprType } from './views.js';

/**
 * Static checking of the expressions in operators and constraints against the schema-level
 * field tables (views.ts): unknown names, fields and functions, wrong arity, obvious type
 * errors and literal ids that name nothing. Diagnostics carry the file, the JSON pointer of the
 * expression string and the 1-based column inside that string.
 */

interface Env {
  world: World;
  roles: ReadonlyMap<string, RoleKind>;
  diags: Diagnostic[];
  where: { file: string; pointer: string };
}

const col = (env: Env, offset: number) => ({ ...env.where, column: offset + 1 });

function report(env: Env, code: string, args: Record<string, unknown>, offset: number): 'any' {
  env.diags.push(diag(code, args, col(env, offset)));
  return 'any';
}

function idExists(world: World, kind: string, id: string): boolean {
  const has = (xs: { id: string }[] | undefined) => (xs ?? []).some((x) => x.id === id);
  switch (kind) {
    case 'character': return has(world.characters?.characters);
    case 'secret': return has(world.secrets?.secrets);
    case 'thread': return has(world.threads?.threads);
    case 'location': return has(world.world?.locations);
    case 'faction': return has(world.factions?.factions);
    // balance() of an id without an account is 0, but the id should at least name something.
    case 'account': return has(world.assets?.cash_ledger) || has(world.characters?.characters) || has(world.factions?.factions);
    case 'place': return has(world.world?.locations) || has(world.characters?.characters);
    default: return true;
  }
}

const known = (t: ExprType, ...ok: ExprType[]) => t === 'any' || ok.includes(t);
const ENTITY: readonly ExprType[] = ['character', 'secret', 'thread', 'location', 'faction'];
/** Same type, or an entity and an id string (an entity view equals its id). */
const comparable = (a: ExprType, b: ExprType) => a === b || (ENTITY.includes(a) && b === 'string') || (ENTITY.includes(b) && a === 'string');

function tc(node: Ast, env: Env): ExprType {
  switch (node.type) {
    case 'Literal':
      return node.value === null ? 'null' : (typeof node.value as 'number' | 'string' | 'boolean');
    case 'Identifier': {
      if (node.name === 'world') return 'world';
      const kind = env.roles.get(node.name);
      if (!kind) return report(env, 'AUR2003', { name: node.name, known: ['world', ...env.roles.keys()].join(', ') }, node.start);
      return kind;
    }
    case 'Member': {
      const t = tc(node.object, env);
      if (t === 'any') return 'any';
      if (!isStruct(t)) return report(env, 'AUR2004', { field: node.property, type: t, known: 'none' }, node.propStart);
      const fields = structFields(t, env.world);
      if (!Object.hasOwn(fields, node.property)) {
        return report(env, 'AUR2004', { field: node.property, type: t, known: Object.keys(fields).join(', ') || 'none' }, node.propStart);
      }
      return fields[node.property]!;
    }
    case 'Call':
      return tcCall(node, env);
    case 'Unary': {
      const t = tc(node.argument, env);
      if (node.operator === '!') {
        if (!known(t, 'boolean')) report(env, 'AUR2007', { detail: `! needs a boolean, not ${t}` }, node.start);
        return 'boolean';
      }
      if (!known(t, 'number')) report(env, 'AUR2007', { detail: `unary - needs a number, not ${t}` }, node.start);
      return 'number';
    }
    case 'Array':
      node.elements.forEach((e) => tc(e, env));
      return 'list';
    case 'Binary':
      return tcBinary(node, env);
  }
}

/** A call: the function exists, takes this many arguments, and each argument fits its parameter (ids must name something). */
function tcCall(node: Extract<Ast, { type: 'Call' }>, env: Env): ExprType {
  const f = FUNCTIONS.get(node.callee);
  if (!f) {
    node.args.forEach((a) => tc(a, env));
    return report(env, 'AUR2005', { name: node.callee, known: [...FUNCTIONS.keys()].join(', ') }, node.start);
  }
  if (!arityOk(f, node.args.length)) {
    report(env, 'AUR2006', { name: f.name, expected: arityText(f), got: node.args.length }, node.start);
  }
  node.args.forEach((a, i) => {
    const t = tc(a, env);
    const p = paramAt(f, i);
    if (!p) return;
    if ('ref' in p) {
      if (a.type === 'Literal' && typeof a.value === 'string') {
        if (!idExists(env.world, p.ref, a.value)) report(env, 'AUR2008', { kind: p.ref, id: a.value }, a.start);
      } else if (!known(t, 'string', 'character', 'secret', 'thread', 'location', 'faction')) {
        report(env, 'AUR2007', { detail: `${f.name}() argument ${i + 1} must be an entity or an id, not ${t}` }, a.start);
      } else if (isStruct(t) && ['character', 'secret', 'thread', 'location', 'faction'].includes(p.ref) && t !== p.ref) {
        report(env, 'AUR2007', { detail: `${f.name}() argument ${i + 1} must be a ${p.ref}, not a ${t}` }, a.start);
      }
    } else if (!known(t, p.type)) {
      report(env, 'AUR2007', { detail: `${f.name}() argument ${i + 1} must be a ${p.type}, not ${t}` }, a.start);
    }
  });
  return f.returns;
}

/** A binary operator: both sides are checked first, then the pair against what the operator takes. */
function tcBinary(node: Extract<Ast, { type: 'Binary' }>, env: Env): ExprType {
  const l = tc(node.left, env);
  const r = tc(node.right, env);
  const op = node.operator;
  const bad = (detail: string) => report(env, 'AUR2007', { detail }, node.start);
  switch (op) {
    case '&&': case '||':
      if (!known(l, 'boolean') || !known(r, 'boolean')) bad(`${op} needs booleans, not ${l} and ${r}`);
      return 'boolean';
    case '==': case '!=':
      // Values of different types are never equal: that is an authoring mistake, not a condition.
      if (l !== 'any' && r !== 'any' && l !== 'null' && r !== 'null' && !comparable(l, r)) bad(`${op} compares ${l} with ${r}, which can never be equal`);
      return 'boolean';
    case 'in':
      if (!known(r, 'list')) report(env, 'AUR2007', { detail: `in needs a list on its right, not ${r}` }, node.right.start);
      return 'boolean';
    case '<': case '<=': case '>': case '>=':
      if (!((known(l, 'number') && known(r, 'number')) || (known(l, 'string') && known(r, 'string')))) bad(`${op} compares two numbers or two strings, not ${l} and ${r}`);
      return 'boolean';
    case '+':
      if (l === 'string' && r === 'string') return 'string';
      if (!known(l, 'number', 'string') || !known(r, 'number', 'string') || (l !== 'any' && r !== 'any' && l !== r)) {
        bad(`+ adds two numbers or joins two strings, not ${l} and ${r}`);
        return 'any';
      }
      return l === 'any' || r === 'any' ? 'any' : 'number';
    default:
      if (!known(l, 'number') || !known(r, 'number')) bad(`${op} needs numbers, not ${l} and ${r}`);
      return 'number';
  }
}

/**
 * Type-check one expression. `expect` is what the context needs: a condition must be boolean,
 * an effect value must be a scalar, an amount a number.
 */
export function typecheckExpression(
  src: string,
  opts: { world: World; roles?: Record<string, RoleKind>; file: string; pointer: string; expect?: 'boolean' | 'number' | 'scalar' },
): Diagnostic[] {
  const where = { file: opts.file, pointer: opts.pointer };
  const p = parseExpression(src);
  if (!p.ok) {
    // The column is inside the expression string, so a file line number would mislead.
    const d: Diagnostic = { ...p.diagnostic, ...where };
    delete d.line;
    return [d];
  }
  const env: Env = { world: opts.world, roles: new Map(Object.entries(opts.roles ?? {})), diags: [], where };
  const t = tc(p.ast, env);
  if (env.diags.length === 0 && t !== 'any') {
    const at = { ...where, column: 1 };
    if (opts.expect === 'boolean' && t !== 'boolean') env.diags.push(diag('AUR2011', { type: t }, at));
    if (opts.expect === 'number' && t !== 'number') env.diags.push(diag('AUR2007', { detail: `an amount must be a number, not ${t}` }, at));
    if (opts.expect === 'scalar' && !['number', 'string', 'boolean'].includes(t)) {
      env.diags.push(diag('AUR2007', { detail: `an effect value must be a number, string or boolean, not ${t}` }, at));
    }
  }
  return env.diags;
}

function checkEffect(e: Effect, roles: Record<string, RoleKind>, world: World, file: string, pointer: string, diags: Diagnostic[]): void {
  // Role-relative paths are checked with each role bound to a placeholder id (its own name).
  const bound = new Map(Object.entries(roles).map(([r, kind]) => [r, { kind, id: r }]));
  const exp = expandRolePath(String(e?.path), bound);
  if (!exp.ok) diags.push({ ...exp.diagnostic, file, pointer: `${pointer}/path` });
  else {
    const p = parsePath(exp.path);
    if (!p.ok) diags.push({ ...diag('AUR2020', { path: String(e.path) }), file, pointer: `${pointer}/path` });
    else {
      const opErr = checkOp(String(e.path), p.target, e.op);
      if (opErr) diags.push({ ...opErr, file, pointer: `${pointer}/op` });
    }
  }
  const v = e?.value as unknown;
  if (v && typeof v === 'object' && typeof (v as { expr?: unknown }).expr === 'string') {
    diags.push(...typecheckExpression((v as { expr: string }).expr, { world, roles, file, pointer: `${pointer}/value/expr`, expect: 'scalar' }));
  }
  const a = e?.amount as unknown;
  if (a && typeof a === 'object' && typeof (a as { expr?: unknown }).expr === 'string') {
    diags.push(...typecheckExpression((a as { expr: string }).expr, { world, roles, file, pointer: `${pointer}/amount/expr`, expect: 'number' }));
  }
}

/**
 * Type-check every operator prerequisite, effect path and effect value/amount expression
 * (operators/operators.json) and every constraint (world/constraints.json). `aureus validate`
 * calls this after schema validation.
 */
export function typecheckWorldExpressions(world: World): Diagnostic[] {
  const diags: Diagnostic[] = [];
  const opFile = WORLD_FILES.operators;
  (world.operators?.operators ?? []).forEach((op, i) => {
    const roles = operatorRoleKinds(op);
    (op.prereqs ?? []).forEach((p, j) => {
      diags.push(...typecheckExpression(p.expr, { world, roles, file: opFile, pointer: `/operators/${i}/prereqs/${j}/expr`, expect: 'boolean' }));
    });
    (op.effects ?? []).forEach((e, k) => checkEffect(e, roles, world, opFile, `/operators/${i}/effects/${k}`, diags));
    (op.side_effect_risks ?? []).forEach((r, k) => {
      (r.effects ?? []).forEach((e, m) => checkEffect(e, roles, world, opFile, `/operators/${i}/side_effect_risks/${k}/effects/${m}`, diags));
    });
  });
  (world.constraints?.constraints ?? []).forEach((c, i) => {
    diags.push(...typecheckExpression(c.expr, { world, roles: {}, file: WORLD_FILES.constraints, pointer: `/constraints/${i}/expr`, expect: 'boolean' }));
  });
  return diags;
}
