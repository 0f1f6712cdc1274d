import type { RoleKind } from '../../domain/world.js';
import type { WorldIndex } from '../world-index.js';
import { entityExists } from './context.js';
import type { Ast } from './parse.js';

/**
 * Whether a conjunct holds for one binding (true only when it evaluates to true: an evaluation
 * error counts as false, as in checkPrereqs), read from the index without the interpreter.
 */
export type Shortcut = (bindings: Readonly<Record<string, string>>) => boolean;

/**
 * A shortcut for `holds(a, b)` and `!holds(a, b)` over two roles whose kinds the operator declares,
 * or null for any other conjunct (it is evaluated). Issue 18: on the DPRR world a third of the
 * planning pool's conjunct evaluations were `holds(target, secret)`, the secret × target cross
 * product, each one building an evaluation context and walking the tree for one `includes`.
 *
 * It gives what evaluateAst gives, step by step (evaluate.ts `ev`, functions.ts `holds`): each
 * argument is a bound role (else AUR2003) whose entity exists in its declared kind's collection
 * (else AUR2008); `holds` takes each view's id and needs the second to be a secret (else AUR2008);
 * the value is whether the secret's holders include the first id, negated by `!`. Tested against
 * the interpreter on every pair of ids of every kind, missing ids included (expr-shortcut.test.ts).
 */
export function conjunctShortcut(ast: Ast, kinds: Readonly<Record<string, RoleKind>>, index: WorldIndex): Shortcut | null {
  return holdsShortcut(ast, kinds, index) ?? sameIdShortcut(ast, kinds, index);
}

/** A role name the operator declares a kind for (`world` is not a role; an undeclared kind is inferred per id). */
const declared = (kinds: Readonly<Record<string, RoleKind>>, name: string): boolean => name !== 'world' && Object.hasOwn(kinds, name);

function holdsShortcut(ast: Ast, kinds: Readonly<Record<string, RoleKind>>, index: WorldIndex): Shortcut | null {
  const negated = ast.type === 'Unary' && ast.operator === '!';
  const call = negated ? ast.argument : ast;
  if (call.type !== 'Call' || call.callee !== 'holds' || call.args.length !== 2) return null;
  const [a, s] = call.args;
  if (a!.type !== 'Identifier' || s!.type !== 'Identifier') return null;
  const who = a!.name;
  const what = s!.name;
  if (!declared(kinds, who) || !declared(kinds, what)) return null;
  const whoKind = kinds[who]!;
  const whatKind = kinds[what]!;
  return (b) => {
    if (!Object.hasOwn(b, who) || !Object.hasOwn(b, what)) return false;
    const id = b[who];
    const sid = b[what];
    if (typeof id !== 'string' || typeof sid !== 'string') return false; // makeEvalContext binds only strings
    if (!entityExists(index, whoKind, id) || !entityExists(index, whatKind, sid)) return false;
    const sec = index.secrets.get(sid);
    if (!sec) return false;
    return (sec.holders ?? []).includes(id) !== negated;
  };
}

/**
 * `a.id == b.id` and `a.id != b.id` over two declared roles (`target.id != rival.id`: ~1,000 of the
 * DPRR pool's evaluations). Each side's view exists when its entity does (else AUR2008), and its
 * `id` is the entity's id, which is the id it was bound by (the index is keyed by it); two strings
 * are equal when they are the same string (evaluate.ts `equals`).
 */
function sameIdShortcut(ast: Ast, kinds: Readonly<Record<string, RoleKind>>, index: WorldIndex): Shortcut | null {
  if (ast.type !== 'Binary' || (ast.operator !== '==' && ast.operator !== '!=')) return null;
  const { left: l, right: r } = ast;
  if (l.type !== 'Member' || r.type !== 'Member' || l.property !== 'id' || r.property !== 'id') return null;
  if (l.object.type !== 'Identifier' || r.object.type !== 'Identifier') return null;
  const x = l.object.name;
  const y = r.object.name;
  if (!declared(kinds, x) || !declared(kinds, y)) return null;
  const kx = kinds[x]!;
  const ky = kinds[y]!;
  const same = ast.operator === '==';
  return (b) => {
    if (!Object.hasOwn(b, x) || !Object.hasOwn(b, y)) return false;
    const a = b[x];
    const c = b[y];
    if (typeof a !== 'string' || typeof c !== 'string') return false;
    if (!entityExists(index, kx, a) || !entityExists(index, ky, c)) return false;
    return (a === c) === same;
  };
}
