import type { PersonIndex } from './names.js';
import { entitiesOf, holds, peopleOf, type FactSignature } from './facts.js';
import { contentRoots } from './roots.js';

/**
 * Whose a fact told in the prose is. A forbidden fact matches a passage that shares its people and
 * its predicate's words (facts.ts factMatch); these say when the predicate is told there of someone
 * else: synthetic and real worlds alike give many people the same templated secret ("X forged a
 * codicil to a kinsman's will"), and Roman names share their parts.
 */

/** What of a fact a passage says besides its people: its entities the passage holds that are no one's name ("the Senate"), and its roots the passage has. */
export function predicateSaid(passage: string, sig: FactSignature, idx: PersonIndex): string[] {
  const ents = entitiesOf(passage, idx);
  const words = idx.nameWords;
  const people = peopleOf(sig);
  const roots = contentRoots(passage);
  return [...[...sig.entities].filter((e) => !e.startsWith('@') && !words.has(e) && holds(ents, e, people)), ...[...sig.roots].filter((r) => roots.has(r))];
}

/** Whether a passage names one of a fact's people: by id, or by a word of a name the index cannot resolve ("Scaurus" of twenty men). */
export function namesPeopleOf(passage: string, sig: FactSignature, idx: PersonIndex): boolean {
  const ents = entitiesOf(passage, idx);
  const words = idx.nameWords;
  const people = peopleOf(sig);
  return [...sig.entities].some((e) => (e.startsWith('@') || words.has(e)) && holds(ents, e, people));
}

/** Whether a passage names anyone: a person, a shared name, or a word of a name the index cannot resolve ("Cassia" of two women). */
function namesSomeone(passage: string, idx: PersonIndex): boolean {
  const words = idx.nameWords;
  return [...entitiesOf(passage, idx)].some((e) => e.startsWith('@') || words.has(e.split('#')[0]));
}

/** The parts of a passage a statement stands in: each quote, and the narration around them cut at "that", a colon, a semicolon or a dash. */
function statementsOf(passage: string): string[] {
  return passage.split(/["“”\u2063]|[;:—–]|\bthat\b/).filter((x) => /\p{L}/u.test(x));
}

/**
 * Whether the predicate a passage shares with a fact is told there of someone else: one quote or
 * clause holds all of it and names a person, none of them the fact's ("Crassus lets slip that the
 * secret (\"Rufus paid the divisores\")" is Rufus's fact, not the same fact of Crassus).
 */
export function toldOfAnother(passage: string, sig: FactSignature, idx: PersonIndex): boolean {
  const said = predicateSaid(passage, sig, idx);
  return statementsOf(passage).some((st) => {
    if (!namesSomeone(st, idx) || namesPeopleOf(st, sig, idx)) return false;
    const here = new Set(predicateSaid(st, sig, idx));
    return said.every((x) => here.has(x));
  });
}
