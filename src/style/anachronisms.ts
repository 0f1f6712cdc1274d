import { readFileSync } from 'node:fs';
import path from 'node:path';
import { stemmer } from '@orama/stemmers/english';
import { packageRoot } from '../paths.js';
import type { AnachronismHit } from './lexicon.js';

/**
 * Anachronism matching (issue 14): the curated vocabulary shipped with Aureus
 * (data/anachronisms/vocabulary.json) merged with a world's style/lexicon.md, matched word by word
 * through an English stemmer, so inflections ("policemen", "clocks", "Tuesdays") and compounds
 * ("clockwork", "paperwork", "weekly") are caught, while Roman-correct phrases that contain a
 * forbidden word ("water-clock", "a fork in the road", "a kid for the sacrifice") are not.
 */

export interface VocabularyEntry {
  term: string;
  hint: string;
  /** A set name ($number, $count, $determiner, $date): the term counts only right after one of its words. */
  after?: string;
  /** 'exact': only the capitalised spelling is the anachronism ("August", not "august"). */
  case?: 'exact';
}

export interface VocabularyRule {
  term: string;
  /** The hit is allowed when one of these words stands within six words of it. */
  near?: string[];
  after?: string;
  why: string;
}

export interface Vocabulary {
  categories: Record<string, VocabularyEntry[]>;
  rules: VocabularyRule[];
  allow: { phrase: string; why: string }[];
  sets: Record<string, string[]>;
}

export const VOCABULARY_FILE = path.join('data', 'anachronisms', 'vocabulary.json');

let shipped: Vocabulary | undefined;

/** The vocabulary shipped with Aureus, read once per process. */
export function shippedVocabulary(): Vocabulary {
  shipped ??= JSON.parse(readFileSync(path.join(packageRoot(), VOCABULARY_FILE), 'utf8')) as Vocabulary;
  return shipped;
}

interface Token {
  text: string;
  lower: string;
  stem: string;
  start: number;
  end: number;
}

/** Words with inner apostrophes (o'clock, God's) and dotted abbreviations (a.m.) as one token each. */
const WORD = /(?:\p{L}\.){2,}|[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

const stemCache = new Map<string, string>();
function stem(lower: string): string {
  let s = stemCache.get(lower);
  if (s === undefined) {
    // A possessive is its noun: "pen's" is "pen".
    const bare = lower.replace(/'s$/, '');
    s = /^[a-z]+$/.test(bare) ? stemmer(bare) : bare;
    stemCache.set(lower, s);
  }
  return s;
}

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WORD)) {
    const lower = m[0].toLowerCase().replace(/’/g, "'");
    out.push({ text: m[0], lower, stem: stem(lower), start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/**
 * Second halves that make a compound or derivation of a forbidden word still the same thing
 * (clock+work, police+men, week+ly, gun+smith). A closed list: "teach" is not "tea", "public" not "pub".
 */
const COMPOUND_HEADS = new Set(
  'work works man men woman women maker makers smith smiths shop shops fire shot shots point boat boats tower towers face faces ly lies day days end ends weight room rooms station stations box boxes hand hands boy boys girl girls back backs'.split(' '),
);
/** Compounds only from forbidden words this long: short ones hide inside ordinary words. */
const COMPOUND_MIN = 3;

interface Matcher {
  term: string;
  hint: string;
  words: string[];
  stems: string[];
  after?: Set<string>;
  /** The word it must follow is a number: quote both. */
  counted?: boolean;
  exact?: string[];
  near?: Set<string>;
}

interface Compiled {
  byFirst: Map<string, Matcher[]>;
  /** Single forbidden words by their lower-case spelling, for compound prefixes. */
  byWord: Map<string, Matcher>;
  allow: string[][];
}

const compiledCache = new WeakMap<readonly object[], Compiled>();

/** The world lexicon first (its replacement wins on the same word), then the shipped vocabulary. */
function compile(lexicon: readonly { forbidden: string; replacement: string }[], vocab: Vocabulary): Compiled {
  const set = (name?: string) => (name ? new Set((vocab.sets[name] ?? [name]).map((w) => w.toLowerCase())) : undefined);
  const rules = new Map(vocab.rules.map((r) => [tokenize(r.term).map((t) => t.stem).join(' '), r]));
  const all: { term: string; hint: string; after?: string; exact?: boolean }[] = [
    ...lexicon.map((e) => ({ term: e.forbidden, hint: e.replacement })),
    ...Object.values(vocab.categories).flatMap((c) => c.map((e) => ({ term: e.term, hint: e.hint, after: e.after, exact: e.case === 'exact' }))),
  ];
  const c: Compiled = { byFirst: new Map(), byWord: new Map(), allow: vocab.allow.map((a) => tokenize(a.phrase).map((t) => t.stem)) };
  const seen = new Set<string>();
  for (const e of all) {
    const toks = tokenize(e.term);
    if (!toks.length) continue;
    // The same words once (the lexicon's first): by spelling, not by stem, since a match must also be the
    // same word (sameWord). By stem, "electricity" hid "electric", whose stem it shares, and "electric"
    // was never found (held-out corpus 66, bm20: "The air in the passage goes electric.").
    const key = toks.map((t) => t.lower).join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    const rule = rules.get(toks.map((t) => t.stem).join(' '));
    const m: Matcher = {
      term: e.term,
      hint: e.hint,
      words: toks.map((t) => t.lower),
      stems: toks.map((t) => t.stem),
      after: set(e.after ?? rule?.after),
      counted: e.after === '$number' || e.after === '$count',
      exact: e.exact ? toks.map((t) => t.text) : undefined,
      near: rule?.near ? new Set(rule.near.map((w) => stem(w.toLowerCase()))) : undefined,
    };
    const list = c.byFirst.get(m.stems[0]!) ?? [];
    list.push(m);
    c.byFirst.set(m.stems[0]!, list);
    if (toks.length === 1 && m.words[0]!.length >= COMPOUND_MIN && /^[a-z]+$/.test(m.words[0]!)) c.byWord.set(m.words[0]!, m);
  }
  for (const list of c.byFirst.values()) list.sort((a, b) => b.stems.length - a.stems.length);
  return c;
}

function compiledFor(lexicon: readonly { forbidden: string; replacement: string }[], vocab: Vocabulary): Compiled {
  let c = compiledCache.get(lexicon);
  if (!c || vocab !== shipped) {
    c = compile(lexicon, vocab);
    if (vocab === shipped) compiledCache.set(lexicon, c);
  }
  return c;
}

/** Only spaces or hyphens between the words of a phrase ("steel-nibbed", "pocket  watch"). */
const joined = (text: string, a: Token, b: Token) => /^[\s\-‐–]*$/.test(text.slice(a.end, b.start));

/**
 * Stems collide across words ("presiding" and "president" both stem to "presid"; "admiration" and
 * "admiral" to "admir": held-out corpus 41, an16): an inflection keeps the forbidden word whole but
 * for its last letter (clocks, babies, Tuesdays, policemen) and adds at most two letters (watches,
 * pocketed), where a derived word adds more ("admiration", "hospitality") or ends as one ("admirable").
 */
const sameWord = (token: string, word: string) =>
  token.startsWith(word.slice(0, Math.max(3, word.length - 1))) && token.length <= word.length + 2 && !(DERIVED.test(token) && !DERIVED.test(word));
/** An adjective or adverb made from a word is another word: "admirable" is not "admiral" (held-out corpus 96, cq07). */
const DERIVED = /(?:ab|ib)l[ey]$/;

function phraseAt(text: string, toks: Token[], i: number, m: Matcher): number {
  for (let k = 0; k < m.stems.length; k++) {
    const t = toks[i + k];
    if (!t || t.stem !== m.stems[k] || !sameWord(t.lower, m.words[k]!) || (k > 0 && !joined(text, toks[i + k - 1]!, t))) return 0;
    if (m.exact && t.text[0] !== m.exact[k]![0]) return 0;
  }
  return m.stems.length;
}

/** A compound whose first part is a forbidden word and whose rest is a closed-list head: clock|work. */
function compoundAt(t: Token, c: Compiled): Matcher | undefined {
  for (let cut = COMPOUND_MIN; cut <= t.lower.length - 2; cut++) {
    const m = c.byWord.get(t.lower.slice(0, cut));
    if (m && !m.after && !m.exact && COMPOUND_HEADS.has(t.lower.slice(cut).replace(/^-/, ''))) return m;
  }
  return undefined;
}

/** How many words either side a "near" word of a rule may stand. */
const NEAR = 6;

/** Context that makes the word Roman: the set it must follow is absent, or a "near" word is close. */
function excused(toks: Token[], i: number, n: number, m: Matcher): boolean {
  if (m.after) {
    // Digits count as a number word: "40 minutes", "1 August".
    const prev = toks[i - 1]?.lower;
    if (prev === undefined || !(m.after.has(prev) || isDigits(prev))) return true;
  }
  if (m.near) {
    for (let k = Math.max(0, i - NEAR); k < Math.min(toks.length, i + n + NEAR); k++) if (m.near.has(toks[k]!.stem)) return true;
  }
  return false;
}

function allowedAt(toks: Token[], i: number, c: Compiled): boolean {
  for (const a of c.allow) {
    for (let s = Math.max(0, i - a.length + 1); s <= i; s++) {
      if (a.every((st, k) => toks[s + k]?.stem === st)) return true;
    }
  }
  return false;
}

const isDigits = (s: string) => /^\d[\d,.]*$/.test(s);

/**
 * Every anachronism in `text`, in text order, as the lexicon matcher reports them (word as written,
 * the entry, its replacement, line and column). `lexicon` is the world's; the shipped vocabulary is
 * merged in. Era words ("63 BC") are found by `eraHits`, which callers add where the text is in-world.
 */
export function findAnachronismsIn(text: string, lexicon: readonly { forbidden: string; replacement: string }[], vocab: Vocabulary = shippedVocabulary()): AnachronismHit[] {
  const c = compiledFor(lexicon, vocab);
  const toks = tokenize(text);
  const hits: AnachronismHit[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    let found: { m: Matcher; n: number } | undefined;
    for (const m of c.byFirst.get(t.stem) ?? []) {
      const n = phraseAt(text, toks, i, m);
      if (n && !excused(toks, i, n, m)) {
        found = { m, n };
        break;
      }
    }
    if (!found) {
      const m = compoundAt(t, c);
      if (m && !excused(toks, i, 1, m)) found = { m, n: 1 };
    }
    if (!found || allowedAt(toks, i, c)) continue;
    const end = toks[i + found.n - 1]!.end;
    // A unit is quoted with its number ("forty minutes"), the thing a writer must change.
    const start = found.m.counted ? toks[i - 1]!.start : t.start;
    if (saysTheHint(text, start, end, found.m.hint)) continue;
    hits.push(hitAt(text, start, end, found.m));
    i += found.n - 1;
  }
  return hits;
}

/**
 * Whether the words matched are inside one of the term's own Roman replacements as written
 * ("The gods know." matches "God knows" by stem, and is what its hint asks for: held-out corpus 8, t17).
 */
function saysTheHint(text: string, start: number, end: number, hint: string): boolean {
  const lower = text.toLowerCase();
  return hint.split(';').some((alt) => {
    const a = alt.trim().toLowerCase();
    if (!a) return false;
    const at = lower.lastIndexOf(a, end);
    return at >= 0 && at <= start && at + a.length >= end && !/[\p{L}\p{N}]/u.test(lower[at + a.length] ?? '') && !/[\p{L}\p{N}]/u.test(lower[at - 1] ?? '');
  });
}

/** Era and calendar notation no Roman could say: "63 BC", "AD 14", "B.C.", "anno Domini" is in the vocabulary. */
const ERA = /(?<![\p{L}\p{N}])(?:\d{1,4}\s*(?:BCE?|B\.\s?C\.(?:\s?E\.)?|AD|A\.\s?D\.|CE)(?![\p{L}\p{N}])|(?:AD|A\.D\.)\s*\d{1,4}(?![\p{N}]))/gu;

/** Era notation in `text` (to be applied to in-world text only: not to a title card or heading). */
export function eraHits(text: string): AnachronismHit[] {
  return [...text.matchAll(ERA)].map((m) => hitAt(text, m.index, m.index + m[0].length, { term: 'BC/AD dating', hint: 'in the consulship of Cicero and Antonius; the year 691 of the City' }));
}

function hitAt(text: string, start: number, end: number, m: { term: string; hint: string }): AnachronismHit {
  const before = text.slice(0, start);
  const line = before.split('\n').length;
  const column = start - before.lastIndexOf('\n');
  return { word: text.slice(start, end), forbidden: m.term, replacement: m.hint, index: start, line, column };
}
