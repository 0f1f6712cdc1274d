import { findMentions, findSharedNames, type PersonIndex } from './names.js';
import { headOf } from './synonyms.js';
import { contentRoots, possibleRoots } from './roots.js';

/**
 * What a forbidden fact is about: its people and places, and the roots of its content words. A
 * person is `@id`; a name several people bear (names.ts shared) is their ids joined by `|`, and a
 * passage shares it when it names any of them.
 */
export interface FactSignature {
  text: string;
  entities: Set<string>;
  roots: Set<string>;
}

/**
 * Whether a passage's entities hold a fact's entity: one of its people, for a shared name; for a
 * word, the word alone, or inside a name of one of the fact's people (`people`, peopleOf). "Mucius"
 * of Mucius Cato is no evidence for a fact about M. Mucius Brutus.
 */
export function holds(passage: Set<string>, entity: string, people: Set<string>): boolean {
  if (passage.has(entity) || (entity.includes('|') && entity.split('|').some((x) => passage.has(x)))) return true;
  if (entity.startsWith('@')) return false;
  for (const e of passage) if (e.startsWith(`${entity}#`) && e.slice(entity.length + 1).split('|').some((x) => people.has(x))) return true;
  return false;
}

/** A fact's people, each of a shared name's bearers among them; read once per signature (bounded against every passage). */
const peopleMemo = new WeakMap<FactSignature, Set<string>>();

export function peopleOf(sig: FactSignature): Set<string> {
  let hit = peopleMemo.get(sig);
  if (!hit) peopleMemo.set(sig, (hit = new Set([...sig.entities].filter((e) => e.startsWith('@')).flatMap((e) => e.split('|')))));
  return hit;
}

/** The quoted fact inside a packet constraint: `No one here knows it, so it must not be stated as fact: "…"`. */
export function quotedFact(constraint: string): string | null {
  const a = constraint.indexOf('"');
  const b = constraint.lastIndexOf('"');
  return a >= 0 && b > a + 10 ? constraint.slice(a + 1, b) : null;
}

/** Capitalised words after the first word that name no person: places and things (Ostia, Sardinia). */
export function places(text: string, idx: PersonIndex): string[] {
  return placesAt(text, idx).map((p) => p.word);
}

/**
 * placesAt's words, and a word of a name no form resolves wherever it stands: a sentence, a quote or
 * a fact opens with its subject ("Cassia paid the divisores…", two women bear the name), where any
 * other capitalised word ("They", "There") is skipped.
 */
function placesAt(text: string, idx: PersonIndex): { word: string; at: number }[] {
  const out: { word: string; at: number }[] = [];
  const words = idx.nameWords;
  for (const m of text.matchAll(/(?<![\p{L}])(\p{Lu}\p{Ll}{3,})/gu)) {
    const w = m[1].toLowerCase();
    if (!idx.forms.has(w) && (/[\s(]/.test(text[m.index! - 1] ?? '') || words.has(w))) out.push({ word: w, at: m.index! });
  }
  return out;
}

/**
 * A passage's places, a word inside a name the passage resolves marked with that name's people
 * (`word#@id|@id`): a word of one man's name ("Mucius" of Mucius Cato) is his, not every Mucius's.
 */
function passagePlaces(passage: string, idx: PersonIndex): string[] {
  const names = [...findMentions(passage, idx).map((m) => ({ start: m.start, end: m.end, ids: [m.id] })), ...findSharedNames(passage, idx)];
  return placesAt(passage, idx).map(({ word, at }) => {
    const n = names.find((x) => x.start <= at && at < x.end);
    return n ? `${word}#${n.ids.map((id) => `@${id}`).join('|')}` : word;
  });
}

/**
 * A passage's people and places read on its whole text: each person named (a shared name: each of
 * its bearers, as it may be any of them) and each place (passagePlaces).
 */
export function passageEntities(passage: string, idx: PersonIndex): Set<string> {
  const people = [...findMentions(passage, idx).map((m) => `@${m.id}`), ...findSharedNames(passage, idx).flatMap((n) => n.ids.map((id) => `@${id}`))];
  return new Set([...people, ...passagePlaces(passage, idx)]);
}

/** A passage's people and places, kept per person index: each fact is matched against every sentence and window. */
const entityMemo = new WeakMap<PersonIndex, Map<string, Set<string>>>();

export function entitiesOf(passage: string, idx: PersonIndex): Set<string> {
  let memo = entityMemo.get(idx);
  if (!memo) entityMemo.set(idx, (memo = new Map()));
  let hit = memo.get(passage);
  if (!hit) {
    // A window's are its sentences' (each read once): no name, title or place pattern matches U+2063
    // or looks across it (a letter or white space), so none spans the join or reads it differently.
    const parts = passage.split('\u2063');
    hit = parts.length > 1 ? new Set(parts.flatMap((x) => [...entitiesOf(x, idx)])) : passageEntities(passage, idx);
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
  const people = peopleOf(sig);
  for (const e of sig.entities) if (holds(b.entities, e, people)) shared++;
  let most = 0;
  for (const r of sig.roots) if (b.could.some((c) => c.has(r))) most++;
  return most >= 2 && 1.5 * shared + most >= 4.5;
}

/** A fact's people (a shared name as one entity: its bearers joined by `|`) and places. */
function factEntities(fact: string, idx: PersonIndex): Set<string> {
  const shared = findSharedNames(fact, idx).map((n) => n.ids.map((id) => `@${id}`).join('|'));
  return new Set([...findMentions(fact, idx).map((m) => `@${m.id}`), ...shared, ...places(fact, idx)]);
}

/**
 * The roots the words of a fact's names could have, with an abbreviated praenomen before one ("Ser."
 * of "Ser. Sergius Scaurus"): a name is the fact's person, counted once as an entity, not its
 * predicate. Left in, "Sergius" of another man (Sergius Murena) would count for a fact about Ser.
 * Sergius Scaurus. (compromise tags most names ProperNoun and gives them no root; not all.)
 */
function nameRoots(fact: string, idx: PersonIndex): Set<string> {
  const out = new Set<string>();
  // Names only: a title ("the consul") keeps its word, which the prose may say of the same man.
  const names = findMentions(fact, idx).filter((m) => idx.forms.has(m.text.toLowerCase()));
  for (const n of [...names, ...findSharedNames(fact, idx)]) {
    const abbrev = /(?<![\p{L}])\p{Lu}\p{Ll}{0,2}\.\s*$/u.exec(fact.slice(0, n.start))?.[0] ?? '';
    for (const r of possibleRoots(`${abbrev}${fact.slice(n.start, n.end)}`)) out.add(r);
  }
  return out;
}

/** A signature whose roots hold every root of signature()'s, read without tagging the fact: for couldMatch only. */
export function roughSignature(fact: string, idx: PersonIndex): FactSignature {
  const entities = factEntities(fact, idx);
  const roots = new Set(possibleRoots(fact));
  for (const e of entities) roots.delete(headOf(e));
  for (const r of nameRoots(fact, idx)) roots.delete(r);
  return { text: fact, entities, roots };
}

export function signature(fact: string, idx: PersonIndex): FactSignature {
  const entities = factEntities(fact, idx);
  // A copy: the memoised roots of the fact's text stay as tagging gave them.
  const roots = new Set(contentRoots(fact));
  for (const e of entities) roots.delete(headOf(e));
  for (const r of nameRoots(fact, idx)) roots.delete(r);
  return { text: fact, entities, roots };
}

/**
 * How well a passage matches a fact: the people and places it shares, and the content-word roots it
 * shares (paraphrase keeps the predicate's words or their inflections). Null when it shares too little.
 */
export function factMatch(passage: string, sig: FactSignature, idx: PersonIndex): { entities: number; roots: number } | null {
  if (!couldMatch(passage, sig, idx)) return null;
  const people = peopleOf(sig);
  const shared = [...sig.entities].filter((e) => holds(entitiesOf(passage, idx), e, people)).length;
  const roots = contentRoots(passage.replace(SIMILE, 'like').replace(WHEN_OF_DAY, 'then'));
  const common = [...sig.roots].filter((r) => roots.has(r));
  if (common.length >= 2 && 1.5 * shared + common.length >= 4.5 && common.some((r) => !GENERIC.has(r) && !titleRoots(sig.text, idx).has(r))) {
    return { entities: shared, roots: common.length };
  }
  return null;
}

/**
 * Roots too common to be the only word of a predicate a passage shares with a fact, beside a title
 * of its people: "the consul, taking his place" or "called the consul a lodger in the city" is not
 * "murder the consul … fire the city in twelve places" (held-out corpora 16, j08, and 18, g08).
 */
const GENERIC = new Set(['place', 'city', 'time', 'day', 'night', 'man', 'house', 'word', 'way', 'hand', 'side', 'room', 'street', 'people', 'own']);
/**
 * A time of day said as when ("the letter that spoke in the Curia this morning": held-out corpus 73, bt08) is
 * the sentence's time, not the fact's "morning reception".
 */
const WHEN_OF_DAY = /\b(?:this|that|each|every|next|one|tomorrow|yesterday|the same|the next|the previous)\s+(?:morning|afternoon|evening|night)\b/giu;
/** A simile's noun ("runs from mouth to mouth like fire along a roof-beam", held-out corpus 13, n14) says nothing of the fact. */
const SIMILE = /\blike\s+(?:an?\s+)?[\p{L}-]+/giu;

/** The roots of a fact's titles for its people ("the consul"): the person again, not the predicate. Per person index and fact. */
const titleMemo = new WeakMap<PersonIndex, Map<string, Set<string>>>();

function titleRoots(fact: string, idx: PersonIndex): Set<string> {
  let memo = titleMemo.get(idx);
  if (!memo) titleMemo.set(idx, (memo = new Map()));
  let hit = memo.get(fact);
  if (!hit) {
    const titles = findMentions(fact, idx).filter((m) => !idx.forms.has(m.text.toLowerCase()));
    memo.set(fact, (hit = new Set(titles.flatMap((m) => [...possibleRoots(m.text)]))));
  }
  return hit;
}
