import type { FindingSpan } from '../../../domain/scene.js';
import { escapeRegExp } from '../../../core/regex.js';

/**
 * A finding's quoted span: the sentence and its line; text outside the scene (a claim, an event) has
 * line 0 and no span. With `word` (the anachronism, the sum, the name as the prose writes it), `at`
 * is where that word starts in the sentence, so the author is pointed at it rather than at the
 * sentence's start; a word not found there as a whole word leaves `at` out.
 */
export function spanOf(s: { line: number; text: string }, word?: string): FindingSpan | undefined {
  if (s.line <= 0) return undefined;
  const at = word ? wordIn(s.text, word) : -1;
  return at >= 0 ? { line: s.line, text: s.text, at } : { line: s.line, text: s.text };
}

/**
 * Where `word` starts in `text` as a whole word (case aside), or -1: the first place outside a
 * quotation, else the first inside one. The doer "Cato" of '"Crassus," Cato says' is the second name.
 */
export function wordIn(text: string, word: string): number {
  const want = word.trim();
  if (!want) return -1;
  const edge = (c: string) => /[\p{L}\p{N}]/u.test(c);
  const escaped = escapeRegExp(want);
  const re = new RegExp(`${edge(want[0]!) ? '(?<![\\p{L}\\p{N}])' : ''}${escaped}${edge(want.at(-1)!) ? '(?![\\p{L}\\p{N}])' : ''}`, 'giu');
  let inside = -1;
  for (const m of text.matchAll(re)) {
    if (!quoted(text, m.index)) return m.index;
    if (inside < 0) inside = m.index;
  }
  return inside;
}

/** Whether position `at` of `text` lies inside a quotation: straight quotes toggle, curly ones open and close. */
function quoted(text: string, at: number): boolean {
  let open = false;
  for (let i = 0; i < at; i++) {
    const c = text[i];
    if (c === '"') open = !open;
    else if (c === '“') open = true;
    else if (c === '”') open = false;
  }
  return open;
}
