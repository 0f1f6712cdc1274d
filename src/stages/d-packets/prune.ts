import { compactLength } from '../../core/json.js';
import type { ScenePacket } from '../../domain/packet.js';
import { ItemLengths, ModelPacketSize } from './measure.js';
import { packetTokens } from './wire.js';
import { compareText } from '../../core/text-order.js';
import { ledgerAccountsOf } from '../../domain/delta.js';

/** Characters an item takes in the compact JSON the model reads (plus its comma). */
const sizeOf = (item: unknown): number => compactLength(item) + 1;

/**
 * Drop the least relevant context until what the model reads fits the budget: edges, then secrets,
 * threads, accounts, characters, then the "no one here knows it" facts and the dead who are not
 * the scene's business (on a world of thousands, every hidden secret and every dead senator near
 * the cast would otherwise be listed; the verifier reads the dead from the world, not from this
 * list, so its checks do not weaken). The scene's own people are never dropped: the cast's characters
 * and the edges among them stay, whatever the budget (a scene cannot be written without them). So do
 * the scene's own money facts: the cast's accounts and every account a required delta of the scene
 * moves money from or to (ownAccounts): without them the verifier cannot tell a planned payment from
 * an overspend (a DPRR world's second episode failed on "pay 15000 denarii … with 0 available" while
 * the fund held 610,000, its account and the payee's pruned for room).
 * Each removal is credited with its compact size and recorded in `pruned`, which stays in the
 * packet file but is not sent and not counted; the estimate is measured, and re-measured after each
 * batch, from sizes kept up to date as items go (measure.ts: the same figure as serialising the packet
 * again, without serialising it even once: issue 18).
 */
/** The packet's forbidden facts that can go: the hidden secrets' (by secret id) and the dead's (by character id), with relevance. */
export interface PrunableFacts {
  secrets: Array<{ id: string; text: string; relevance: number }>;
  dead: Array<{ id: string; text: string; relevance: number }>;
}

export function prunePacket(p: ScenePacket, budget: number, secretRel: Map<string, number>, threadRel: Map<string, number>, facts: PrunableFacts = { secrets: [], dead: [] }, lengths = new ItemLengths()): void {
  const g = p.retrieved_subgraph;
  const castIds = new Set(p.cast.map((c) => c.id));
  const own = (e: { from: string; to: string }) => castIds.has(e.from) && castIds.has(e.to);
  const size = ModelPacketSize.of(p, lengths);
  const measure = () => (p.token_estimate = size ? Math.ceil(size.length / 4) : packetTokens(p));
  const lowFirst = <T extends { id: string }>(rel: (x: T) => number) => (a: T, b: T): number => rel(a) - rel(b) || compareText(b.id, a.id);
  const pickLow = <T extends { id: string }>(xs: T[], rel: (x: T) => number): T | undefined => first(xs, lowFirst(rel));
  // The subgraph's lists lose their least relevant item at each step and nothing else changes them,
  // so each is taken in one stable sort's order (what picking the least of the rest each time gives,
  // the earliest of equals first) instead of a scan per removal (issue 18: a DPRR scene drops up to
  // 230 characters).
  const secrets = inOrder(g.secrets, lowFirst((x) => secretRel.get(x.id) ?? 0));
  const threads = inOrder(g.threads, lowFirst((x) => threadRel.get(x.id) ?? 0));
  const keep = ownAccounts(p);
  const accounts = inOrder(g.accounts.filter((x) => !keep(x)), lowFirst(() => 0));
  const others = inOrder(g.characters.filter((x) => !castIds.has(x.id)), lowFirst(() => 0));
  const removeOne = (): number => {
    // Edges are sorted by relevance, least relevant last; the cast's own edges stay.
    for (let i = g.edges.length - 1; i >= 0; i--) {
      const e = g.edges[i]!;
      if (own(e)) continue;
      g.edges.splice(i, 1);
      size?.removedEdge(e);
      p.pruned.push({ id: `${e.from}>${e.to}`, kind: 'edge', relevance: e.relevance });
      return lengths.edgeFileLength(e) + 1;
    }
    const s = secrets();
    if (s) { g.secrets.splice(g.secrets.indexOf(s), 1); size?.removedItem('secrets', s); p.pruned.push({ id: s.id, kind: 'secret', relevance: secretRel.get(s.id) ?? 0 }); return sizeOf(s); }
    const t = threads();
    if (t) { g.threads.splice(g.threads.indexOf(t), 1); size?.removedItem('threads', t); p.pruned.push({ id: t.id, kind: 'thread', relevance: threadRel.get(t.id) ?? 0 }); return sizeOf(t); }
    const a = accounts();
    if (a) { g.accounts.splice(g.accounts.indexOf(a), 1); size?.removedItem('accounts', a); p.pruned.push({ id: a.id, kind: 'account', relevance: 0 }); return sizeOf(a); }
    const c = others();
    if (c) { g.characters.splice(g.characters.indexOf(c), 1); size?.removedCharacter(c); p.pruned.push({ id: c.id, kind: 'character', relevance: 0 }); return lengths.fileLength(c) + 1; }
    return removeFact();
  };
  const ff = p.constraints.forbidden_facts;
  const removeFact = (): number => {
    const s = pickLow(facts.secrets.filter((x) => ff.includes(x.text)), (x) => x.relevance);
    if (s) { ff.splice(ff.indexOf(s.text), 1); size?.removedFact(s.text); p.pruned.push({ id: s.id, kind: 'forbidden_fact', relevance: s.relevance }); return sizeOf(s.text); }
    const d = pickLow(facts.dead.filter((x) => p.dead.some((y) => y.id === x.id)), (x) => x.relevance);
    if (d) {
      const entry = p.dead.find((y) => y.id === d.id)!;
      p.dead.splice(p.dead.indexOf(entry), 1);
      size?.removedDead(entry);
      if (ff.includes(d.text)) (ff.splice(ff.indexOf(d.text), 1), size?.removedFact(d.text));
      p.pruned.push({ id: d.id, kind: 'dead', relevance: d.relevance });
      return sizeOf(entry) + sizeOf(d.text);
    }
    return 0; // nothing left to prune: the rest is the scene itself
  };
  let est = measure();
  while (est > budget) {
    let excess = (est - budget) * 4;
    let progressed = false;
    while (excess > 0) {
      const freed = removeOne();
      if (freed === 0) break;
      progressed = true;
      excess -= freed;
    }
    if (!progressed) break;
    est = measure();
  }
}

/**
 * Whether an account is the scene's own: a cast member's, or one a required delta of the scene moves
 * money from or to (a transfer's `from`/`to`, or an `assets.cash_ledger.<id>` add or subtract).
 */
function ownAccounts(p: ScenePacket): (a: { id: string; owner: string }) => boolean {
  const cast = new Set(p.cast.map((c) => c.id));
  const moved = new Set<string>();
  for (const d of p.constraints.required_deltas) for (const id of ledgerAccountsOf(d)) moved.add(id);
  return (a) => cast.has(a.owner) || moved.has(a.id);
}

/**
 * The items of xs in `[...xs].sort(cmp)` order, one per call (undefined when none is left), sorted
 * at the first call: a list pruning never reaches is not sorted.
 */
function inOrder<T>(xs: readonly T[], cmp: (a: T, b: T) => number): () => T | undefined {
  let sorted: T[] | undefined;
  let next = 0;
  return () => (sorted ??= [...xs].sort(cmp))[next++];
}

/**
 * What `[...xs].sort(cmp)[0]` is (the sort is stable: the earliest of equals), in one pass instead
 * of a copy and a sort per removal.
 */
function first<T>(xs: readonly T[], cmp: (a: T, b: T) => number): T | undefined {
  let best: T | undefined;
  for (let i = 0; i < xs.length; i++) if (i === 0 || cmp(xs[i]!, best!) < 0) best = xs[i];
  return best;
}
