import type { VerifyContext } from '../context.js';
import { normalizeCue } from '../dialogue.js';
import { deedOf } from './deeds.js';
import { likelyGender } from './gender.js';
import type { Reading } from './reader.js';

/**
 * Who says a line, and whom "he" or "she" means: one reading of speakers for every rule that needs
 * one (the asker of a handing in receiver.ts, the speaker of a whereabouts in spoken-whereabouts.ts).
 */

/**
 * Whether "he" or "she" can mean this person (gender.ts): "he" needs a man; "she" anyone not known
 * to be one (the corpus packets declare no gender, and women's names carry no praenomen).
 */
export function fits(id: string, pronoun: string, r: Reading, ctx: VerifyContext): boolean {
  const g = likelyGender(id, r.index, ctx);
  return pronoun.toLowerCase() === 'he' ? g === 'male' : g !== 'male';
}

/** The person a cue names: the packet's cast and dead, then the world's characters. */
export function cueId(cue: string, ctx: VerifyContext): string | undefined {
  return [...ctx.packet.cast, ...ctx.packet.dead, ...(ctx.characters ?? [])].find((c) => normalizeCue(c.cue) === cue)?.id;
}

/**
 * Who "he" or "she" at sentence `i` refers back to: the nearest earlier cue line's speaker, or the
 * nearest narration sentence's doer or its one named person (two or more named: nobody), skipping a
 * person the pronoun cannot mean (fits). Null when nobody is found.
 */
export function referent(r: Reading, i: number, pronoun: string, ctx: VerifyContext): string | null {
  for (let k = i - 1; k >= 0; k--) {
    const t = r.sentences[k];
    const cue = t.kind === 'speech' ? r.cues.get(t.line) : undefined;
    const n = t.kind === 'narration' ? r.narration.find((x) => x.line === t.line && x.text === t.text) : undefined;
    const d = n ? deedOf(n) : null;
    const ids = cue ? [cueId(cue, ctx)] : d ? [d.id] : n ? [...new Set(n.mentions.filter((m) => !hiddenFrom(n.narr, m)).map((m) => m.id))] : [];
    if (ids.length > 1) return null;
    if (ids.length === 1 && ids[0] && fits(ids[0], pronoun, r, ctx)) return ids[0];
  }
  return null;
}

/**
 * A person something is kept from ("passed along beneath the couches where Cato cannot see", "without Cato seeing",
 * "behind Cato's back", "hidden from Cato"): told of as outside what is done, so not whom the next sentence's "he" or
 * "she" means (held-out corpus 124, ds07: "He takes it without looking" is Caesar, whose hand the tablet touched).
 */
const KEPT_FROM: readonly [RegExp, RegExp][] = [
  [/\b(?:where|so that|lest|while)\s+$/i, /^\s+(?:cannot|can't|could not|couldn't|does not|doesn't|did not|didn't|will not|won't|would not|wouldn't)\s+(?:see|notice|hear|watch)\b/i],
  [/\bwithout\s+$/i, /^\s+(?:seeing|noticing|hearing|knowing)\b/i],
  [/\b(?:behind|out of|beyond)\s+$/i, /^['’]s?\s+(?:back|sight|eyes|view|reach)\b/i],
  [/\b(?:(?:hidden|kept|screened)\s+from|unseen by|unnoticed by)\s+$/i, /^/],
];
function hiddenFrom(narr: string, m: { start: number; end: number }): boolean {
  const before = narr.slice(0, m.start);
  const after = narr.slice(m.end);
  return KEPT_FROM.some(([b, a]) => b.test(before) && a.test(after));
}

/**
 * A narration sentence's subject names: the name it opens on, past a quotation it opens with ('"…" Cato does not look at
 * her.'), and any joined to it by "and" ("Cato and Caesar stand in the doorway": two subjects, so no one speaker).
 */
const OPENS_ON = /^[\s"“”'‘’…,.;:!?—–-]*$/;
const JOINED_TO_OPENING = /^[\s"“”'‘’…,.;:!?—–-]*(?:\p{Lu}[\p{L}'’]*\s+){1,3}and\s+$/u;
const opensOn = (before: string): boolean => OPENS_ON.test(before) || JOINED_TO_OPENING.test(before);

/**
 * Who says speech sentence `k`: a screenplay cue's speaker, a said-tag's name or a said-tag pronoun's
 * person (reader.ts reads the tag), by the sentence that holds the quotation; null when none is
 * found. With `beats`, a quotation with no tag is said by the one person the narration of its
 * paragraph names as a subject ('Cato does not waste a greeting. "I stood on the hill above
 * Faesulae …"': held-out corpus 63, bj16; '"I was at Faesulae …" Cato does not look at her.': 64,
 * bk16), or, alone in its paragraph, of the paragraph of narration right before it: a prose
 * convention the cue and tag readers leave unread; two such people: nobody.
 */
export function speakerOf(r: Reading, k: number, ctx: VerifyContext, beats = false): { id: string; by: 'cue' | 'tag' | 'beat' } | null {
  const t = r.sentences[k]!;
  const cue = r.cues.get(t.line);
  if (cue) {
    const id = cueId(cue, ctx);
    return id ? { id, by: 'cue' } : null;
  }
  const at = r.sentences.findIndex((x, j) => j < k && x.kind === 'narration' && x.line === t.line && x.text.includes(t.text.trim()));
  const n = at < 0 ? undefined : r.narration.find((x) => x.line === t.line && x.text === r.sentences[at]!.text);
  if (!n) return null;
  if (n.said) return { id: n.said.id, by: 'tag' };
  // Said by someone the scene does not know: not the paragraph's beat, nor whom a pronoun would carry back to.
  if (n.stranger) return null;
  if (n.pronoun) {
    const id = referent(r, at, n.pronoun, ctx);
    return id ? { id, by: 'tag' } : null;
  }
  if (!beats) return null;
  const own = r.narration.filter((x) => x.line === t.line);
  // A quotation alone in its paragraph, right after a paragraph of narration only: that paragraph's beat ('Cato stood in
  // the doorway … ¶ "I have come from Faesulae …"': held-out corpus 97, cr16).
  const before = own.every((x) => QUOTE_ONLY.test(x.narr)) ? beatBefore(r, t.line) : [];
  const subjects = new Set([...own, ...before].flatMap((x) => x.mentions.filter((m) => opensOn(x.narr.slice(0, m.start))).map((m) => m.id)));
  return subjects.size === 1 ? { id: [...subjects][0]!, by: 'beat' } : null;
}

const QUOTE_ONLY = /^\s*"…"\s*$/;
/** The paragraph right before `line` when it is narration with no quotation in it, else none. */
function beatBefore(r: Reading, line: number): Reading['narration'] {
  const prev = r.sentences.reduce((best, x) => (x.line < line && x.line > best ? x.line : best), 0);
  const para = r.narration.filter((x) => x.line === prev);
  return para.length && para.every((x) => !/["“”]/.test(x.text)) ? para : [];
}
