import type { AppliedDelta, Provenance, ResolvedDelta } from '../../domain/delta.js';
import { STAT_RANGE, WEIGHT_NAMES, WEIGHT_RANGE } from '../../domain/world.js';
import type {
  Character,
  CharacterStatus,
  LedgerAccount,
  Relationship,
  Secret,
  SecretStatus,
  Thread,
  ThreadStatus,
  World,
} from '../../domain/world.js';
import { diag } from '../../diagnostics/catalog.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { round } from '../json.js';
import { checkOp, parsePath, type PathTarget } from './paths.js';

/**
 * The delta engine: applies a batch of resolved deltas to a World, transactionally and
 * immutably. The input world is never mutated; the output shares every untouched file and
 * entity with the input (copy-on-write: a touched file, its list and the touched entity are
 * copied once per batch, never per delta). A batch applies whole or not at all.
 */

export type ApplyResult =
  | { ok: true; world: World; applied: AppliedDelta[] }
  | { ok: false; diagnostics: Diagnostic[]; failedIndex: number };

const CHARACTER_STATUSES: readonly CharacterStatus[] = ['alive', 'dead', 'exiled', 'imprisoned'];
const SECRET_STATUSES: readonly SecretStatus[] = ['hidden', 'rumored', 'revealed', 'inert'];
const THREAD_STATUSES: readonly ThreadStatus[] = ['open', 'resolved', 'dormant'];
const UNIT = { min: 0, max: 1 } as const;
/** world.date's ranges, as schemas/world.schema.json declares them (year_bc 1..753: 753 BC is a.u.c. 1). */
const DATE_RANGE = { year_bc: { min: 1, max: 753 }, month: { min: 1, max: 12 }, day: { min: 1, max: 31 } } as const;

class Fail {
  constructor(readonly diagnostic: Diagnostic) {}
}
const fail = (code: string, args: Record<string, unknown>): never => {
  throw new Fail(diag(code, args));
};

/** A copy-on-write view of one list of entities inside the draft world. */
class CowList<T> {
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
class Draft {
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

function numberValue(d: ResolvedDelta): number {
  if (typeof d.value !== 'number' || !Number.isFinite(d.value)) {
    fail('AUR2022', { path: d.path, detail: `${d.op} needs a finite number, got ${JSON.stringify(d.value)}` });
  }
  return d.value as number;
}

function clamp(x: number, r: { min: number; max: number }): number {
  return Math.min(r.max, Math.max(r.min, x));
}

/** add / subtract / set / multiply on a number, clamped to the range and rounded (4 decimals). */
function numeric(d: ResolvedDelta, current: number, range: { min: number; max: number }): number {
  const v = numberValue(d);
  const cur = typeof current === 'number' && Number.isFinite(current) ? current : 0;
  let next: number;
  switch (d.op) {
    case 'add': next = cur + v; break;
    case 'subtract': next = cur - v; break;
    case 'multiply': next = cur * v; break;
    default: next = v;
  }
  if (!Number.isFinite(next)) fail('AUR2022', { path: d.path, detail: 'the result is not a finite number' });
  return round(clamp(next, range));
}

function stringValue(d: ResolvedDelta): string {
  if (typeof d.value !== 'string' || d.value === '') fail('AUR2022', { path: d.path, detail: `expected a non-empty string, got ${JSON.stringify(d.value)}` });
  return d.value as string;
}

function enumValue<T extends string>(d: ResolvedDelta, allowed: readonly T[]): T {
  const v = d.value;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    fail('AUR2022', { path: d.path, detail: `expected one of ${allowed.join(', ')}, got ${JSON.stringify(v)}` });
  }
  return v as T;
}

/** Set semantics: add is idempotent, subtract removes every occurrence. Always a new array. */
function listOp(d: ResolvedDelta, list: readonly string[] | undefined, item: string): string[] {
  const cur = list ?? [];
  if (d.op === 'add') return cur.includes(item) ? cur.slice() : [...cur, item];
  return cur.filter((x) => x !== item);
}

function whole(d: ResolvedDelta, v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    fail('AUR2022', { path: d.path, detail: `${field} must be whole, non-negative denarii, got ${JSON.stringify(v)}` });
  }
  return v as number;
}

function applyOne(draft: Draft, d: ResolvedDelta): { before: unknown; after: unknown } {
  const p = parsePath(d.path);
  if (!p.ok) throw new Fail(p.diagnostic);
  const t: PathTarget = p.target;
  const opErr = checkOp(d.path, t, d.op);
  if (opErr) throw new Fail(opErr);
  const missing = (kind: string, id: string): never => fail('AUR2023', { kind, id, path: d.path });

  switch (t.kind) {
    case 'global': {
      const m = draft.metric(t.metric) ?? missing('global metric', t.metric);
      const after = numeric(d, m.value, { min: m.min, max: m.max });
      const before = m.value;
      draft.writeMetric(t.metric).value = after;
      return { before, after };
    }
    case 'date': {
      const v = numberValue(d);
      if (!Number.isInteger(v)) fail('AUR2022', { path: d.path, detail: `a date field is a whole number, got ${v}` });
      const date = draft.w.world?.date ?? missing('world date', 'date');
      const before = date[t.field];
      const after = clamp(v, DATE_RANGE[t.field]);
      const wf = draft.file('world');
      wf.date = { ...wf.date, [t.field]: after };
      return { before, after };
    }
    case 'stat': {
      const c = draft.characters.get(t.character) ?? missing('character', t.character);
      const before = c.stats?.[t.stat];
      const after = numeric(d, before, STAT_RANGE);
      draft.characters.write(t.character)!.stats[t.stat] = after;
      return { before, after };
    }
    case 'char_status': {
      const c = draft.characters.get(t.character) ?? missing('character', t.character);
      const after = enumValue(d, CHARACTER_STATUSES);
      const before = c.status;
      draft.characters.write(t.character)!.status = after;
      return { before, after };
    }
    case 'char_location': {
      const c = draft.characters.get(t.character) ?? missing('character', t.character);
      const loc = stringValue(d);
      if (!(draft.w.world?.locations ?? []).some((l) => l.id === loc)) missing('location', loc);
      const before = c.location;
      draft.characters.write(t.character)!.location = loc;
      return { before, after: loc };
    }
    case 'bdi': {
      const c = draft.characters.get(t.character) ?? missing('character', t.character);
      const item = stringValue(d);
      const before = c.bdi?.[t.list] ?? [];
      const after = listOp(d, before, item);
      const w = draft.characters.write(t.character)!;
      w.bdi[t.list] = after;
      return { before, after };
    }
    case 'weight':
    case 'edge_flags': {
      for (const id of [t.from, t.to]) if (!draft.characters.get(id)) missing('character', id);
      if (t.from === t.to) fail('AUR2022', { path: d.path, detail: 'a relationship needs two different characters' });
      const key = `${t.from}>${t.to}`;
      // Validate the value before creating a missing edge, so a bad delta never adds one.
      if (t.kind === 'weight') numberValue(d);
      else stringValue(d);
      const existing = draft.relationships.get(key);
      const edge = existing
        ? draft.relationships.write(key)!
        : draft.relationships.push({
            from: t.from,
            to: t.to,
            weights: Object.fromEntries(WEIGHT_NAMES.map((w) => [w, 0])) as Relationship['weights'],
            flags: [],
          });
      if (t.kind === 'weight') {
        const before = existing ? existing.weights?.[t.weight] ?? 0 : 0;
        const after = numeric(d, before, WEIGHT_RANGE);
        edge.weights[t.weight] = after;
        return { before, after };
      }
      const before = existing?.flags ?? [];
      const after = listOp(d, before, stringValue(d));
      edge.flags = after;
      return { before, after };
    }
    case 'secret_status': {
      const s = draft.secrets.get(t.secret) ?? missing('secret', t.secret);
      const after = enumValue(d, SECRET_STATUSES);
      const before = s.status;
      draft.secrets.write(t.secret)!.status = after;
      return { before, after };
    }
    case 'secret_value': {
      const s = draft.secrets.get(t.secret) ?? missing('secret', t.secret);
      const before = s[t.field];
      const after = numeric(d, before, UNIT);
      draft.secrets.write(t.secret)![t.field] = after;
      return { before, after };
    }
    case 'secret_holders': {
      const s = draft.secrets.get(t.secret) ?? missing('secret', t.secret);
      const who = stringValue(d);
      if (!draft.characters.get(who)) missing('character', who);
      const before = s.holders ?? [];
      const after = listOp(d, before, who);
      draft.secrets.write(t.secret)!.holders = after;
      return { before, after };
    }
    case 'thread_progress': {
      const th = draft.threads.get(t.thread) ?? missing('thread', t.thread);
      const before = th.progress;
      const after = numeric(d, before, UNIT);
      draft.threads.write(t.thread)!.progress = after;
      return { before, after };
    }
    case 'thread_status': {
      const th = draft.threads.get(t.thread) ?? missing('thread', t.thread);
      const after = enumValue(d, THREAD_STATUSES);
      const before = th.status;
      draft.threads.write(t.thread)!.status = after;
      return { before, after };
    }
    case 'thread_last_progress': {
      const th = draft.threads.get(t.thread) ?? missing('thread', t.thread);
      const v = numberValue(d);
      if (!Number.isInteger(v) || v < 0) fail('AUR2022', { path: d.path, detail: `an episode number must be a whole number >= 0, got ${v}` });
      const before = th.last_progress_episode;
      draft.threads.write(t.thread)!.last_progress_episode = v;
      return { before, after: v };
    }
    case 'ledger': {
      const from = typeof d.from === 'string' ? d.from : fail('AUR2022', { path: d.path, detail: 'transfer needs from' });
      const to = typeof d.to === 'string' ? d.to : fail('AUR2022', { path: d.path, detail: 'transfer needs to' });
      if (from === to) fail('AUR2022', { path: d.path, detail: `transfer from '${from}' to itself` });
      const amount = whole(d, d.amount, 'amount');
      const a = draft.ledger.get(from) ?? missing('ledger account', from);
      const b = draft.ledger.get(to) ?? missing('ledger account', to);
      if (amount > a.denarii) fail('AUR2025', { amount, from, balance: a.denarii });
      const before = { [from]: a.denarii, [to]: b.denarii };
      const na = a.denarii - amount;
      const nb = b.denarii + amount;
      draft.ledger.write(from)!.denarii = na;
      draft.ledger.write(to)!.denarii = nb;
      return { before, after: { [from]: na, [to]: nb } };
    }
    case 'account': {
      const acc = draft.ledger.get(t.account) ?? missing('ledger account', t.account);
      const amount = whole(d, d.value, 'value');
      const before = acc.denarii;
      const after = d.op === 'add' ? before + amount : before - amount;
      if (after < 0) fail('AUR2026', { amount, account: t.account, balance: before });
      if (!Number.isSafeInteger(after)) fail('AUR2022', { path: d.path, detail: 'the balance exceeds the safe integer range' });
      draft.ledger.write(t.account)!.denarii = after;
      return { before, after };
    }
  }
}

/**
 * Apply a batch. On success: a new World (sharing untouched parts with the input) and one
 * AppliedDelta per delta, with provenance and before/after values. On failure: the
 * diagnostics and the index of the delta that failed; the input world is untouched.
 */
export function applyDeltas(
  world: World,
  deltas: readonly ResolvedDelta[],
  provenance: (d: ResolvedDelta, i: number) => Provenance,
): ApplyResult {
  const draft = new Draft(world);
  const applied: AppliedDelta[] = [];
  for (let i = 0; i < deltas.length; i++) {
    const d = deltas[i]!;
    let r: { before: unknown; after: unknown };
    try {
      if (d === null || typeof d !== 'object') fail('AUR2022', { path: '(delta)', detail: 'a delta must be an object' });
      r = applyOne(draft, d);
    } catch (e) {
      if (e instanceof Fail) return { ok: false, diagnostics: [e.diagnostic], failedIndex: i };
      // A malformed world (missing fields) must not crash the engine: reject the batch.
      const detail = e instanceof Error ? e.message : String(e);
      return { ok: false, diagnostics: [diag('AUR2022', { path: String(d?.path), detail })], failedIndex: i };
    }
    const a: AppliedDelta = { ...copyDelta(d), provenance: provenance(d, i), before: r.before, after: r.after };
    applied.push(a);
  }
  return { ok: true, world: draft.w, applied };
}

/** Only the ResolvedDelta fields (a caller's extra fields, e.g. application_id, are dropped). */
function copyDelta(d: ResolvedDelta): ResolvedDelta {
  const out: ResolvedDelta = { path: d.path, op: d.op };
  if (d.value !== undefined) out.value = d.value;
  if (d.from !== undefined) out.from = d.from;
  if (d.to !== undefined) out.to = d.to;
  if (d.amount !== undefined) out.amount = d.amount;
  return out;
}
