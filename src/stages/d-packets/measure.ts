import { compactLength } from '../../core/json.js';
import type { ScenePacket, SubgraphEdge } from '../../domain/packet.js';
import { modelEdge, modelRest, offStage, withoutEmpties } from './wire.js';

type Sub = ScenePacket['retrieved_subgraph'];
type Character = Sub['characters'][number];
type DeadEntry = ScenePacket['dead'][number];
/** The lists pruning shortens, by where they sit in the model packet. */
type Tracked = 'edges' | 'characters' | 'secrets' | 'threads' | 'accounts' | 'forbidden_facts' | 'dead';
const TRACKED: Tracked[] = ['edges', 'characters', 'secrets', 'threads', 'accounts', 'forbidden_facts', 'dead'];

/** Length of an item in the model's text (lists and objects in it lose their empties, as packetForModel does). */
const textLength = (item: unknown): number => compactLength(withoutEmpties(item));
/**
 * The lengths of the items the packets of one buildPackets call share: a subgraph character's
 * entry is one object in every scene that walks that character unchanged (retrieve.ts), so its
 * lengths are measured once, not once per scene (issue 18). Entries are not edited once built.
 */
export class ItemLengths {
  private readonly model = new Map<object, number>();
  private readonly offStage = new Map<object, number>();
  private readonly file = new Map<object, number>();
  /** The relationship each subgraph edge was built from (retrieve.ts), and what is measured once per relationship. */
  private readonly edgeSources = new Map<SubgraphEdge, object>();
  private readonly edges = new Map<object, EdgeFacts>();

  /** textLength(item): its length in the model's text. */
  modelLength(item: object): number {
    return memo(this.model, item, () => textLength(item));
  }

  /** textLength(offStage(c)): an off-stage character's length in the model's text. */
  offStageLength(c: Character): number {
    return memo(this.offStage, c, () => textLength(offStage(c)));
  }

  /** compactLength(item): its length in the packet file's compact text. */
  fileLength(item: object): number {
    return memo(this.file, item, () => compactLength(item));
  }

  /**
   * Notes that `e` was built from `source` alone apart from its relevance (retrieve.ts subgraphEdges:
   * every scene that walks a relationship builds the same edge but for that number), so its model
   * text, its strings and its file length but the relevance are measured once per relationship, not
   * once per scene (issue 18: ~100-280 edges a DPRR scene, nearly all pruned).
   */
  edgeFrom(e: SubgraphEdge, source: object): void {
    this.edgeSources.set(e, source);
  }

  /** edgeFacts(e), measured once per source (per edge without one). */
  edge(e: SubgraphEdge): EdgeFacts {
    return memoFacts(this.edges, this.edgeSources.get(e) ?? e, e);
  }

  /** compactLength(e): the edge's length in the packet file's compact text. */
  edgeFileLength(e: SubgraphEdge): number {
    const f = this.edge(e);
    return Number.isFinite(e.relevance) && f.fileBase !== null ? f.fileBase + JSON.stringify(e.relevance).length : compactLength(e);
  }
}

/** What measuring an edge gives that does not depend on its relevance. */
export interface EdgeFacts {
  /** textLength(modelEdge(e)). */
  modelLength: number;
  /** The pieces of modelEdge(e)'s strings that ModelPacketSize counts (stringPieces). */
  pieces: string[];
  /** compactLength(e) without its relevance's digits (null: measure in full). */
  fileBase: number | null;
}

/** The definition: an edge measured on its own. */
export function edgeFacts(e: SubgraphEdge): EdgeFacts {
  const m = modelEdge(e);
  const pieces: string[] = [];
  stringPieces(m, (s) => pieces.push(s));
  return { modelLength: textLength(m), pieces, fileBase: Number.isFinite(e.relevance) ? compactLength(e) - JSON.stringify(e.relevance).length : null };
}

function memoFacts(m: Map<object, EdgeFacts>, key: object, e: SubgraphEdge): EdgeFacts {
  let f = m.get(key);
  if (f === undefined) m.set(key, (f = edgeFacts(e)));
  return f;
}

function memo(m: Map<object, number>, item: object, compute: () => number): number {
  let n = m.get(item);
  if (n === undefined) m.set(item, (n = compute()));
  return n;
}

/** Where a tracked list sits in the model packet. */
const HOME: Record<Tracked, 'top' | 'constraints' | 'retrieved_subgraph'> = {
  edges: 'retrieved_subgraph', characters: 'retrieved_subgraph', secrets: 'retrieved_subgraph', threads: 'retrieved_subgraph', accounts: 'retrieved_subgraph',
  forbidden_facts: 'constraints', dead: 'top',
};

/**
 * The length of `packetJson(p)` kept up to date while pruning removes items, without re-serialising
 * the packet after each batch (issue 18: that was most of stage D on the DPRR world). Exactly the
 * same number as a full measure:
 * - a list's text is `[` + its items joined by commas + `]`, so it is kept as a count and a sum of
 *   item lengths; everything else (cast, beats, settings) is measured once, as the model packet
 *   without the tracked lists (pruning does not change it), and each non-empty list adds its key,
 *   a one-character stand-in and a comma to it (an emptied list is not in the model's text);
 * - an off-stage character is in the model's text while some string of the scene (the packet's own
 *   fields, the cast's edges, secrets, threads, accounts) is its id (`mentionsIn` in wire.ts: the
 *   text split at quotes). The pieces each string gives there are counted, and removing an item
 *   uncounts its strings; a character goes when the count of its id falls to zero.
 * A character id with a quote or a JSON punctuation mark could match across strings: then `of`
 * returns null and the caller measures in full.
 */
export class ModelPacketSize {
  private readonly lists = new Map<Tracked, { n: number; sum: number }>(TRACKED.map((k) => [k, { n: 0, sum: 0 }]));
  /** The model packet without the tracked lists: its length, and how many keys each object holding a list has then. */
  private readonly skeleton: { length: number; keys: Record<'top' | 'constraints' | 'retrieved_subgraph', number> };
  private readonly pieces = new Map<string, number>();
  private readonly sizes = new Map<object, number>();
  private readonly modelEdges = new Map<SubgraphEdge, EdgeFacts>();
  /** Off-stage characters present in the subgraph, by id; `sizes` holds those the model reads. */
  private readonly offStage = new Map<string, Set<Character>>();
  /** The ids of `offStage`: the only strings whose mentions are counted (no other string decides anything). */
  private readonly offIds: Set<string>;
  private readonly cast: Set<string>;

  static of(p: ScenePacket, lengths = new ItemLengths()): ModelPacketSize | null {
    if (p.retrieved_subgraph.characters.some((c) => /[":,\]}]/.test(c.id))) return null;
    return new ModelPacketSize(p, lengths);
  }

  private constructor(p: ScenePacket, lengths: ItemLengths) {
    const g = p.retrieved_subgraph;
    this.cast = new Set(p.cast.map((c) => c.id));
    this.offIds = new Set(g.characters.flatMap((c) => (this.cast.has(c.id) ? [] : [c.id])));
    this.count(modelRest({ ...p, retrieved_subgraph: undefined as unknown as Sub }), 1);
    this.skeleton = skeletonOf(p);
    for (const e of g.edges) {
      if (!this.cast.has(e.from) && !this.cast.has(e.to)) continue;
      const f = lengths.edge(e);
      this.modelEdges.set(e, f);
      this.add('edges', e, f.modelLength);
      for (const s of f.pieces) this.bump(s, 1);
    }
    for (const k of ['secrets', 'threads', 'accounts'] as const) for (const x of g[k]) (this.add(k, x, textLength(x)), this.count(x, 1));
    for (const f of p.constraints.forbidden_facts) this.add('forbidden_facts', null, textLength(f));
    for (const d of p.dead) this.add('dead', d, textLength(d));
    for (const c of g.characters) {
      if (this.cast.has(c.id)) this.add('characters', c, lengths.modelLength(c));
      else {
        const same = this.offStage.get(c.id) ?? new Set<Character>();
        this.offStage.set(c.id, same.add(c));
        if ((this.pieces.get(c.id) ?? 0) > 0) this.add('characters', c, lengths.offStageLength(c));
      }
    }
  }

  /** The length of packetJson(p) now. */
  get length(): number {
    let total = this.skeleton.length;
    const added = { top: 0, constraints: 0, retrieved_subgraph: 0 };
    for (const k of TRACKED) {
      const l = this.lists.get(k)!;
      if (l.n === 0) continue;
      // `"key":` + "[" + items + commas + "]"; the comma before the entry is counted below.
      total += JSON.stringify(k).length + 1 + l.sum + l.n + 1;
      added[HOME[k]]++;
    }
    // An object of n entries has n - 1 commas.
    for (const h of ['top', 'constraints', 'retrieved_subgraph'] as const) {
      const b = this.skeleton.keys[h];
      total += Math.max(b + added[h] - 1, 0) - Math.max(b - 1, 0);
    }
    return total;
  }

  removedEdge(e: SubgraphEdge): void {
    const f = this.modelEdges.get(e);
    if (!f) return; // a tie between two off-stage characters: never in the model's text
    this.modelEdges.delete(e);
    this.drop('edges', e);
    for (const s of f.pieces) this.bump(s, -1);
  }

  removedItem(kind: 'secrets' | 'threads' | 'accounts', x: object): void {
    this.drop(kind, x);
    this.count(x, -1);
  }

  removedCharacter(c: Character): void {
    if (this.cast.has(c.id)) return this.drop('characters', c);
    this.offStage.get(c.id)?.delete(c);
    if (this.sizes.has(c)) this.drop('characters', c);
  }

  removedFact(text: string): void {
    const l = this.lists.get('forbidden_facts')!;
    l.n--;
    l.sum -= textLength(text);
    this.count(text, -1);
  }

  removedDead(entry: DeadEntry): void {
    this.drop('dead', entry);
    this.count(entry, -1);
  }

  private add(k: Tracked, item: object | null, size: number): void {
    const l = this.lists.get(k)!;
    l.n++;
    l.sum += size;
    if (item) this.sizes.set(item, size);
  }

  private drop(k: Tracked, item: object): void {
    const l = this.lists.get(k)!;
    l.n--;
    l.sum -= this.sizes.get(item)!;
    this.sizes.delete(item);
  }

  /** Count (+1) or uncount (-1) every string of v as JSON.stringify writes it, in its quote-split pieces. */
  private count(v: unknown, by: 1 | -1): void {
    stringPieces(v, (s) => this.bump(s, by));
  }

  private bump(s: string, by: 1 | -1): void {
    if (!this.offIds.has(s)) return;
    const n = (this.pieces.get(s) ?? 0) + by;
    this.pieces.set(s, n);
    if (n > 0) return;
    // The last mention of an off-stage character is gone: the model no longer reads them.
    for (const c of this.offStage.get(s) ?? []) if (this.sizes.has(c)) this.drop('characters', c);
  }
}

/** Every string of v as JSON.stringify writes it (keys too), in its pieces split at the quotes its text has. */
function stringPieces(v: unknown, each: (s: string) => void): void {
  if (typeof v === 'string') {
    if (/["\\\u0000-\u001f\ud800-\udfff]/.test(v)) for (const s of JSON.stringify(v).slice(1, -1).split('"')) each(s);
    else each(v);
    return;
  }
  if (v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    for (const x of v) stringPieces(x, each);
    return;
  }
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    stringPieces(k, each);
    stringPieces(x, each);
  }
}

/**
 * The model packet (packetForModel) without the tracked lists, measured: what pruning leaves as it
 * is. The tracked lists are the subgraph's lists, the dead and the forbidden facts; the rest of the
 * subgraph (its `k`) and of the packet goes through withoutEmpties as packetForModel sends it.
 */
function skeletonOf(p: ScenePacket): { length: number; keys: Record<'top' | 'constraints' | 'retrieved_subgraph', number> } {
  const { retrieved_subgraph: g, dead: _d, format: _f, marquee: _m, constraints, ...scene } = modelRest(p);
  const { characters: _c, edges: _e, secrets: _s, threads: _t, accounts: _a, ...subgraph } = g;
  const { forbidden_facts: _ff, ...rules } = constraints;
  const sk = withoutEmpties({ ...scene, retrieved_subgraph: subgraph, constraints: rules }) as Record<string, Record<string, unknown>>;
  const keys = (o: object) => Object.values(o).filter((x) => x !== undefined && typeof x !== 'function' && typeof x !== 'symbol').length;
  return { length: compactLength(sk), keys: { top: keys(sk), constraints: keys(sk.constraints!), retrieved_subgraph: keys(sk.retrieved_subgraph!) } };
}
