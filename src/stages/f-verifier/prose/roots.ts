import { parsed, tokensOf, transforms } from './parse.js';
import { headOf } from './synonyms.js';

/** Content words too common to carry a fact's predicate. */
const STOP = new Set(['have', 'make', 'take', 'give', 'know', 'come', 'thing', 'there', 'here', 'some', 'what', 'they', 'them', 'this', 'that', 'with', 'from', 'into', 'still', 'only', 'also', 'more', 'most', 'much', 'many', 'year', 'years', 'ago', 'earlier', 'first', 'back', 'down', 'state', 'fact', 'stated', 'must', 'mean', 'want', 'tell', 'tells', 'hold', 'holds', 'other']);

/** A lemma as a content root: letters only, a plural ending off, its paraphrase class head; null when too short or too common. */
function asRoot(lemma: string): string | null {
  const r = lemma.replace(/[^\p{L}]/gu, '');
  const base = r.length > 4 ? r.replace(/(?:es|s)$/, '') : r;
  return r.length >= 3 && !STOP.has(r) ? headOf(base) : null;
}

const memo = new Map<string, Set<string>>();

/** Roots of nouns, verbs and adjectives (compromise's lemmatiser), lower-case, three letters or more. */
export function contentRoots(text: string): Set<string> {
  // Two adjacent sentences joined by the window: the union of their roots, each computed once.
  const parts = text.split('\u2063');
  if (parts.length > 1) return new Set(parts.flatMap((x) => [...contentRoots(x)]));
  const hit = memo.get(text);
  if (hit) return hit;
  if (memo.size > 5000) memo.clear();
  const out = rootsOf(text);
  memo.set(text, out);
  return out;
}

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
const words = new Map<string, string[]>();
let irregular: Record<string, string> | undefined;

/**
 * compromise's toSingular, with its irregular plurals inverted once: the library inverts the
 * whole list on every call, which made it most of the bound's cost. Same order: the irregular
 * list first (inverted as the library does, a later entry winning), then its rules.
 */
function toSingular(form: string): string {
  const { tr, model } = transforms();
  if (!irregular) {
    const plurals = (model as { two: { irregularPlurals: Record<string, string> } }).two.irregularPlurals;
    irregular = Object.keys(plurals).reduce<Record<string, string>>((h, k) => ((h[plurals[k]] = k), h), {});
  }
  return Object.prototype.hasOwnProperty.call(irregular, form) ? irregular[form] : tr.noun.toSingular(form, { two: { irregularPlurals: {} } });
}

/** Every root compromise's root step could give one token, whatever its tag. */
function lemmasOf(form: string): string[] {
  const hit = words.get(form);
  if (hit) return hit;
  const { tr, model } = transforms();
  const all = [
    form,
    form.replace(/'s$/, ''),
    toSingular(form),
    'is',
    ...['PastTense', 'Gerund', 'PresentTense'].map((t) => tr.verb.toInfinitive(form, model, t)),
    tr.adjective.fromComparative(form, model),
    tr.adjective.fromSuperlative(form, model),
    tr.adjective.fromAdverb(form),
  ];
  const out = [...new Set(all.filter((x): x is string => typeof x === 'string').map(asRoot).filter((x): x is string => !!x))];
  if (words.size > 20000) words.clear();
  words.set(form, out);
  return out;
}

const possible = new Map<string, Set<string>>();

/** A superset of contentRoots(text), read from the tokenizer alone (see above). */
export function possibleRoots(text: string): Set<string> {
  const parts = text.split('\u2063');
  if (parts.length > 1) return new Set(parts.flatMap((x) => [...possibleRoots(x)]));
  const hit = possible.get(text);
  if (hit) return hit;
  const out = new Set<string>();
  for (const f of tokensOf(text).forms) for (const r of lemmasOf(f)) out.add(r);
  if (possible.size > 5000) possible.clear();
  possible.set(text, out);
  return out;
}
