import type { Character, Operator, RoleKind, World } from '../../domain/world.js';
import { indexWorld, type WorldIndex } from '../../core/world-index.js';
import { evaluateAst, makeEvalContext, operatorRoleKinds, parseExpression, type Ast, type EvalContext } from '../../core/expr/index.js';
import { conjunctShortcut, type Shortcut } from '../../core/expr/shortcut.js';
import { compiledVerdict, type Verdict } from '../../core/expr/compile.js';
import { bdiScore, roleKind, roleOrder, threadsAdvancedByOp } from './bdi.js';
import { actingPrincipals, knownCandidates } from './known.js';
import { familyKey, familyScorer, keepBest } from './family.js';
import { compareText } from '../../core/text-order.js';

/**
 * The candidate moves of an episode: acting principal × operator × binding, BDI-scored once and
 * shared by stage B (proposals) and stage C (the Director).
 *
 * A world can have tens of thousands of bindings (three character roles over fifteen
 * characters), so bindings are enumerated role by role and each top-level `&&` conjunct of a
 * prerequisite is evaluated as soon as every role it names is bound: a failing conjunct prunes
 * the whole subtree. This gives exactly the bindings whose prereqs hold on the snapshot (a
 * conjunct that cannot be evaluated counts as false, as in checkPrereqs). Each (actor,
 * operator) family keeps its VALID_PER_FAMILY best bindings, plus up to INVALID_PER_FAMILY
 * complete bindings that failed only on their last conjuncts: an earlier move in the episode
 * may make them possible, and the Director re-checks every prereq on the projected state.
 */
export const VALID_PER_FAMILY = 16;
export const INVALID_PER_FAMILY = 4;

export interface PoolEntry {
  op: Operator;
  actor: Character;
  bindings: Record<string, string>;
  key: string;
  /** Characters bound to character roles (actor first). */
  chars: string[];
  threads: string[];
  /**
   * bdiScore's score (the family's scorer computes the same float: family.ts). The rest of a
   * BdiScore (top desire, intentions, stakes) only writes the rationale of the few moves stage B
   * proposes, so it is made for those (rankMoves), not for the ~2,000 moves of the pool.
   */
  score: number;
  /** Prereqs hold on the snapshot. */
  valid: boolean;
}

interface Conjunct {
  ast: Ast | null; // null: the prerequisite does not parse, so it never holds
  /** Index (in roleOrder) of the last role the conjunct names; -1 when it names none. */
  at: number;
  /** The names it reads other than `world` (roles, or unknown names that never bind), sorted. */
  names: string[];
  /**
   * Whether it holds, by the ids bound to `names`. Nothing else of the binding reaches its value
   * (no function reads the bindings, a role's kind is the operator's), so a conjunct over one role
   * is evaluated once per candidate, not once per binding of the roles before it (issue 18: the
   * DPRR plan evaluated 159,028 conjuncts for 34,762 distinct ones).
   */
  memo: Memo;
  /**
   * It names the actor and every role bound before it: each of its keys comes up once per operator,
   * so a memo would only cost (a key and an entry per binding) and is not kept.
   */
  once: boolean;
  /** The ids of `names` for one lookup (at least one: a conjunct naming no role keys on ''), reused. */
  ids: string[];
}

/** Results by the ids bound to a conjunct's names, one map level per name (no key string per lookup). */
type Memo = Map<string, Memo | boolean>;

function memoGet(memo: Memo, ids: readonly string[]): boolean | undefined {
  let m: Memo = memo;
  for (let j = 0; j < ids.length - 1; j++) {
    const next = m.get(ids[j]!);
    if (next === undefined) return undefined;
    m = next as Memo;
  }
  return m.get(ids[ids.length - 1]!) as boolean | undefined;
}

function memoSet(memo: Memo, ids: readonly string[], v: boolean): void {
  let m: Memo = memo;
  for (let j = 0; j < ids.length - 1; j++) {
    let next = m.get(ids[j]!) as Memo | undefined;
    if (next === undefined) m.set(ids[j]!, (next = new Map()));
    m = next;
  }
  m.set(ids[ids.length - 1]!, v);
}

/** The names an expression reads. */
function namesIn(a: Ast, acc: Set<string>): Set<string> {
  switch (a.type) {
    case 'Identifier': acc.add(a.name); break;
    case 'Member': namesIn(a.object, acc); break;
    case 'Call': a.args.forEach((x) => namesIn(x, acc)); break;
    case 'Binary': namesIn(a.left, acc); namesIn(a.right, acc); break;
    case 'Unary': namesIn(a.argument, acc); break;
    case 'Array': a.elements.forEach((x) => namesIn(x, acc)); break;
    default: break;
  }
  return acc;
}

/** A conjunct's text without source offsets (tagged so that 1 and '1' differ): equal keys, equal expressions. */
const astKey = (a: Ast): string =>
  JSON.stringify(a, (k, v: unknown) => (k === 'start' || k === 'propStart' ? undefined : typeof v === 'number' ? `#n${v}` : typeof v === 'string' ? `#s${v}` : v));

/**
 * Every operator's conjuncts. One conjunct written the same way, over names of the same kinds, has
 * the same value for the same ids whatever the operator (issue 18: `actor.id != target.id`,
 * `target.status == 'alive'` and `rel(actor, target).… >= x` recur across the kit's operators, and
 * were evaluated per operator): they share one memo. A conjunct only one operator has, over the
 * actor and every role before it, sees each of its keys once and keeps none.
 */
function conjunctTable(ops: readonly Operator[]): Map<Operator, { roles: string[]; conj: Conjunct[] }> {
  const memos = new Map<string, { memo: Memo; ops: Set<Operator> }>();
  const out = new Map<Operator, { roles: string[]; conj: Conjunct[] }>();
  const shared: [Conjunct, { ops: Set<Operator> }][] = [];
  for (const op of ops) {
    const roles = roleOrder(op);
    const kinds = operatorRoleKinds(op);
    const conj: Conjunct[] = [];
    const split = (a: Ast): Ast[] => (a.type === 'Binary' && a.operator === '&&' ? [...split(a.left), ...split(a.right)] : [a]);
    for (const p of op.prereqs ?? []) {
      const parsed = parseExpression(p.expr);
      if (!parsed.ok) { conj.push({ ast: null, at: -1, names: [], memo: new Map(), once: true, ids: [''] }); continue; }
      for (const c of split(parsed.ast)) {
        const used = [...namesIn(c, new Set())].filter((n) => n !== 'world').sort();
        // An unknown name (not a role, not `world`) can never evaluate: check it at the end.
        const idx = used.map((n) => roles.indexOf(n));
        const at = idx.some((i) => i < 0) ? roles.length - 1 : Math.max(-1, ...idx);
        const key = used.map((n, j) => `${n}:${idx[j]! < 0 ? 'none' : kinds[n] ?? 'infer'}`).join(',') + '|' + astKey(c);
        let m = memos.get(key);
        if (!m) memos.set(key, (m = { memo: new Map(), ops: new Set() }));
        m.ops.add(op);
        const x: Conjunct = { ast: c, at, names: used, memo: m.memo, once: at >= 0 && used.length === at + 1 && idx.every((i) => i >= 0), ids: used.length ? used.map(() => '') : [''] };
        shared.push([x, m]);
        conj.push(x);
      }
    }
    out.set(op, { roles, conj });
  }
  for (const [x, m] of shared) if (m.ops.size > 1) x.once = false;
  return out;
}

/**
 * Whether every conjunct of `level` holds for binding `b`; a conjunct that cannot be evaluated
 * counts as false.
 *
 * What the memos already know is read first: a conjunct known to be false settles the binding
 * before any conjunct written ahead of it is evaluated (issue 18: on the DPRR world a third of the
 * pool's evaluations were of conjuncts ahead of a memoised false one). Evaluation is pure, so the
 * order in which a conjunction's parts are looked at never changes its value.
 */
function levelHolds(level: Conjunct[], index: WorldIndex, episode: number, kinds: Record<string, RoleKind>): (b: Record<string, string>) => boolean {
  // `holds(target, secret)`-like conjuncts are read from the index (core/expr/shortcut.ts), neither
  // evaluated nor memoised: the read costs less than a memo lookup.
  const fast: (Shortcut | null)[] = level.map((c) => (c.ast ? conjunctShortcut(c.ast, kinds, index) : null));
  // The others' verdicts through compiled closures where the conjunct compiles (core/expr/compile.ts),
  // with no evaluation context per binding; the interpreter for the rest.
  const compiled: (Verdict | null)[] = level.map((c) => (c.ast ? compiledVerdict(c.ast, kinds) : null));
  // What the memos said of each conjunct of the level (reused: one binding at a time).
  const known: (boolean | undefined)[] = [];
  return (b) => {
    let unknown = 0;
    for (let n = 0; n < level.length; n++) {
      const c = level[n]!;
      if (!c.ast) return false;
      let holds: boolean | undefined;
      const shortcut = fast[n];
      if (shortcut) {
        if (!shortcut(b)) return false;
        holds = true;
      } else if (!c.once) {
        const ids = c.ids;
        for (let j = 0; j < c.names.length; j++) ids[j] = Object.hasOwn(b, c.names[j]!) ? b[c.names[j]!]! : '';
        holds = memoGet(c.memo, ids);
        if (holds === false) return false;
      }
      known[n] = holds;
      if (holds === undefined) unknown++;
    }
    if (unknown === 0) return true;
    let ctx: EvalContext | undefined;
    for (let n = 0; n < level.length; n++) {
      if (known[n] !== undefined) continue;
      const c = level[n]!;
      const verdict = compiled[n];
      let holds: boolean;
      if (verdict) holds = verdict(index, b, episode);
      else {
        ctx ??= makeEvalContext(index, b, { episode, roleKinds: kinds });
        const r = evaluateAst(c.ast!, ctx);
        holds = r.ok && r.value === true;
      }
      if (!c.once) memoSet(c.memo, c.ids, holds); // its ids were filled above
      if (!holds) return false;
    }
    return true;
  };
}

type LevelCheck = ((b: Record<string, string>) => boolean) | null;

/**
 * The checks made once role `i` is bound (those naming no role: at 0), null where there are none.
 * `own[i]` (i >= 2) holds the conjuncts that name only role i and the actor: their value is one per
 * candidate of role i in an (actor, operator) family, so the pool checks them once per candidate
 * rather than once per binding of the roles between (issue 18: on the synthetic 10,000 world 157,000
 * of the 250,000 checks past the second role were these). `rest[i]` holds the others.
 */
function conjunctsAt(conj: Conjunct[], roles: readonly string[], index: WorldIndex, episode: number, kinds: Record<string, RoleKind>): { rest: LevelCheck[]; own: LevelCheck[] } {
  const rest: Conjunct[][] = [];
  const own: Conjunct[][] = [];
  for (const c of conj) {
    const i = Math.max(0, c.at);
    const mine = i >= 2 && c.ast !== null && c.names.every((n) => n === 'actor' || n === roles[i]);
    ((mine ? own : rest)[i] ??= []).push(c);
  }
  const make = (l: Conjunct[] | undefined): LevelCheck => (l ? levelHolds(l, index, episode, kinds) : null);
  return { rest: roles.map((_, i) => make(rest[i])), own: roles.map((_, i) => make(own[i])) };
}

/** What the entries of an operator's families share. */
interface OpParts {
  roles: string[];
  charRoles: string[];
  keyOf: (b: Record<string, string>) => string;
  threadsOf: (b: Record<string, string>) => string[];
}

/**
 * An (actor, operator) family's entries: its VALID_PER_FAMILY best valid bindings, then its
 * INVALID_PER_FAMILY best near misses, each by score then key. Only the bindings that make the cut
 * become entries (family.ts).
 */
function familyEntries(world: World, actor: Character, op: Operator, parts: OpParts, valid: Record<string, string>[], nearMiss: Record<string, string>[]): PoolEntry[] {
  const { roles, charRoles, keyOf, threadsOf } = parts;
  const scoreOf = familyScorer(world, actor, op, roles);
  const entry = (bindings: Record<string, string>, ok: boolean): PoolEntry => {
    const threads = threadsOf(bindings);
    const chars = charRoles.filter((r) => bindings[r]).map((r) => bindings[r]!);
    const score = scoreOf ? scoreOf(bindings) : bdiScore(world, actor, op, bindings, threads).score;
    return { op, actor, bindings, key: keyOf(bindings), chars, threads, score, valid: ok };
  };
  const best = (xs: Record<string, string>[], ok: boolean, n: number) =>
    (scoreOf ? keepBest(xs, n, keyOf, scoreOf) : xs).map((x) => entry(x, ok)).sort((x, y) => y.score - x.score || (x.key < y.key ? -1 : 1)).slice(0, n);
  return best(valid, true, VALID_PER_FAMILY).concat(best(nearMiss, false, INVALID_PER_FAMILY));
}

const memo = new WeakMap<World, Map<number, PoolEntry[]>>();

export function candidatePool(world: World, episode: number, index: WorldIndex = indexWorld(world)): PoolEntry[] {
  let byEp = memo.get(world);
  if (!byEp) memo.set(world, (byEp = new Map()));
  const hit = byEp.get(episode);
  if (hit) return hit;
  const out: PoolEntry[] = [];
  const ops = [...world.operators.operators].sort((a, b) => compareText(a.id, b.id));
  const table = conjunctTable(ops);
  // The episode's acting principals, and for each the candidates it knows (known.ts): a few
  // dozen per role, however big the world.
  const actors = actingPrincipals(world, episode);
  const knownBy = new Map<string, Map<RoleKind, string[]>>();
  const candidatesOf = (actor: string, k: RoleKind): string[] => {
    let m = knownBy.get(actor);
    if (!m) knownBy.set(actor, (m = new Map()));
    let l = m.get(k);
    if (!l) m.set(k, (l = knownCandidates(world, index, actor, k)));
    return l;
  };
  // Entries by actor id, then operator id, each list in push order: read out in that order, the
  // same order as a stable sort of the whole pool by (actor id, operator id), without the sort.
  const byActorOp = new Map<string, Map<string, PoolEntry[]>>();
  for (const op of ops) {
    const { roles, conj } = table.get(op)!;
    const { rest, own } = conjunctsAt(conj, roles, index, episode, operatorRoleKinds(op));
    const kindAt = roles.map((r) => roleKind(op, r));
    const isChar = kindAt.map((k) => k === 'character');
    const charRoles = roles.filter((_, i) => isChar[i]);
    const keyOf = familyKey(op.id, roles);
    const threadsOf = threadsAdvancedByOp(world, op);
    const last = roles.length - 1;
    for (const actor of actors) {
      const valid: Record<string, string>[] = [];
      const nearMiss: Record<string, string>[] = [];
      // Each role's candidates, looked up once per family (when a binding first reaches the role)
      // rather than once per partial binding.
      const cands: string[][] = [];
      // Per role with `own` conjuncts, what they gave for each of its candidates: 0 not yet known, 1 hold, 2 fail.
      const ownOf: Uint8Array[] = [];
      const rec = (i: number, b: Record<string, string>, used: Set<string>): void => {
        if (i === roles.length) { valid.push({ ...b }); return; }
        const role = roles[i]!;
        const char = isChar[i]!;
        const ids = (cands[i] ??= candidatesOf(actor.id, kindAt[i]!));
        const ownAt = own[i];
        const restAt = rest[i];
        const seen = ownAt ? (ownOf[i] ??= new Uint8Array(ids.length)) : null;
        for (let n = 0; n < ids.length; n++) {
          const id = ids[n]!;
          if (char && used.has(id)) continue;
          b[role] = id;
          if (char) used.add(id);
          if (seen && seen[n] === 0) seen[n] = ownAt!(b) ? 1 : 2;
          if ((!seen || seen[n] === 1) && (!restAt || restAt(b))) rec(i + 1, b, used);
          else if (i === last && nearMiss.length < INVALID_PER_FAMILY * 4) nearMiss.push({ ...b });
          if (char) used.delete(id);
          delete b[role];
        }
      };
      const b: Record<string, string> = { actor: actor.id };
      if (!rest[0] || rest[0](b)) rec(1, b, new Set([actor.id]));
      if (valid.length === 0 && nearMiss.length === 0) continue;
      const kept = familyEntries(world, actor, op, { roles, charRoles, keyOf, threadsOf }, valid, nearMiss);
      if (kept.length === 0) continue;
      let byOp = byActorOp.get(actor.id);
      if (!byOp) byActorOp.set(actor.id, (byOp = new Map()));
      const l = byOp.get(op.id);
      if (l) l.push(...kept);
      else byOp.set(op.id, kept);
    }
  }
  // Stable order: actor, then operator (by code units), then score.
  const codeUnits = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);
  for (const a of [...byActorOp.keys()].sort(codeUnits)) {
    const byOp = byActorOp.get(a)!;
    for (const o of [...byOp.keys()].sort(codeUnits)) out.push(...byOp.get(o)!);
  }
  byEp.set(episode, out);
  return out;
}

const byActorMemo = new WeakMap<PoolEntry[], Map<string, PoolEntry[]>>();

/** The pool's entries of one actor (pool order), without scanning the whole pool per actor. */
export function poolOf(world: World, episode: number, index: WorldIndex, actor: string): PoolEntry[] {
  const pool = candidatePool(world, episode, index);
  let m = byActorMemo.get(pool);
  if (!m) {
    m = new Map();
    for (const e of pool) (m.get(e.actor.id) ?? m.set(e.actor.id, []).get(e.actor.id)!).push(e);
    byActorMemo.set(pool, m);
  }
  return m.get(actor) ?? [];
}
