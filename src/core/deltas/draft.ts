import type { Character, LedgerAccount, Relationship, Secret, Thread, World } from '../../domain/world.js';
import { edgesByKey, entitiesById } from '../world-index.js';
import { noteChanges, noteCopy } from '../finished-lists.js';

/**
 * The draft world of one delta batch, copy-on-write: a touched file, its list and the touched
 * entity are copied once per batch, never per delta; everything untouched is shared with the input.
 */

/**
 * The lists earlier batches finished, per list they were copied from: the positions each changed and
 * the list (weakly held: a state no one keeps is not kept alive by this). A batch that makes the same
 * changes to the same list takes that list instead of a copy of its own. Why (issue 18): the
 * acceptance replay applies the Director's applications again, one by one, on the same relationships
 * lists (its cast moves touch only characters), and each copy of a 34,892-edge list is a fresh 280 KB
 * allocation; a batch is compared entity by entity, key order included, so the state is the same.
 */
const finished = new WeakMap<readonly object[], { changed: readonly number[]; list: WeakRef<object[]> }[]>();
/** Finished lists remembered per original (the newest): a scene's tries, not the whole run. */
const KEEP = 8;

/** The same JSON-like value: same keys in the same order (a written key order is serialised), same leaves. */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i] || !sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

function samePositions(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A copy-on-write view of one list of entities inside the draft world. */
export class CowList<T extends object> {
  private list: readonly T[] | null = null;
  /** The draft's own entities, by position in the base list (copied on first write). */
  private mine = new Map<number, T>();
  /** Entities pushed by this draft, after the base list's. */
  private added: T[] = [];
  /** Positions in the base list found by this draft (undefined: no such entity). */
  private found = new Map<string, number | undefined>();
  /** Positions of entities pushed by this draft (they win over the base list's). */
  private pushed = new Map<string, number>();
  private copied = new Set<string>();
  constructor(
    private readonly baseList: () => readonly T[],
    private readonly install: (arr: T[]) => void,
    private readonly key: (t: T) => string,
    private readonly clone: (t: T) => T,
    /**
     * The first entity of each key: the lookup indexWorld memoises per list (world-index.ts), so a
     * batch builds no map of its own for a list of thousands.
     */
    private readonly lookup: (items: readonly T[]) => { get(key: string): T | undefined },
  ) {}
  /** The list the draft started from (read once: a missing file gives one empty list, not one per call). */
  private base(): readonly T[] {
    return this.list ?? (this.list = this.baseList());
  }
  /**
   * The position of an entity: one the draft pushed, else the first of its key in the base list (the
   * draft's list keeps the base's entities at the same places). Found as the lookup's entity's place
   * (indexOf): a batch asks for a few entities, and a map of every position, memoised and patched per
   * list, cost more at 10,000 characters and 35,000 edges than the searches it saved (issue 18).
   */
  private at(id: string): number | undefined {
    const p = this.pushed.get(id);
    if (p !== undefined) return p;
    if (this.found.has(id)) return this.found.get(id);
    const base = this.base();
    const entity = this.lookup(base).get(id);
    const i = entity === undefined ? undefined : base.indexOf(entity);
    this.found.set(id, i);
    return i;
  }
  private item(i: number): T | undefined {
    const base = this.base();
    return i < base.length ? this.mine.get(i) ?? base[i] : this.added[i - base.length];
  }
  get(id: string): T | undefined {
    const i = this.at(id);
    return i === undefined ? undefined : this.item(i);
  }
  /** The entity, copied into the draft on first write; undefined when it does not exist. */
  write(id: string): T | undefined {
    const i = this.at(id);
    if (i === undefined) return undefined;
    if (!this.copied.has(id)) {
      this.touch();
      this.mine.set(i, this.clone(this.base()[i]!));
      this.copied.add(id);
    }
    return this.item(i);
  }
  /** Append a new entity (already owned by the draft). */
  push(item: T): T {
    const key = this.key(item);
    this.touch();
    this.added.push(item);
    this.pushed.set(key, this.base().length + this.added.length - 1);
    this.copied.add(key);
    return item;
  }
  /**
   * First write: the draft's file takes its place in the world now, as it did when the list was
   * copied here (a file the world lacks is added in the order the batch first wrote it); seal()
   * puts the finished list in it.
   */
  private touch(): void {
    if (!this.mine.size && !this.added.length) this.install(this.base() as T[]);
  }
  /**
   * End of the batch: the list is made (once, with its new entities' places: a copy grown by a
   * push is copied again), or taken from an earlier batch that made the same changes to the same
   * list (see `finished`). It is sealed (finished-lists.ts noteChanges: it is shared with later states
   * and never edited in place, so lookups memoised over it need no element-by-element check) with
   * its changed positions noted. Not Object.freeze (finished-lists.ts says why).
   */
  seal(): void {
    if (!this.mine.size && !this.added.length) return;
    const base = this.base();
    const at: number[] = [];
    for (const id of this.copied) at.push(this.at(id)!);
    at.sort((a, b) => a - b);
    const earlier = finished.get(base) ?? [];
    for (const f of earlier) {
      const list = samePositions(f.changed, at) ? f.list.deref() : undefined;
      if (list && list.length === base.length + this.added.length && at.every((i) => sameValue(list[i], this.item(i)))) {
        this.install(list as T[]);
        return;
      }
    }
    const arr = this.added.length ? base.concat(this.added) : base.slice();
    for (const [i, e] of this.mine) arr[i] = e;
    noteCopy(arr, base);
    noteChanges(arr, at);
    this.install(arr);
    if (earlier.length >= KEEP) earlier.shift();
    earlier.push({ changed: at, list: new WeakRef(arr) });
    finished.set(base, earlier);
  }
}

/** The draft world of one batch. */
export class Draft {
  readonly w: World;
  private files = new Set<keyof World>();
  readonly characters: CowList<Character>;
  readonly relationships: CowList<Relationship>;
  readonly secrets: CowList<Secret>;
  readonly threads: CowList<Thread>;
  readonly ledger: CowList<LedgerAccount>;
  private globalCopied = false;

  constructor(base: World) {
    this.w = { ...base };
    this.characters = new CowList(
      () => base.characters?.characters ?? [],
      (arr) => { this.file('characters').characters = arr; },
      (c) => c.id,
      (c) => ({ ...c, stats: { ...c.stats }, bdi: { ...c.bdi } }),
      entitiesById,
    );
    this.relationships = new CowList(
      () => base.relationships?.relationships ?? [],
      (arr) => { this.file('relationships').relationships = arr; },
      (r) => `${r.from}>${r.to}`,
      (r) => ({ ...r, weights: { ...r.weights } }),
      edgesByKey,
    );
    this.secrets = new CowList(
      () => base.secrets?.secrets ?? [],
      (arr) => { this.file('secrets').secrets = arr; },
      (s) => s.id,
      (s) => ({ ...s }),
      entitiesById,
    );
    this.threads = new CowList(
      () => base.threads?.threads ?? [],
      (arr) => { this.file('threads').threads = arr; },
      (t) => t.id,
      (t) => ({ ...t }),
      entitiesById,
    );
    this.ledger = new CowList(
      () => base.assets?.cash_ledger ?? [],
      (arr) => { this.file('assets').cash_ledger = arr; },
      (a) => a.id,
      (a) => ({ ...a }),
      entitiesById,
    );
  }

  /** The batch applied whole: seal the lists it copied (CowList.seal). */
  seal(): void {
    for (const l of [this.characters, this.relationships, this.secrets, this.threads, this.ledger] as CowList<object>[]) l.seal();
  }

  /** The draft's own copy of a top-level file (shallow, once). */
  file<K extends keyof World>(k: K): World[K] {
    if (!this.files.has(k)) {
      this.w[k] = { ...this.w[k] } as World[K];
      this.files.add(k);
    }
    return this.w[k];
  }

  metric(name: string) {
    return Object.hasOwn(this.w.world?.global ?? {}, name) ? this.w.world.global[name] : undefined;
  }
  writeMetric(name: string) {
    if (!this.globalCopied) {
      const wf = this.file('world');
      wf.global = { ...wf.global };
      this.globalCopied = true;
    }
    const g = this.w.world.global;
    g[name] = { ...g[name]! };
    return g[name];
  }
}
