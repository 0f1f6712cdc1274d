import nlp from 'compromise';

/**
 * compromise's reading of a piece of prose, made once per distinct string. Tagging costs about half
 * a millisecond a sentence and is the prose checks' main cost (issue 18): the roots of a sentence
 * (facts.ts), its verbs (compliance.ts) and its numbers (money.ts) all read the same tagged
 * document, and a repair or a re-verify reads mostly the same sentences again. The roots are
 * computed on every document at parse time, so every reader sees the same document whichever
 * asks first.
 */
export type Doc = ReturnType<typeof nlp>;

const MAX = 4000;
const docs = new Map<string, Doc>();

/** The tagged document for this exact string (shared: readers must not change it). */
export function parsed(text: string): Doc {
  const hit = docs.get(text);
  if (hit) return hit;
  // Bounded: a long season's distinct sentences would otherwise all stay in memory.
  if (docs.size >= MAX) docs.clear();
  const doc = nlp(text);
  doc.compute('root');
  docs.set(text, doc);
  return doc;
}

/**
 * A line split into sentences by compromise's tokenizer (it knows abbreviations, quotes and
 * ellipses). Splitting needs no tagging: the tagged and the tokenized document split alike.
 */
export function sentencesOf(text: string): string[] {
  return nlp.tokenize(text).sentences().out('array') as string[];
}
