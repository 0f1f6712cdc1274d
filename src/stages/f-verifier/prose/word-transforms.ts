import nlp from 'compromise';
import { BoundedMemo } from '../../../core/bounded-memo.js';
import { transforms } from './parse.js';

/**
 * A memo of answers read from compromise's word transforms, kept while compromise stays as it is.
 * A plugin can change what a transform answers (its model merged into the conjugation tables, its
 * irregular forms written into their exceptions, its methods replacing the transforms), and every
 * plugin goes through compromise's `extend`, which gives the world a new `hooks` array each time:
 * so the memo forgets everything when `nlp.hooks()` is another array than the one it was filled
 * under, and answers are only ever remembered against the tables they were read from.
 */
export class TransformMemo<K, V> {
  private memo: BoundedMemo<K, V>;
  private hooks: unknown;

  constructor(private readonly limit: number) {
    this.memo = new BoundedMemo<K, V>(limit);
    this.hooks = nlp.hooks();
  }

  /** The value for key, computed (and remembered) on the first ask since the last plugin. */
  get(key: K, compute: (key: K) => V): V {
    const hooks = nlp.hooks();
    if (hooks !== this.hooks) {
      this.memo = new BoundedMemo<K, V>(this.limit);
      this.hooks = hooks;
    }
    return this.memo.get(key, compute);
  }
}

/**
 * compromise's toInfinitive of one word read in one tense, asked once per run (issue 18): the
 * roots bound (roots.ts: past, gerund, present) and the compliance filter (compliance.ts:
 * participle, past, present, gerund) ask it of the same token forms, ~1,100 of the ~8,800
 * transform calls of a starter episode's verification were repeats, and a call costs ~10 µs
 * (suffix-thumb looks each suffix of the word up in two tables).
 */
const byTense = new Map<string, TransformMemo<string, string>>();

export function toInfinitive(form: string, tense: string): string {
  let memo = byTense.get(tense);
  if (!memo) byTense.set(tense, (memo = new TransformMemo<string, string>(20000)));
  return memo.get(form, (f) => {
    const { tr, model } = transforms();
    return tr.verb.toInfinitive(f, snapshotModel.get('model', () => snapshot(model)), tense);
  });
}

/*
 * The model toInfinitive reads, with its four conjugation tables' look-up objects copied (issue 18).
 * suffix-thumb's convert looks every suffix of the word up with `table.hasOwnProperty(suffix)`; on
 * a fresh substring V8 leaves its fast path for that (~1 µs a look-up), while a Map's `has` hashes
 * the string in place. A copy answers `hasOwnProperty` from a Map of the same own keys and holds the
 * same values, so convert, run as published, takes the same branches; it is kept only as long as
 * no plugin was applied (TransformMemo), and a table whose keys it could not copy exactly (an own
 * `hasOwnProperty`, an accessor) is passed as it is.
 */
const snapshotModel = new TransformMemo<string, unknown>(1);
const CONJUGATIONS = ['fromParticiple', 'fromPast', 'fromPresent', 'fromGerund'];

export function snapshot(model: unknown): unknown {
  const m = model as { one?: unknown; two: { models: Record<string, Record<string, unknown>> } };
  const models = { ...m.two.models };
  for (const name of CONJUGATIONS) {
    const t = models[name];
    if (t && typeof t === 'object') models[name] = { ...t, ex: lookup(t.ex), fwd: lookup(t.fwd), both: lookup(t.both) };
  }
  return { ...m, two: { ...m.two, models } };
}

function lookup(table: unknown): unknown {
  if (!table || typeof table !== 'object') return table;
  const keys = Object.getOwnPropertyNames(table);
  const plain = keys.every((k) => k !== 'hasOwnProperty' && 'value' in (Object.getOwnPropertyDescriptor(table, k) as PropertyDescriptor));
  if (!plain || Object.getOwnPropertySymbols(table).length) return table;
  const own = new Map(keys.map((k) => [k, (table as Record<string, unknown>)[k]]));
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of own) copy[k] = v;
  Object.defineProperty(copy, 'hasOwnProperty', { value: (k: string) => own.has(k) });
  return copy;
}
