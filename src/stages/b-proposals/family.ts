import type { Character, Operator, World } from '../../domain/world.js';
import { bdiTotal, desireValue, keyByRoles, matchingIntentions, threadLookup, threadWrites } from './bdi.js';

/**
 * Which bindings of one (actor, operator) family the pool keeps, without scoring every binding in
 * full (issue 18: the starter world scored 4,190 bindings, threads and rationale parts included, to
 * keep 1,761). The pool keeps the `n` best by bdiScore's score (descending), then by bindingKey; the
 * score of a binding only varies with which desire targets it binds and which threads of the actor's
 * it writes, so it is computed exactly here as a number (by bdi.ts's desireValue and bdiTotal, as
 * bdiScore adds them), and only the kept bindings are scored in full.
 */

/**
 * bdiScore(world, actor, op, b).score for every binding `b` of the family (b.actor is the actor, the
 * other keys are `roles`), by the same additions in the same order, so the same float; null when the
 * world has two threads with one id (bdiScore then reads the first of them: the caller scores in full).
 */
export function familyScorer(world: World, actor: Character, op: Operator, roles: readonly string[]): ((b: Record<string, string>) => number) | null {
  const look = threadLookup(world);
  if (look.byId.size !== world.threads.threads.length) return null;
  const served = actor.bdi.desires.filter((d) => op.serves.includes(d.kind));
  const intentions = matchingIntentions(actor, op).length;
  // The actor is always bound, so every open thread of its own that the operator's tags hit is
  // advanced by every binding: the stakes they give are the family's. (Another bound character's
  // thread is a stake only if the actor is among its stakeholders too: then it is one of these.)
  const fixed = new Set<string>();
  if (op.thread_tags.length) {
    for (const t of look.byStakeholder.get(actor.id) ?? []) if (op.thread_tags.some((x) => t.tags.includes(x))) fixed.add(t.id);
  }
  const writeRoles: string[] = [];
  const isStake = (id: string | undefined): boolean => {
    const t = id === undefined ? undefined : look.byId.get(id);
    return !!t && t.status === 'open' && t.stakeholders.includes(actor.id);
  };
  for (const w of threadWrites(op)) {
    if (w.id !== undefined) { if (isStake(w.id)) fixed.add(w.id); }
    else if (w.role !== undefined) writeRoles.push(w.role);
  }
  const others = roles.filter((r) => r !== 'actor');
  return (b) => {
    let desires = 0;
    for (const d of served) {
      let bound = false;
      if (d.target) for (const r of others) if (b[r] === d.target) { bound = true; break; }
      desires += desireValue(d.weight, bound);
    }
    let stakes = fixed.size;
    if (writeRoles.length) {
      const extra = new Set<string>();
      for (const r of writeRoles) { const id = b[r]; if (id !== undefined && !fixed.has(id) && isStake(id)) extra.add(id); }
      stakes += extra.size;
    }
    return bdiTotal(desires, intentions, stakes);
  };
}

/**
 * The bindings among `xs` that the n best by (score descending, bindingKey ascending) are: all of
 * them when there are at most n, else those scoring above the n-th best score and, of those tied
 * with it, the first by key. Any order; `scoreOf` must be bdiScore's score (familyScorer).
 */
export function keepBest(xs: Record<string, string>[], n: number, keyOf: (b: Record<string, string>) => string, scoreOf: (b: Record<string, string>) => number): Record<string, string>[] {
  if (xs.length <= n) return xs;
  const scores = xs.map(scoreOf);
  // A NaN score (a NaN desire weight) has no place in an order: keep everything, the caller sorts.
  if (scores.some((s) => Number.isNaN(s))) return xs;
  const cut = Float64Array.from(scores).sort()[xs.length - n]!;
  const out: Record<string, string>[] = [];
  const ties: Record<string, string>[] = [];
  for (let i = 0; i < xs.length; i++) {
    if (scores[i]! > cut) out.push(xs[i]!);
    else if (scores[i] === cut) ties.push(xs[i]!);
  }
  const need = n - out.length;
  if (ties.length > need) {
    const keyed = ties.map((b) => ({ b, key: keyOf(b) })).sort((x, y) => (x.key < y.key ? -1 : 1));
    for (let i = 0; i < need; i++) out.push(keyed[i]!.b);
    return out;
  }
  return out.concat(ties);
}

/**
 * bindingKey(opId, b) for the bindings of one family, whose keys are exactly `roles`: the sorted role
 * names are the same for all of them (bindingKey sorts them per call). Not memoised per binding: a
 * map keyed by the binding objects cost more than building the few keys asked twice (issue 18).
 */
export function familyKey(opId: string, roles: readonly string[]): (b: Record<string, string>) => string {
  const sorted = [...roles].sort();
  return (b) => keyByRoles(opId, sorted, b);
}
