import type { Character, LedgerAccount, Relationship, Secret, Thread, World } from '../../domain/world.js';

/**
 * The draft world of one delta batch, copy-on-write: a touched file, its list and the touched
 * entity are copied once per batch, never per delta; everything untouched is shared with the input.
 */

/** A copy-on-write view of one list of entities inside the draft world. */
export class CowList<T> {
  private arr: T[] | null = null;
  private pos: Map<string, number> | null = null;
  private copied = new Set<string>();
  constructor(
    private readonly base: () => readonly T[],
    private readonly install: (arr: T[]) => void,
    private readonly key: (t: T) => string,
    private readonly clone: (t: T) => T,
  ) {}
  private current(): readonly T[] {
    return this.arr ?? this.base();
  }
  private index(): Map<string, number> {
    if (!this.pos) {
      this.pos = new Map();
      this.current().forEach((t, i) => {
        const k = this.key(t);
        if (!this.pos!.has(k)) this.pos!.set(k, i);
      });
    }
    return this.pos;
  }
  get(id: string): T | undefined {
    const i = this.index().get(id);
    return i === undefined ? undefined : this.current()[i];
  }
  /** The entity, copied into the draft on first write; undefined when it does not exist. */
  write(id: string): T | undefined {
    const i = this.index().get(id);
    if (i === undefined) return undefined;
    if (!this.arr) {
      this.arr = this.base().slice();
      this.install(this.arr);
    }
    if (!this.copied.has(id)) {
      this.arr[i] = this.clone(this.arr[i]!);
      this.copied.add(id);
    }
    return this.arr[i];
  }
  /** Append a new entity (already owned by the draft). */
  push(item: T): T {
    if (!this.arr) {
      this.arr = this.base().slice();
      this.install(this.arr);
    }
    this.index().set(this.key(item), this.arr.length);
    this.arr.push(item);
    this.copied.add(this.key(item));
    return item;
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
    );
    this.relationships = new CowList(
      () => base.relationships?.relationships ?? [],
      (arr) => { this.file('relationships').relationships = arr; },
      (r) => `${r.from}>${r.to}`,
      (r) => ({ ...r, weights: { ...r.weights } }),
    );
    this.secrets = new CowList(
      () => base.secrets?.secrets ?? [],
      (arr) => { this.file('secrets').secrets = arr; },
      (s) => s.id,
      (s) => ({ ...s }),
    );
    this.threads = new CowList(
      () => base.threads?.threads ?? [],
      (arr) => { this.file('threads').threads = arr; },
      (t) => t.id,
      (t) => ({ ...t }),
    );
    this.ledger = new CowList(
      () => base.assets?.cash_ledger ?? [],
      (arr) => { this.file('assets').cash_ledger = arr; },
      (a) => a.id,
      (a) => ({ ...a }),
    );
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
