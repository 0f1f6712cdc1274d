import type { Claim, FindingSpan } from '../../../domain/scene.js';
import { sentencesOf, termsOf, type TaggedTerm as Term } from '../prose/parse.js';
import { escapeRegExp } from '../../../core/regex.js';

/**
 * A claim the scene's own narration denies (prose audit, session 41, finding 8): CLAIMS says "A marble
 * bust of Catiline's father stands in Crassus' atrium, garlanded." while the scene says "The atrium is
 * bare: Crassus has never allowed a bust or statue in his house." Both cannot be canon; the scene is what
 * the audience sees, so the claim is refused (claims.ts).
 *
 * Narrow on purpose: only an explicit negation of the claim's head noun ("no bust", "not a single bust",
 * "without a bust", "never allowed a bust or statue") in narration (a character's words may lie), in the
 * claim's own place: the sentence names the claim's place ("atrium"), and a place the negation gives itself
 * is that place or the whole house ("in his house"), not another room. A claim the scene merely does not
 * mention, a sentence that negates a verb ("does not look at the bust"), "no one", or a past undone
 * ("there had been no bust until …") is no denial.
 */

const has = (t: Term, ...tags: string[]) => tags.some((g) => t.tags.includes(g));

/** Prepositions that put a thing somewhere. */
const LOCATIVE = new Set(['in', 'inside', 'at', 'on', 'within', 'beside', 'by', 'near', 'above', 'over', 'under', 'behind', 'outside', 'upon', 'against', 'before']);
/** The whole dwelling: a negation there covers each of its rooms. */
const DWELLING = new Set(['house', 'home', 'domus', 'villa', 'walls', 'here', 'household']);
/** Verbs of having or admitting a thing: "never allowed a bust", "has not kept a single statue". */
const HAVING = /^(?:allow(?:s|ed)?|permit(?:s|ted)?|kept|keeps?|ha[sd]|have|owns?|owned|hung|hangs?|display(?:s|ed)?|put|puts|set|sets|place[sd]?|stand|stands|stood|contain(?:s|ed)?|hold|holds|held)$/;
/** Words that open a negation of a thing's existence right before it. */
const NEGATOR = new Set(['no', 'not', 'never', 'without', 'nor', 'neither']);
/** Words a negation may have between it and the head noun: an article of "any", a list's "or". */
const GAP_WORD = new Set(['a', 'an', 'any', 'one', 'single', 'such', 'or', 'nor', 'and', 'other']);
/** A sentence that undoes or doubts its negation: "until that morning", "perhaps", "used to". */
const UNDONE = /\b(?:until|till|not yet|used to|perhaps|maybe|if|as if|as though|suppose|imagine|once)\b/i;

/** A name, or a word written as one: skipped as a head ("Crassus keeps a raven": the raven is the thing). */
const named = (t: Term) => has(t, 'ProperNoun', 'Pronoun', 'Possessive') || (/^\p{Lu}/u.test(t.text) && !has(t, 'Determiner', 'Adjective', 'Preposition'));

/** The last common noun of the noun phrase from `from`, and where the phrase ends. */
function headFrom(ts: readonly Term[], from: number): { head: string | null; end: number } {
  let head: string | null = null;
  let i = from;
  for (; i < ts.length; i++) {
    const t = ts[i]!;
    const afterModifier = i > from && has(ts[i - 1]!, 'Determiner', 'Adjective');
    if (has(t, 'Preposition') || (has(t, 'Verb') && (head !== null || (!afterModifier && !has(t, 'Noun'))))) break;
    if ((has(t, 'Noun') || afterModifier) && !named(t)) head = t.normal;
  }
  return { head, end: i };
}

/**
 * The claim's head noun (the thing it says is there) and its place's nouns; null when it names no place.
 * "A marble bust … stands in Crassus' atrium" → bust, atrium; "At the villa there is a bust …" → bust,
 * villa; "Crassus keeps a tame raven in his study" → raven, study.
 */
export function claimShape(text: string): { head: string; places: string[] } | null {
  const ts = termsOf(text);
  let i = 0;
  let places: string[] = [];
  if (ts[0] && LOCATIVE.has(ts[0].normal)) {
    // A fronted place ("At Villa of Crassus there is …"): its phrase, then the sentence's own subject.
    places = placesFrom(ts, 0);
    i = ts.findIndex((t, k) => k > 0 && (/[,;:]/.test(ts[k - 1]!.post) || t.normal === 'there' || (has(t, 'Verb') && !has(t, 'Noun'))));
    if (i < 0) return null;
  }
  while (ts[i] && (ts[i]!.normal === 'there' || has(ts[i]!, 'Copula'))) i++;
  let { head, end } = headFrom(ts, i);
  // A person's thing ("Crassus keeps a tame raven …"): the head is the object of the verb of having.
  if (!head && ts[end] && HAVING.test(ts[end]!.normal)) ({ head, end } = headFrom(ts, end + 1));
  if (!head) return null;
  if (!places.length) places = placesFrom(ts, end);
  return places.length ? { head, places } : null;
}

/** The nouns of the first locative phrase at or after `from` (common nouns; proper ones only when it has none). */
function placesFrom(ts: readonly Term[], from: number): string[] {
  const at = ts.findIndex((t, i) => i >= from && LOCATIVE.has(t.normal));
  if (at < 0) return [];
  const common: string[] = [];
  const proper: string[] = [];
  for (let i = at + 1; i < ts.length; i++) {
    const t = ts[i]!;
    if ((has(t, 'Preposition') && t.normal !== 'of') || (has(t, 'Verb') && !has(t, 'Noun'))) break;
    // "Villa of Crassus": the place is the villa; the owner's name after "of" is no place word.
    const owner = ts.slice(at + 1, i).some((x) => x.normal === 'of');
    if (has(t, 'Noun') && !has(t, 'Pronoun') && !has(t, 'Possessive') && !(owner && named(t))) (has(t, 'ProperNoun') ? proper : common).push(t.normal);
    if (/[,;:.!?]/.test(t.post)) break;
  }
  return common.length ? common : proper;
}

const isHead = (w: string, head: string) => w === head || w === `${head}s` || w === `${head}es`;

/** Whether the terms negate `head` at index `h`: a negator, or a negated verb of having, before it with at most three gap words. */
function negatedAt(ts: readonly Term[], h: number): boolean {
  let j = h - 1;
  for (let gap = 0; j >= 0 && gap < 3; gap++, j--) {
    const t = ts[j]!;
    if (!(GAP_WORD.has(t.normal) || (has(t, 'Adjective', 'Noun') && !has(t, 'Pronoun', 'Possessive', 'Determiner')))) break;
  }
  if (j < 0) return false;
  const w = ts[j]!;
  // "no one", "nobody" are no negation of the thing; "not a bust" is.
  if (NEGATOR.has(w.normal) && !(w.normal === 'no' && ts[j + 1]?.normal === 'one')) return true;
  if (!HAVING.test(w.normal)) return false;
  return ts.slice(Math.max(0, j - 2), j).some((t) => has(t, 'Negative') || t.normal === 'never' || t.normal === 'not');
}

/** The place a negation gives itself after the head (its clause only), as nouns; [] when it gives none. */
function ownPlace(ts: readonly Term[], h: number): string[] {
  for (let i = h + 1; i < ts.length; i++) {
    if (/[,;:.!?]/.test(ts[i - 1]!.post) || ts[i]!.normal === 'but') return [];
    if (LOCATIVE.has(ts[i]!.normal)) return placesFrom(ts, i).concat(ts[i + 1]?.normal === 'here' ? ['here'] : []);
  }
  return [];
}

/** Whether one narration sentence denies the claim in its place. */
function denies(sentence: string, shape: { head: string; places: string[] }): boolean {
  const lower = sentence.toLowerCase();
  const word = (w: string, tail = '') => new RegExp(`\\b${escapeRegExp(w)}${tail}\\b`).test(lower);
  if (!shape.places.some((p) => word(p)) || !word(shape.head, '(?:e?s)?') || UNDONE.test(sentence)) return false;
  const ts = termsOf(sentence);
  return ts.some((t, h) => {
    if (!isHead(t.normal, shape.head) || !negatedAt(ts, h)) return false;
    const own = ownPlace(ts, h);
    return !own.length || own.some((p) => shape.places.includes(p) || DWELLING.has(p));
  });
}

/** A line of speech by a cue (`> CATO:`, `**CATO:**`, `CATO:`), or a screenplay cue alone in capitals: not narration. */
const CUE_LINE = /^[ \t]*(?:>|\*\*[\p{Lu}][^*]*:?\*\*|[\p{Lu}][\p{Lu} .'’-]{1,40}(?:\([^)]*\))?[ \t]*(?::|$))/u;

/** The scene's narration sentences with their raw-file lines, each quotation blanked (what is said may lie). */
function narration(sceneText: string, firstLine: number): { line: number; text: string; sentence: string }[] {
  const out: { line: number; text: string; sentence: string }[] = [];
  let inSpeech = false;
  sceneText.split('\n').forEach((text, i) => {
    if (!text.trim()) return void (inSpeech = false);
    // A screenplay cue's speech runs to the next blank line.
    if (inSpeech || CUE_LINE.test(text)) return void (inSpeech = inSpeech || /^[ \t]*[\p{Lu}][\p{Lu} .'’-]{1,40}(?:\([^)]*\))?[ \t]*$/u.test(text));
    for (const s of sentencesOf(text.replace(/"[^"]*"|“[^”]*”/g, '"…"'))) out.push({ line: firstLine + i, text, sentence: s });
  });
  return out;
}

/** The narration sentence that denies a canon claim in its own place, or null. */
export function deniedBy(c: Claim, sceneText: string, firstLine: number): (FindingSpan & { sentence: string }) | null {
  const shape = claimShape(c.text);
  if (!shape) return null;
  const hit = narration(sceneText, firstLine).find((n) => denies(n.sentence, shape));
  return hit ? { line: hit.line, text: hit.text, sentence: hit.sentence } : null;
}
