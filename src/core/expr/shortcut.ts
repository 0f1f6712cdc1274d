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
  const negated = ast.type === 'Unary' && ast.operator === '!';
  const call = negated ? ast.argument : ast;
  if (call.type !== 'Call' || call.callee !== 'holds' || call.args.length !== 2) return null;
  const [a, s] = call.args;
  if (a!.type !== 'Identifier' || s!.type !== 'Identifier') return null;
  const who = a!.name;
  const what = s!.name;
  // `world` is not a role, and an undeclared kind is inferred per id by makeEvalContext: evaluate those.
  if (who === 'world' || what === 'world' || !Object.hasOwn(kinds, who) || !Object.hasOwn(kinds, what)) return null;
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
