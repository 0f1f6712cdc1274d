import { parsed, tokensOf, transforms } from './parse.js';
import { headOf } from './synonyms.js';
import { BoundedMemo } from '../../../core/bounded-memo.js';
import { toInfinitive, TransformMemo } from './word-transforms.js';

/** Content words too common to carry a fact's predicate. */
const STOP = new Set(['have', 'make', 'take', 'give', 'know', 'come', 'thing', 'there', 'here', 'some', 'what', 'they', 'them', 'this', 'that', 'with', 'from', 'into', 'still', 'only', 'also', 'more', 'most', 'much', 'many', 'year', 'years', 'ago', 'earlier', 'first', 'back', 'down', 'state', 'fact', 'stated', 'must', 'mean', 'want', 'tell', 'tells', 'hold', 'holds', 'other']);

/** A lemma as a content root: letters only, a plural ending off, its paraphrase class head; null when too short or too common. */
function asRoot(lemma: string): string | null {
  const r = lemma.replace(/[^\p{L}]/gu, '');
  const base = r.length > 4 ? r.replace(/(?:es|s)$/, '') : r;
  return r.length >= 3 && !STOP.has(r) ? headOf(base) : null;
}

/**
 * Roots per sentence, memoised; a window of two adjacent sentences (joined by U+2063) gets the
 * union of its sentences' roots, each computed once.
 */
function perSentence(of: (sentence: string) => Set<string>): (text: string) => Set<string> {
  const memo = new BoundedMemo<string, Set<string>>(5000);
  const roots = (text: string): Set<string> => {
    const parts = text.split('\u2063');
    if (parts.length > 1) return new Set(parts.flatMap((x) => [...roots(x)]));
    return memo.get(text, of);
  };
  return roots;
}

/** Roots of nouns, verbs and adjectives (compromise's lemmatiser), lower-case, three letters or more. */
export const contentRoots = perSentence(rootsOf);

function rootsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const s of parsed(text).json() as { terms: { normal: string; root?: string; tags: string[] }[] }[]) {
    for (const t of s.terms) {
      if (t.tags.some((g) => g === 'Pronoun' || g === 'Auxiliary' || g === 'Copula' || g === 'Modal' || g === 'Determiner' || g === 'ProperNoun')) continue;
      if (!t.tags.some((g) => g === 'Noun' || g === 'Verb' || g === 'Adjective')) continue;
      const r = asRoot(t.root || t.normal);
      if (r) out.add(r);
    }
  }
  return out;
}

/*
 * Which roots a text could have, without tagging it (issue 18: tagging is the prose checks' main
 * cost, and most sentences share no two roots with a given fact). compromise's root of a term
 * (compute/root.js in compromise 14) is its normal form, or one of nine functions of its
 * machine/normal/text form chosen by its tag. So the union, over every form its terms can take
 * (parse.ts tokensOf), of every branch's answer holds every root rootsOf can give:
 * a fact that cannot share enough roots with it cannot match it, and the text need not be tagged.
 */
const words = new TransformMemo<string, string[]>(20000);
const inverted = new TransformMemo<string, Record<string, string>>(1);

/**
 * compromise's toSingular, with its irregular plurals inverted once: the library inverts the
 * whole list on every call, which made it most of the bound's cost. Same order: the irregular
 * list first (inverted as the library does, a later entry winning), then its rules.
 */
function toSingular(form: string): string {
  const { tr, model } = transforms();
  const irregular = inverted.get('plurals', () => {
    const plurals = (model as { two: { irregularPlurals: Record<string, string> } }).two.irregularPlurals;
    return Object.keys(plurals).reduce<Record<string, string>>((h, k) => ((h[plurals[k]] = k), h), {});
  });
  return Object.prototype.hasOwnProperty.call(irregular, form) ? irregular[form] : tr.noun.toSingular(form, { two: { irregularPlurals: {} } });
}

/** Every root compromise's root step could give one token, whatever its tag. */
function lemmasOf(form: string): string[] {
  return words.get(form, lemmasUncached);
}

function lemmasUncached(form: string): string[] {
  const { tr, model } = transforms();
  const all = [
    form,
    form.replace(/'s$/, ''),
    toSingular(form),
    'is',
    ...['PastTense', 'Gerund', 'PresentTense'].map((t) => toInfinitive(form, t)),
    tr.adjective.fromComparative(form, model),
    tr.adjective.fromSuperlative(form, model),
    tr.adjective.fromAdverb(form),
  ];
  return [...new Set(all.filter((x): x is string => typeof x === 'string').map(asRoot).filter((x): x is string => !!x))];
}

/** A superset of contentRoots(text), read from the tokenizer alone (see above). */
export const possibleRoots = perSentence((sentence) => {
  const out = new Set<string>();
  for (const f of tokensOf(sentence).forms) for (const r of lemmasOf(f)) out.add(r);
  return out;
});
