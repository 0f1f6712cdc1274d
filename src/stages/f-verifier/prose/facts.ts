import { findMentions, type PersonIndex } from './names.js';
import { headOf } from './synonyms.js';
import { contentRoots, possibleRoots } from './roots.js';

/** What a forbidden fact is about: its people and places, and the roots of its content words. */
export interface FactSignature {
  text: string;
  entities: Set<string>;
  roots: Set<string>;
}

/** The quoted fact inside a packet constraint: `No one here knows it, so it must not be stated as fact: "…"`. */
export function quotedFact(constraint: string): string | null {
  const a = constraint.indexOf('"');
  const b = constraint.lastIndexOf('"');
  return a >= 0 && b > a + 10 ? constraint.slice(a + 1, b) : null;
}

/** Capitalised words after the first word that name no person: places and things (Ostia, Sardinia). */
export function places(text: string, idx: PersonIndex): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<=[\s(])(\p{Lu}\p{Ll}{3,})/gu)) if (!idx.forms.has(m[1].toLowerCase())) out.push(m[1].toLowerCase());
  return out;
}

/** A passage's people and places, kept per person index: each fact is matched against every sentence and window. */
const entityMemo = new WeakMap<PersonIndex, Map<string, Set<string>>>();

function entitiesOf(passage: string, idx: PersonIndex): Set<string> {
  let memo = entityMemo.get(idx);
  if (!memo) entityMemo.set(idx, (memo = new Map()));
  let hit = memo.get(passage);
  if (!hit) {
    // A window's are its sentences' (each read once): no name, title or place pattern matches U+2063
    // or looks across it (a letter or white space), so none spans the join or reads it differently.
    const parts = passage.split('\u2063');
    hit = parts.length > 1 ? new Set(parts.flatMap((x) => [...entitiesOf(x, idx)])) : new Set([...findMentions(passage, idx).map((m) => `@${m.id}`), ...places(passage, idx)]);
    memo.set(passage, hit);
  }
  return hit;
}

/**
 * A bound before tagging: whether a fact with these entities and roots (or fewer) could match the
 * passage, counting the roots the passage could have (roots.ts possibleRoots). False means factMatch
 * is null whatever tagging says, so the passage need not be tagged.
 */
export function couldMatch(passage: string, sig: FactSignature, idx: PersonIndex): boolean {
  return couldMatchBound(passageBound(passage, idx), sig);
}

/** What couldMatch reads of a passage: its people and places, and the roots each of its sentences could have. */
export interface PassageBound {
  entities: Set<string>;
  could: Set<string>[];
}

/** A passage's bound, read once: a scene's every sentence and window is bounded against every forbidden fact. */
export function passageBound(passage: string, idx: PersonIndex): PassageBound {
  return { entities: entitiesOf(passage, idx), could: passage.split('\u2063').map(possibleRoots) };
}

/** couldMatch on a passage's bound. */
export function couldMatchBound(b: PassageBound, sig: FactSignature): boolean {
  let shared = 0;
  for (const e of sig.entities) if (b.entities.has(e)) shared++;
  let most = 0;
  for (const r of sig.roots) if (b.could.some((c) => c.has(r))) most++;
  return most >= 2 && 1.5 * shared + most >= 4.5;
}

/** A signature whose roots hold every root of signature()'s, read without tagging the fact: for couldMatch only. */
export function roughSignature(fact: string, idx: PersonIndex): FactSignature {
  const entities = new Set([...findMentions(fact, idx).map((m) => `@${m.id}`), ...places(fact, idx)]);
  const roots = new Set(possibleRoots(fact));
  for (const e of entities) roots.delete(headOf(e));
  return { text: fact, entities, roots };
}

export function signature(fact: string, idx: PersonIndex): FactSignature {
  const entities = new Set([...findMentions(fact, idx).map((m) => `@${m.id}`), ...places(fact, idx)]);
  // A copy: the memoised roots of the fact's text stay as tagging gave them.
  const roots = new Set(contentRoots(fact));
  for (const e of entities) roots.delete(headOf(e));
  return { text: fact, entities, roots };
}

/**
 * How well a passage matches a fact: the people and places it shares, and the content-word roots it
 * shares (paraphrase keeps the predicate's words or their inflections). Null when it shares too little.
 */
export function factMatch(passage: string, sig: FactSignature, idx: PersonIndex): { entities: number; roots: number } | null {
  if (!couldMatch(passage, sig, idx)) return null;
  const shared = [...sig.entities].filter((e) => entitiesOf(passage, idx).has(e)).length;
  const roots = contentRoots(passage);
  const common = [...sig.roots].filter((r) => roots.has(r)).length;
  if (common >= 2 && 1.5 * shared + common >= 4.5) return { entities: shared, roots: common };
  return null;
}
