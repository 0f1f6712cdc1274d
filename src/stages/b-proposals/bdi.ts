import type { Character, Operator, RoleKind, Secret, Thread, World } from '../../domain/world.js';
import { round } from '../../core/json.js';

/**
 * BDI-lite scoring and binding enumeration (docs/planning.md, stage B). Shared by the Director,
 * which scores the same candidates again with episode-level needs on top.
 */

/** Characters who can act: alive (not dead, exiled or imprisoned). */
export const canAct = (c: Character | undefined): boolean => !!c && c.status === 'alive';

/** Role names of an operator in a stable order: actor first, then alphabetical. */
export function roleOrder(op: Operator): string[] {
  const roles = Object.keys(op.roles ?? {}).filter((r) => r !== 'actor').sort();
  return ['actor', ...roles];
}

export function roleKind(op: Operator, role: string): RoleKind {
  return role === 'actor' ? 'character' : (op.roles?.[role]?.kind ?? 'character');
}

/** The items of a role kind and which of them can be bound (one predicate for the list and the count). */
function kindItems(world: World, kind: RoleKind): { items: readonly Item[]; ok: (x: Item) => boolean } {
  switch (kind) {
    case 'character': return { items: world.characters.characters, ok: (c) => canAct(c as Character) };
    case 'secret': return { items: world.secrets.secrets, ok: (s) => (s as Secret).status !== 'inert' };
    case 'thread': return { items: world.threads.threads, ok: (t) => (t as Thread).status === 'open' };
    case 'location': return { items: world.world.locations, ok: () => true };
    case 'faction': return { items: world.factions.factions, ok: () => true };
  }
}
type Item = { readonly id: string };

/** Candidate ids for a role kind (the actor is bound separately). */
export function candidatesFor(world: World, kind: RoleKind): string[] {
  const { items, ok } = kindItems(world, kind);
  const ids: string[] = [];
  for (const x of items) if (ok(x)) ids.push(x.id);
  return ids.sort();
}

/**
 * Whether a role kind has at most `n` candidates, counted without listing them: a big world's
 * 10,000 characters were listed and sorted only to learn that they are more than a handful (issue 18).
 */
export function atMostCandidates(world: World, kind: RoleKind, n: number): boolean {
  const { items, ok } = kindItems(world, kind);
  let count = 0;
  for (const x of items) if ((ok as (x: unknown) => boolean)(x) && ++count > n) return false;
  return true;
}

/**
 * Every binding of `op` with `actor` fixed: the cartesian product of the other roles' candidates,
 * never binding the same character to two roles.
 */
export function enumerateBindings(world: World, op: Operator, actor: string, cache = new Map<RoleKind, string[]>()): Record<string, string>[] {
  const roles = roleOrder(op).slice(1);
  const out: Record<string, string>[] = [];
  const cands = (k: RoleKind) => cache.get(k) ?? (cache.set(k, candidatesFor(world, k)), cache.get(k)!);
  const rec = (i: number, b: Record<string, string>, usedChars: Set<string>) => {
    if (i === roles.length) { out.push({ ...b }); return; }
    const role = roles[i]!;
    const kind = roleKind(op, role);
    for (const id of cands(kind)) {
      if (kind === 'character' && usedChars.has(id)) continue;
      b[role] = id;
      if (kind === 'character') usedChars.add(id);
      rec(i + 1, b, usedChars);
      if (kind === 'character') usedChars.delete(id);
      delete b[role];
    }
  };
  rec(0, { actor }, new Set([actor]));
  return out;
}

/** Canonical key of a binding, for dedup and deterministic tie-breaks. */
export function bindingKey(opId: string, bindings: Record<string, string>): string {
  return keyByRoles(opId, Object.keys(bindings).sort(), bindings);
}

/** bindingKey of a binding whose role names, sorted, are `sortedRoles` (a family's bindings share them: family.ts). */
export function keyByRoles(opId: string, sortedRoles: readonly string[], bindings: Record<string, string>): string {
  let key = opId + '(';
  for (let i = 0; i < sortedRoles.length; i++) {
    const k = sortedRoles[i]!;
    key += (i > 0 ? ',' : '') + k + '=' + bindings[k];
  }
  return key + ')';
}

/** The main target of a move: the `target` role, else the first non-actor role in order. */
export function mainTarget(op: Operator, bindings: Record<string, string>): string | null {
  if (bindings.target) return bindings.target;
  const r = roleOrder(op).slice(1).find((x) => bindings[x] !== undefined);
  return r ? bindings[r]! : null;
}

const words = (s: string): string[] => s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3);

const opWordCache = new WeakMap<Operator, { set: Set<string>; stems: Set<string> }>();

function operatorWords(op: Operator): { set: Set<string>; stems: Set<string> } {
  let w = opWordCache.get(op);
  if (!w) {
    const set = new Set([...words(op.id), ...words(op.name), ...op.thread_tags.flatMap(words), ...op.beats.flatMap(words)]);
    for (const e of op.effects) if (typeof e.value === 'string') for (const x of words(e.value)) set.add(x);
    w = { set, stems: new Set([...set].filter((o) => o.length >= 5).map((o) => o.slice(0, 5))) };
    opWordCache.set(op, w);
  }
  return w;
}

/** Does an intention token ("CORNER_GRAIN") name this operator's business? (word or 5-letter stem match) */
export function intentionMatches(intention: string, op: Operator): boolean {
  return wordsMatch(words(intention), op);
}

function wordsMatch(ws: readonly string[], op: Operator): boolean {
  const w = operatorWords(op);
  return ws.some((x) => w.set.has(x) || (x.length >= 5 && w.stems.has(x.slice(0, 5))));
}

/** An intention's words and, for those of 5 letters or more, their 5-letter stems ('' for shorter ones). */
interface IntentionWords { ws: string[]; stems: string[] }

/** wordsMatch with the stems cut once per intention, not once per operator it is matched against. */
function intentionWordsMatch(iw: IntentionWords, op: Operator): boolean {
  const w = operatorWords(op);
  for (let i = 0; i < iw.ws.length; i++) {
    if (w.set.has(iw.ws[i]!)) return true;
    const stem = iw.stems[i]!;
    if (stem !== '' && w.stems.has(stem)) return true;
  }
  return false;
}

export interface ThreadLookup {
  byId: Map<string, Thread>;
  /** Open threads by stakeholder id. */
  byStakeholder: Map<string, Thread[]>;
  /** Open threads without stakeholders. */
  unowned: Thread[];
}

const threadLookups = new WeakMap<World, ThreadLookup>();

/** Thread lookups of one world state, built once (the pool scores thousands of bindings per state). */
export function threadLookup(world: World): ThreadLookup {
  let l = threadLookups.get(world);
  if (!l) {
    l = { byId: new Map(), byStakeholder: new Map(), unowned: [] };
    for (const t of world.threads.threads) {
      if (!l.byId.has(t.id)) l.byId.set(t.id, t);
      if (t.status !== 'open') continue;
      if (t.stakeholders.length === 0) l.unowned.push(t);
      for (const s of new Set(t.stakeholders)) (l.byStakeholder.get(s) ?? l.byStakeholder.set(s, []).get(s)!).push(t);
    }
    threadLookups.set(world, l);
  }
  return l;
}

/** Threads a use of `op` with these bindings advances: tag overlap + a bound stakeholder, or a direct thread write. */
export function threadsAdvancedBy(world: World, op: Operator, bindings: Record<string, string>): string[] {
  return threadsAdvancedByOp(world, op)(bindings);
}

/**
 * threadsAdvancedBy for many bindings of one operator (the pool asks it for each move it keeps:
 * ~2,000 per episode): only threads with a bound stakeholder, or none at all, can qualify by tag, so
 * those are looked up per bound id (once per id); the ownerless threads' hits and the fixed writes
 * are worked out once per operator, not per binding.
 */
export function threadsAdvancedByOp(world: World, op: Operator): (bindings: Record<string, string>) => string[] {
  const look = threadLookup(world);
  const tagged = op.thread_tags.length > 0;
  const tagHit = (t: Thread) => op.thread_tags.some((x) => t.tags.includes(x));
  const hitsOf = new Map<string, string[]>();
  const hits = (id: string): string[] => {
    let h = hitsOf.get(id);
    if (!h) hitsOf.set(id, (h = (look.byStakeholder.get(id) ?? []).filter(tagHit).map((t) => t.id)));
    return h;
  };
  const fixed: string[] = tagged ? look.unowned.filter(tagHit).map((t) => t.id) : [];
  const roleWrites: string[] = [];
  for (const w of threadWrites(op)) {
    if (w.id === undefined) { if (w.role !== undefined) roleWrites.push(w.role); continue; }
    const t = look.byId.get(w.id);
    if (t && t.status === 'open') fixed.push(t.id);
  }
  // The ids are gathered with repeats, sorted, and the repeats (adjacent once sorted) dropped: the
  // sorted distinct ids, without a Set per binding (the pool asks once per kept move).
  return (bindings) => {
    const out: string[] = [];
    if (tagged) for (const r in bindings) for (const id of hits(bindings[r]!)) out.push(id);
    for (const id of fixed) out.push(id);
    for (const r of roleWrites) {
      const id = bindings[r];
      const t = id ? look.byId.get(id) : undefined;
      if (t && t.status === 'open') out.push(t.id);
    }
    if (out.length < 2) return out;
    out.sort();
    let n = 1;
    for (let i = 1; i < out.length; i++) if (out[i] !== out[n - 1]) out[n++] = out[i]!;
    out.length = n;
    return out;
  };
}

/** An effect's thread: a fixed `threads.<id>.…` path, or a thread role of the operator (`<role>.…`). */
interface ThreadWrite { id?: string; role?: string }

const threadWriteCache = new WeakMap<Operator, ThreadWrite[]>();

/** The operator's thread writes, read from its effect paths once (the pool asks per binding). */
export function threadWrites(op: Operator): ThreadWrite[] {
  let ws = threadWriteCache.get(op);
  if (!ws) {
    ws = [];
    for (const e of op.effects) {
      const m = /^(?:threads\.([a-z0-9_]+)|([a-z0-9_]+))\./.exec(e.path);
      if (m?.[1]) ws.push({ id: m[1] });
      else if (m?.[2] && roleKind(op, m[2]) === 'thread' && op.roles[m[2]]) ws.push({ role: m[2] });
    }
    threadWriteCache.set(op, ws);
  }
  return ws;
}

export interface BdiScore {
  score: number;
  /** The desire that contributed most, if any (for the rationale). */
  topDesire: { text: string; kind: string; weight: number } | null;
  intentions: string[];
  stakes: string[];
}

const intentionCache = new WeakMap<Character, { words: Map<string, IntentionWords>; byOp: WeakMap<Operator, string[]> }>();

/**
 * The actor's intentions that name the operator's business (intentionMatches): the same for every
 * binding of the pair. Each intention's words and stems are made once per actor, not once per operator.
 */
export function matchingIntentions(actor: Character, op: Operator): string[] {
  let m = intentionCache.get(actor);
  if (!m) intentionCache.set(actor, (m = { words: new Map(), byOp: new WeakMap() }));
  let l = m.byOp.get(op);
  if (!l) {
    const ws = m.words;
    const wordsOf = (i: string): IntentionWords => {
      let iw = ws.get(i);
      if (!iw) {
        const list = words(i);
        ws.set(i, (iw = { ws: list, stems: list.map((x) => (x.length >= 5 ? x.slice(0, 5) : '')) }));
      }
      return iw;
    };
    m.byOp.set(op, (l = actor.bdi.intentions.filter((i) => intentionWordsMatch(wordsOf(i), op))));
  }
  return l;
}

/**
 * The score's parts, shared with the pool's family cut (family.ts), which computes the same score
 * without the rest of BdiScore: a served desire counts its weight, half again when the move binds
 * its target; the desires' values are summed in the actor's order, then the intentions and stakes
 * are added (in this order: the float depends on it).
 */
export const desireValue = (weight: number, targetBound: boolean): number => weight * (targetBound ? 1.5 : 1);
export const bdiTotal = (desires: number, intentions: number, stakes: number): number => round(desires + 0.5 * intentions + 0.25 * stakes);

/** Stage B score of `actor` doing `op` with `bindings` (docs/planning.md). */
export function bdiScore(world: World, actor: Character, op: Operator, bindings: Record<string, string>, threads?: string[]): BdiScore {
  const bound = new Set(Object.entries(bindings).filter(([r]) => r !== 'actor').map(([, id]) => id));
  let desires = 0;
  let top: BdiScore['topDesire'] = null;
  let topV = 0;
  for (const d of actor.bdi.desires) {
    if (!op.serves.includes(d.kind)) continue;
    const v = desireValue(d.weight, !!d.target && bound.has(d.target));
    desires += v;
    if (v > topV) { topV = v; top = { text: d.text, kind: d.kind, weight: d.weight }; }
  }
  const intentions = matchingIntentions(actor, op).slice();
  const adv = threads ?? threadsAdvancedBy(world, op, bindings);
  const byId = threadLookup(world).byId;
  const stakes = adv.filter((id) => byId.get(id)?.stakeholders.includes(actor.id));
  return { score: bdiTotal(desires, intentions.length, stakes.length), topDesire: top, intentions, stakes };
}

export const priorityOf = (score: number): number => round(score / (score + 1));
