import type { Character, LedgerAccount, Relationship, Secret, Thread, World } from '../../domain/world.js';
import { edgesByKey, entitiesById, noteChanges, noteCopy } from '../world-index.js';

/**
 * The draft world of one delta batch, copy-on-write: a touched file, its list and the touched
 * entity are copied once per batch, never per delta; everything untouched is shared with the input.
 */

/** A copy-on-write view of one list of entities inside the draft world. */
export class CowList<T extends object> {
  private arr: T[] | null = null;
  /** Positions in the base list found by this draft (undefined: no such entity). */
  private found = new Map<string, number | undefined>();
  /** Positions of entities pushed by this draft (they win over the base list's). */
  private pushed = new Map<string, number>();
  private copied = new Set<string>();
  constructor(
    private readonly base: () => readonly T[],
    private readonly install: (arr: T[]) => void,
    private readonly key: (t: T) => string,
    private readonly clone: (t: T) => T,
    /**
     * The first entity of each key: the lookup indexWorld memoises per list (world-index.ts), so a
     * batch builds no map of its own for a list of thousands.
     */
    private readonly lookup: (items: readonly T[]) => ReadonlyMap<string, T>,
  ) {}
  private current(): readonly T[] {
    return this.arr ?? this.base();
  }
  /**
   * The position of an entity: one the draft pushed, else the first of its key in the base list (the
   * draft's copy holds the base's entities at the same places). Found as the lookup's entity's place
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
  get(id: string): T | undefined {
    const i = this.at(id);
    return i === undefined ? undefined : this.current()[i];
  }
  /** The entity, copied into the draft on first write; undefined when it does not exist. */
  write(id: string): T | undefined {
    const i = this.at(id);
    if (i === undefined) return undefined;
    const arr = this.own();
    if (!this.copied.has(id)) {
      arr[i] = this.clone(arr[i]!);
      this.copied.add(id);
    }
    return arr[i];
  }
  /** Append a new entity (already owned by the draft). */
  push(item: T): T {
    const key = this.key(item);
    // The list's first copy is made with the new entity's place: a push onto an exact-size copy copies
    // it again to grow (issue 18: a move that opens an edge copied the world's relationships twice).
    let arr = this.arr;
    if (arr) arr.push(item);
    else arr = this.adopt(this.base().concat([item]));
    this.pushed.set(key, arr.length - 1);
    this.copied.add(key);
    return item;
  }
  /**
   * End of the batch: the list copy is sealed (world-index.ts noteChanges: it is shared with later
   * states and never edited in place, so lookups memoised over it need no element-by-element
   * check) and its changed positions noted. Not Object.freeze: V8 iterates frozen arrays 2–4×
   * slower, and every later state reads these lists.
   */
  seal(): void {
    if (!this.arr) return;
    const at: number[] = [];
    for (const id of this.copied) at.push(this.at(id)!);
    noteChanges(this.arr, at.sort((a, b) => a - b));
  }
  /** The draft's own copy of the list (made once), noted as a copy for the lookups over it. */
  private own(): T[] {
    return this.arr ?? this.adopt(this.base().slice());
  }
  /** `copy` (of the base list, perhaps with entities appended) becomes the draft's own list. */
  private adopt(copy: T[]): T[] {
    this.arr = copy;
    noteCopy(copy, this.base());
    this.install(copy);
    return copy;
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
