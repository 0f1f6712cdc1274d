import nlp from 'compromise';
import { BoundedMemo } from '../../../core/bounded-memo.js';
import { asideJoined } from './aside-questions.js';
import { tagJoined } from './tag-joined.js';
import { retagRoseAfterSubject } from './misread-pasts.js';

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
const docs = new BoundedMemo<string, Doc>(MAX);

/**
 * As nlp() makes it, but with "rose" after its subject retagged a past before the chunker reads the tags
 * (misread-pasts.ts): verbs() reads the chunks.
 */
function tag(text: string): Doc {
  if (!text || !/\brose\b/i.test(text)) {
    const doc = nlp(text);
    doc.compute('root');
    return doc;
  }
  const doc = tagsOnly(text, false);
  doc.compute(['chunks', 'root']);
  return doc;
}

/** The tagged document for this exact string (shared: readers must not change it). */
export function parsed(text: string): Doc {
  return docs.get(text, tag);
}

/** One word of compromise's reading of a text, as its `json()` gives it (`pre`/`post`: the spacing and punctuation around it). */
export interface TaggedTerm {
  text: string;
  normal: string;
  tags: string[];
  pre: string;
  post: string;
}

const termLists = new BoundedMemo<string, readonly TaggedTerm[]>(MAX);

/**
 * The words of a text in order, across its sentences, each with its tags: made once per distinct string, as the
 * document is (`json()` builds a fresh object per word, and the beat readers ask again for every sentence and every
 * failing beat). Shared: readers must not change the list or its terms.
 */
export function termsOf(text: string): readonly TaggedTerm[] {
  return termLists.get(text, (t) =>
    (parsed(t).json() as { terms: Partial<TaggedTerm>[] }[]).flatMap((sentence) =>
      sentence.terms.map((w) => ({ text: w.text ?? '', normal: w.normal ?? '', tags: w.tags ?? [], pre: w.pre ?? '', post: w.post ?? '' })),
    ),
  );
}

let lexicon: Record<string, string | string[]> | null = null;
/**
 * Whether compromise's own lexicon gives a lower-case word this tag ("Actor", "Adjective", "PastTense"): a look-up, no
 * tagging (issue 18), for a word read outside a sentence (tense.ts, titles.ts).
 */
export function lexiconTagged(word: string, tag: string): boolean {
  return lexiconTags(word).includes(tag);
}

/** The tags compromise's own lexicon gives a lower-case word; none for a word it does not know ("plautius"). */
export function lexiconTags(word: string): readonly string[] {
  lexicon ??= (nlp.model() as unknown as { one: { lexicon: Record<string, string | string[]> } }).one.lexicon;
  const t = Object.prototype.hasOwnProperty.call(lexicon, word) ? lexicon[word] : undefined;
  return t === undefined ? [] : Array.isArray(t) ? t : [t];
}

type View = new (document: unknown) => Doc;
type FromString = (text: string, world: unknown) => unknown;

/** The first number a text says, in digits or words ("three", "forty-five thousand"), as compromise reads it; undefined if none. */
export function numberIn(text: string): number | undefined {
  return (parsed(text).numbers().json() as { number?: { num?: number } }[])[0]?.number?.num;
}

/**
 * The tags of this exact string, for a reader of tags alone (subjects.ts): the shared document when
 * there is one, else a fresh one, not kept (the shared ones must all carry roots and chunks). It is
 * made as nlp() makes it (the View over the tokenizer's document, then every compute hook in order)
 * but for the last hook, 'chunks', and without roots: in compromise 14 the chunker only sets
 * term.chunk (its match rules carry a chunk, never a tag or an unTag) and the root step only sets
 * term.root, so every term's text and tags are those parsed() would give ("rose" after its subject retagged a past, as
 * parsed() does: misread-pasts.ts). `shared`: false to make a fresh one even when parsed() holds one (parsed() itself).
 */
export function tagsOnly(text: string, shared = true): Doc {
  const hit = shared ? docs.peek(text) : undefined;
  if (hit) return hit;
  const world = nlp.world() as unknown as { hooks: string[] };
  const doc = tokenizerDoc(text, world);
  doc.compute(world.hooks.filter((h) => h !== 'chunks'));
  retagRoseAfterSubject(doc);
  return doc;
}

/** The View over the tokenizer's document of `text`, before any compute hook: what nlp() starts from. */
function tokenizerDoc(text: string, world: unknown): Doc {
  const View = nlp('').constructor as unknown as View;
  const fromString = (nlp.methods() as unknown as { one: { tokenize: { fromString: FromString } } }).one.tokenize.fromString;
  return new View(fromString(text, world));
}

/*
 * What a text's terms can look like once tagged, read from the tokenizer alone (issue 18: a
 * sentence that cannot hold a word a check looks for is not tagged). Tagging (compromise 14)
 * changes the tokenizer's terms only by splitting a contraction ("he's", "she'd", "ain't": a term
 * with an apostrophe) into its first part and some of IMPLIED; every other field a reader uses is
 * computed from a term's forms.
 */
/** The words compromise's contraction-two step can add ("'s" → is/has, "'d" → would/had/did, "ain't", "let's"). */
const IMPLIED = ['us', 'are', 'has', 'is', 'have', 'not', 'am', 'did', 'had', 'would'];

export interface Tokens {
  /** Every form a term may have: machine, implicit, normal and lower-cased text, a contraction's first part. */
  forms: Set<string>;
  /** True when every term but the last is followed by white space: no phrase's text runs two terms together. */
  spaced: boolean;
}

export type Term = { text?: string; normal?: string; machine?: string; implicit?: string; pre?: string; post?: string };
const tokenMemo = new BoundedMemo<string, Tokens>(MAX);

/** The forms of some tokenized terms (see above). */
export function tokensFrom(terms: Term[]): Tokens {
  const forms = new Set<string>();
  for (const t of terms) {
    const normal = t.normal ?? '';
    // contraction-two splits only a term whose normal form holds an apostrophe.
    if (/['’]/.test(normal)) for (const w of IMPLIED) forms.add(w);
    const machine = normal.replace(/['’]s$/, '').replace(/s['’]$/, 's').replace(/([aeiou][ktrp])in'$/, '$1ing').replace(/-/g, '').replace(/^[#@]/, '');
    for (const f of [t.machine, t.implicit, normal, (t.text ?? '').toLowerCase(), normal.split(/['’]/)[0], machine]) if (f) forms.add(f);
  }
  return { forms, spaced: terms.slice(0, -1).every((t) => /\s/.test(t.post ?? '')) };
}

export function tokensOf(text: string): Tokens {
  return tokenMemo.get(text, (t) => tokensFrom((tokenized(t) as unknown as { docs: Term[][] }).docs.flat()));
}

/**
 * nlp.tokenize(text), without its second normalisation: the tokenizer (fromString) already sets
 * each term's normal form from its text, and nlp.tokenize's 'normal' step sets it again, by the same
 * function of the same text (no step before it changes a term's text): a fifth of tokenizing a line
 * (issue 18, eleventh pass). Made as tagsOnly makes its document; an empty text as nlp.tokenize.
 */
export function tokenized(text: string): Doc {
  const world = nlp.world() as unknown as { compute: Record<string, unknown> };
  if (!text || !world.compute.contractions) return nlp.tokenize(text);
  const doc = tokenizerDoc(text, world);
  doc.compute(['alias', 'machine', 'contractions']);
  return doc;
}

type Splitter = (text: string, world: unknown) => string[];

/**
 * A line split into sentences by compromise's tokenizer (it knows abbreviations, quotes and
 * ellipses). Splitting needs no tagging: the tagged and the tokenized document split alike, and a
 * document's own sentences are what .sentences() would select. Each sentence's tokens are kept
 * for tokensOf when tokenizing the sentence alone would split the same words: its text is one
 * chunk for the sentence splitter, the line's chunk up to white space at its ends (terms split
 * only at white space, which goes to a term's pre or post).
 */
export function sentencesOf(text: string): readonly string[] {
  return lines.get(text, splitLine);
}

/**
 * sentencesOf's answers by line: a scene's claims and events mostly repeat its narration's lines,
 * and a repair or re-verify reads the same lines again (~15% of a fresh offline episode's lines are
 * repeats). Frozen, as every caller shares one answer.
 */
const lines = new BoundedMemo<string, readonly string[]>(MAX);

function splitLine(text: string): readonly string[] {
  const doc = tokenized(text);
  const split = (nlp.methods() as unknown as { one: { tokenize: { splitSentences: Splitter } } }).one.tokenize.splitSentences;
  const world = nlp.world();
  const chunks = split(text, world);
  const docs = (doc as unknown as { docs: Term[][] }).docs;
  if (chunks.length === docs.length) {
    docs.forEach((terms, i) => {
      const s = terms.reduce((str, t) => str + (t.pre ?? '') + (t.text ?? '') + (t.post ?? ''), '').trim();
      if (tokenMemo.has(s)) return;
      const alone = split(s, world);
      if (alone.length === 1 && alone[0].trim() === chunks[i].trim()) tokenMemo.set(s, tokensFrom(terms));
    });
  }
  return Object.freeze(tagJoined(asideJoined((doc.out('array') as string[]).flatMap(endsWithin))));
}

/**
 * The sentences inside one that compromise keeps whole. A full stop after an English word it keeps as an
 * abbreviation ("lit." as in literature, "fig." as in figure), before a capital: "The lamps are lit. Terentia slips
 * in…" was one sentence, and Terentia no subject (session 21's paraphrase tests); lowercase only, so "Gen." or "Col."
 * before a name stays a title. And a quotation closed by its own full stop or "!" before a capital: compromise reads
 * '"You came." Catiline steps out from behind the shrine' as one sentence, and every reader then took the name for a
 * said-tag's (held-out corpus 82, cc19). A question mark is left: '"Well?" Crassus asks' is a said-tag.
 */
export const endsWithin = (sentence: string): string[] => sentence.split(WORD_NOT_ABBREVIATION).flatMap((t) => t.split(QUOTE_ENDED));
const WORD_NOT_ABBREVIATION = /(?<=\b(?:lit|fig|arc|vet|temp)\.)\s+(?=\p{Lu})/u;
const QUOTE_ENDED = /(?<=[.!…]["”])\s+(?=\p{Lu})/u;

type Transform = {
  verb: { toInfinitive: (s: string, m: unknown, tense: string) => string; conjugate: (s: string, m: unknown) => Record<string, string | undefined> };
  noun: { toSingular: (s: string, m: unknown) => string };
  adjective: { fromComparative: (s: string, m: unknown) => string; fromSuperlative: (s: string, m: unknown) => string; fromAdverb: (s: string) => string };
};

/** compromise's own word transforms (the ones its root step and verb parser call) and its model. */
export function transforms(): { tr: Transform; model: unknown } {
  return { tr: (nlp.methods() as unknown as { two: { transform: Transform } }).two.transform, model: nlp.model() };
}
