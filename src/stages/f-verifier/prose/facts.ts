import { findMentions, type PersonIndex } from './names.js';
import { headOf } from './synonyms.js';
import { parsed } from './parse.js';

/** What a forbidden fact is about: its people and places, and the roots of its content words. */
export interface FactSignature {
  text: string;
  entities: Set<string>;
  roots: Set<string>;
}

/** Content words too common to carry a fact's predicate. */
const STOP = new Set(['have', 'make', 'take', 'give', 'know', 'come', 'thing', 'there', 'here', 'some', 'what', 'they', 'them', 'this', 'that', 'with', 'from', 'into', 'still', 'only', 'also', 'more', 'most', 'much', 'many', 'year', 'years', 'ago', 'earlier', 'first', 'back', 'down', 'state', 'fact', 'stated', 'must', 'mean', 'want', 'tell', 'tells', 'hold', 'holds', 'other']);

/** The quoted fact inside a packet constraint: `No one here knows it, so it must not be stated as fact: "…"`. */
export function quotedFact(constraint: string): string | null {
  const a = constraint.indexOf('"');
  const b = constraint.lastIndexOf('"');
  return a >= 0 && b > a + 10 ? constraint.slice(a + 1, b) : null;
}

/** Roots of nouns, verbs and adjectives (compromise's lemmatiser), lower-case, four letters or more. */
const memo = new Map<string, Set<string>>();

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
  const doc = parsed(text);
  const out = new Set<string>();
  for (const s of doc.json() as { terms: { normal: string; root?: string; tags: string[] }[] }[]) {
    for (const t of s.terms) {
      if (t.tags.some((g) => g === 'Pronoun' || g === 'Auxiliary' || g === 'Copula' || g === 'Modal' || g === 'Determiner' || g === 'ProperNoun')) continue;
      if (!t.tags.some((g) => g === 'Noun' || g === 'Verb' || g === 'Adjective')) continue;
      const r = (t.root || t.normal).replace(/[^\p{L}]/gu, '');
      const base = r.length > 4 ? r.replace(/(?:es|s)$/, '') : r;
      if (r.length >= 3 && !STOP.has(r)) out.add(headOf(base));
    }
  }
  return out;
}

/** Capitalised words after the first word that name no person: places and things (Ostia, Sardinia). */
function places(text: string, idx: PersonIndex): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<=[\s(])(\p{Lu}\p{Ll}{3,})/gu)) if (!idx.forms.has(m[1].toLowerCase())) out.push(m[1].toLowerCase());
  return out;
}

export function signature(fact: string, idx: PersonIndex): FactSignature {
  const entities = new Set([...findMentions(fact, idx).map((m) => `@${m.id}`), ...places(fact, idx)]);
  const roots = contentRoots(fact);
  for (const e of entities) roots.delete(headOf(e));
  return { text: fact, entities, roots };
}

/**
 * How well a passage matches a fact: the people and places it shares, and the content-word roots it
 * shares (paraphrase keeps the predicate's words or their inflections). Null when it shares too little.
 */
export function factMatch(passage: string, sig: FactSignature, idx: PersonIndex): { entities: number; roots: number } | null {
  const ents = new Set([...findMentions(passage, idx).map((m) => `@${m.id}`), ...places(passage, idx)]);
  const shared = [...sig.entities].filter((e) => ents.has(e)).length;
  const roots = contentRoots(passage);
  const common = [...sig.roots].filter((r) => roots.has(r)).length;
  if (common >= 2 && 1.5 * shared + common >= 4.5) return { entities: shared, roots: common };
  return null;
}
