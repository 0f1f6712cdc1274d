import type { Doc } from './parse.js';

/**
 * "Rose" right after its subject, retagged a simple past before compromise chunks the sentence. compromise tags it a
 * noun (a flower) wherever it stands, even after "He" or "the crowd": "Catiline rose, threw the fold of his toga over
 * his shoulder, and walked out" and "the whole lane rose with a roar and poured down toward the river" (held-out corpus
 * 126, du15 and du21) had no verb of rising, so neither a deed (subjects.ts) nor a crowd answering (compliance.ts) was
 * read in them. The flower keeps its tag: after a determiner or an adjective ("a rose, red as blood", "the rose of
 * Paestum", "a wild rose"), after a possessive ("Catiline's rose garden"), before a noun ("rose petals"), after a
 * preposition ("a garland of rose"), or a name of a kind after "the" ("the Paestum rose").
 */
type T = { normal?: string; tags: Set<string>; post?: string };

/** A subject "rose" may follow: a pronoun, a relative "who" or "which", a noun that is no possessive. */
function subjectBefore(prev: T | undefined, before: T | undefined): boolean {
  if (!prev || /[^\s]/.test(prev.post ?? ' ')) return false;
  if (prev.tags.has('Possessive') || prev.tags.has('Determiner') || prev.tags.has('Adjective')) return false;
  if (/^(?:who|which)$/.test(prev.normal ?? '')) return true;
  if (prev.tags.has('Pronoun')) return true;
  if (!prev.tags.has('Noun')) return false;
  // "the Paestum rose": a name before it, with only a determiner before the name, names a kind of rose.
  return !(prev.tags.has('ProperNoun') && before?.tags.has('Determiner'));
}

/** What may follow "rose" as a verb: a stop or comma, a word that is no noun, or a pronoun ("rose him" never; "rose the next day"). */
function verbAfter(self: T, next: T | undefined): boolean {
  if (/-/.test(self.post ?? '')) return false;
  if (!next || /[^\s]/.test(self.post ?? ' ')) return true;
  return !next.tags.has('Noun') || next.tags.has('Pronoun');
}

/** Retag each "rose" of the document that stands right after a subject (see above) as a simple past. */
export function retagRoseAfterSubject(doc: Doc): void {
  const view = doc as unknown as { docs: T[][]; update: (p: unknown[]) => { tag: (t: string, why: string) => void } };
  const pointers: unknown[] = [];
  view.docs.forEach((terms, n) => {
    terms.forEach((t, i) => {
      if (t.normal === 'rose' && subjectBefore(terms[i - 1], terms[i - 2]) && verbAfter(t, terms[i + 1])) pointers.push([n, i, i + 1]);
    });
  });
  if (pointers.length) view.update(pointers).tag('PastTense', 'rose-after-subject');
}
