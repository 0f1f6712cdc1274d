import { canonicalCompact } from '../../core/json.js';
import type { ScenePacket, SubgraphEdge } from '../../domain/packet.js';
import { modelEdge, modelRest, offStage, packetForModel, withoutEmpties } from './wire.js';

type Sub = ScenePacket['retrieved_subgraph'];
type Character = Sub['characters'][number];
type DeadEntry = ScenePacket['dead'][number];
/** The lists pruning shortens, by where they sit in the model packet. */
type Tracked = 'edges' | 'characters' | 'secrets' | 'threads' | 'accounts' | 'forbidden_facts' | 'dead';
const TRACKED: Tracked[] = ['edges', 'characters', 'secrets', 'threads', 'accounts', 'forbidden_facts', 'dead'];

/** Length of an item in the model's text (lists and objects in it lose their empties, as packetForModel does). */
const textLength = (item: unknown): number => canonicalCompact(withoutEmpties(item)).length;

/**
 * The length of `packetJson(p)` kept up to date while pruning removes items, without re-serialising
 * the packet after each batch (issue 18: that was most of stage D on the DPRR world). Exactly the
 * same number as a full measure:
 * - a list's text is `[` + its items joined by commas + `]`, so it is kept as a count and a sum of
 *   item lengths; everything else (cast, beats, settings, the lists' keys, and whether an emptied list
 *   still appears) is measured once per combination of empty lists, with each non-empty list
 *   standing in as `0`;
 * - an off-stage character is in the model's text while some string of the scene (the packet's own
 *   fields, the cast's edges, secrets, threads, accounts) is its id (`mentionsIn` in wire.ts: the
 *   text split at quotes). The pieces each string gives there are counted, and removing an item
 *   uncounts its strings; a character goes when the count of its id falls to zero.
 * A character id with a quote or a JSON punctuation mark could match across strings: then `of`
 * returns null and the caller measures in full.
 */
export class ModelPacketSize {
  private readonly lists = new Map<Tracked, { n: number; sum: number }>(TRACKED.map((k) => [k, { n: 0, sum: 0 }]));
  private readonly skeletons = new Map<string, number>();
  private readonly pieces = new Map<string, number>();
  private readonly sizes = new Map<object, number>();
  private readonly modelEdges = new Map<SubgraphEdge, object>();
  /** Off-stage characters present in the subgraph, by id; `sizes` holds those the model reads. */
  private readonly offStage = new Map<string, Set<Character>>();
  private readonly cast: Set<string>;

  static of(p: ScenePacket): ModelPacketSize | null {
    if (p.retrieved_subgraph.characters.some((c) => /[":,\]}]/.test(c.id))) return null;
    return new ModelPacketSize(p);
  }

  private constructor(private readonly p: ScenePacket) {
    const g = p.retrieved_subgraph;
    this.cast = new Set(p.cast.map((c) => c.id));
    this.count(modelRest({ ...p, retrieved_subgraph: undefined as unknown as Sub }), 1);
    for (const e of g.edges) {
      if (!this.cast.has(e.from) && !this.cast.has(e.to)) continue;
      const m = modelEdge(e);
      this.modelEdges.set(e, m);
      this.add('edges', e, textLength(m));
      this.count(m, 1);
    }
    for (const k of ['secrets', 'threads', 'accounts'] as const) for (const x of g[k]) (this.add(k, x, textLength(x)), this.count(x, 1));
    for (const f of p.constraints.forbidden_facts) this.add('forbidden_facts', null, textLength(f));
    for (const d of p.dead) this.add('dead', d, textLength(d));
    for (const c of g.characters) {
      if (this.cast.has(c.id)) this.add('characters', c, textLength(c));
      else {
        const same = this.offStage.get(c.id) ?? new Set<Character>();
        this.offStage.set(c.id, same.add(c));
        if ((this.pieces.get(c.id) ?? 0) > 0) this.add('characters', c, textLength(offStage(c)));
      }
    }
  }

  /** The length of packetJson(p) now. */
  get length(): number {
    let mask = '';
    let total = 0;
    for (const k of TRACKED) {
      const l = this.lists.get(k)!;
      mask += l.n > 0 ? '1' : '0';
      // "[" + items + commas + "]" in place of the one-character stand-in.
      if (l.n > 0) total += l.sum + l.n;
    }
    let skeleton = this.skeletons.get(mask);
    if (skeleton === undefined) {
      skeleton = this.skeletonLength();
      this.skeletons.set(mask, skeleton);
    }
    return skeleton + total;
  }

  removedEdge(e: SubgraphEdge): void {
    const m = this.modelEdges.get(e);
    if (!m) return; // a tie between two off-stage characters: never in the model's text
    this.modelEdges.delete(e);
    this.drop('edges', e);
    this.count(m, -1);
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

  /** The model packet with each non-empty tracked list as `0` and each empty one gone. */
  private skeletonLength(): number {
    const m = packetForModel(this.p) as unknown as Record<string, unknown> & { retrieved_subgraph: Record<string, unknown>; constraints: Record<string, unknown> };
    const sk = { ...m, retrieved_subgraph: { ...m.retrieved_subgraph }, constraints: { ...m.constraints } };
    const home = (k: Tracked): Record<string, unknown> => (k === 'dead' ? sk : k === 'forbidden_facts' ? sk.constraints : sk.retrieved_subgraph);
    for (const k of TRACKED) {
      if (this.lists.get(k)!.n > 0) home(k)[k] = 0;
      else delete home(k)[k];
    }
    return canonicalCompact(sk).length;
  }

  /** Count (+1) or uncount (-1) every string of v as JSON.stringify writes it, in its quote-split pieces. */
  private count(v: unknown, by: 1 | -1): void {
    if (typeof v === 'string') {
      const ps = /["\\\u0000-\u001f\ud800-\udfff]/.test(v) ? JSON.stringify(v).slice(1, -1).split('"') : [v];
      for (const s of ps) this.bump(s, by);
      return;
    }
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) this.count(x, by);
      return;
    }
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
      this.count(k, by);
      this.count(x, by);
    }
  }

  private bump(s: string, by: 1 | -1): void {
    const n = (this.pieces.get(s) ?? 0) + by;
    this.pieces.set(s, n);
    if (n > 0) return;
    // The last mention of an off-stage character is gone: the model no longer reads them.
    for (const c of this.offStage.get(s) ?? []) if (this.sizes.has(c)) this.drop('characters', c);
  }
}
