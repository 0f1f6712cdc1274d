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
    return tr.verb.toInfinitive(f, model, tense);
  });
}

/** An infinitive's forms as compromise's conjugation tables give them ("hear": "hears", "heard", "hearing"); Participle only where it differs from the past ("seen", "written"). */
export interface Conjugation {
  Infinitive?: string;
  PresentTense?: string;
  PastTense?: string;
  Participle?: string;
  Gerund?: string;
}

const conjugations = new TransformMemo<string, Readonly<Conjugation>>(5000);

/**
 * The one conjugation of a verb the prose readers use (success-words.ts: a success verb's present, past and
 * participle; turned-failure.ts: a restricted verb's forms). Read from the tables, not by tagging the bare word: a
 * word tagged alone may come out a noun ("open", "lower", "mean", "shoot") and then has no verb to conjugate.
 */
export function conjugated(infinitive: string): Readonly<Conjugation> {
  return conjugations.get(infinitive, (inf) => {
    const { tr, model } = transforms();
    return Object.freeze({ ...tr.verb.conjugate(inf, model) }) as Conjugation;
  });
}
