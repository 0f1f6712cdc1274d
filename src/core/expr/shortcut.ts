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
 * `a.id == b.id`, `a.id != b.id` over two declared roles (`target.id != rival.id`: ~1,000 of the DPRR
 * pool's evaluations), and `secret.subject == target.id` / `!=` where the role's declared kind is a
 * secret (~1,000 more). Each side's view exists when its entity does (else AUR2008); its `id` is the
 * entity's id, which is the id it was bound by (the index is keyed by it); a secret view's `subject`
 * is its subject when that is a string, else '' (views.ts `str`); two strings are equal when they are
 * the same string (evaluate.ts `equals`).
 */
function sameIdShortcut(ast: Ast, kinds: Readonly<Record<string, RoleKind>>, index: WorldIndex): Shortcut | null {
  if (ast.type !== 'Binary' || (ast.operator !== '==' && ast.operator !== '!=')) return null;
  const l = side(ast.left, kinds, index);
  const r = side(ast.right, kinds, index);
  if (!l || !r) return null;
  const same = ast.operator === '==';
  return (b) => {
    if (!Object.hasOwn(b, l.name) || !Object.hasOwn(b, r.name)) return false;
    const x = b[l.name];
    const y = b[r.name];
    if (typeof x !== 'string' || typeof y !== 'string') return false;
    if (!entityExists(index, l.kind, x) || !entityExists(index, r.kind, y)) return false;
    return (l.read(x) === r.read(y)) === same;
  };
}

/** One side of an id comparison: the role, its declared kind, and the string its field reads for a bound id that exists. */
function side(a: Ast, kinds: Readonly<Record<string, RoleKind>>, index: WorldIndex): { name: string; kind: RoleKind; read: (id: string) => string } | null {
  if (a.type !== 'Member' || a.object.type !== 'Identifier' || !declared(kinds, a.object.name)) return null;
  const name = a.object.name;
  const kind = kinds[name]!;
  if (a.property === 'id') return { name, kind, read: (id) => id };
  if (a.property === 'subject' && kind === 'secret') {
    return { name, kind, read: (id) => { const v = index.secrets.get(id)!.subject as unknown; return typeof v === 'string' ? v : ''; } };
  }
  return null;
}
