import { formTense, type Tense } from './tense.js';

/**
 * A list of verbs after one subject, joined by commas: "Catiline rose, threw the fold of his toga over his shoulder,
 * and walked out through the bronze doors" (held-out corpus 126, du15). Each verb of the list is the subject's, though
 * only the first stands next to the name: when the first is no deed (a word the tagger does not read as a verb, or a
 * state: "Catiline wanted no part of it, got up, and walked out"), the later ones are read for him (subjects.ts).
 * A verb the first shares its auxiliary or mood with ("had risen, thrown …", "would rise, throw …") is read by the
 * first, as before: so is a death ("died, was buried …").
 */

/** Where the list ends: a stop, a quotation, a dash (an aside or another clause). */
const LIST_END = /[;:.!?"“”—–(]/;
/** A list item's opening, after its comma: "and", "then", "and then", "but". */
const ITEM_OPENING = /^\s*(?:(?:and|but)\s+)?(?:then\s+)?/i;
/** An item with a subject of its own ("…, Crassus said, …", "…, and he…"): the list is no longer the name's. */
const OWN_SUBJECT = /^(?:he|she|it|they|I|we|you|one|someone|everyone|nobody|no one|\p{Lu}[\p{L}'’]*)\b/u;
/** A first word whose mood, time or death the later verbs share (subjects.ts MODAL and the auxiliaries). */
const SHARED_FIRST = /^(?:will|would|could|can|may|might|must|should|shall|used|did|does|do|had|has|have|was|were|is|are|am|been|being|once|died|perished|expired)$/i;
/** The first word of a text, if it is letters. */
const firstWord = (text: string): string | undefined => /^\s*([A-Za-z]+)/.exec(text)?.[1];
/**
 * Whether an item opens with a finite verb in the list's tense: a form that reads as a past or a present (formTense),
 * the first verb's when that has one. A bare word ("…, right up to the end": held-out corpus 8, t09) is no verb of the
 * list, and a list keeps its tense: "Catiline laughed at everything, …" in a present-tense scene is backstory throughout.
 */
function sameTense(item: string, first: Tense | null): boolean {
  const w = firstWord(item);
  const t = w ? formTense(w) : null;
  return t !== null && (first === null || t === first);
}
/** How many items after the first are read. */
const ITEMS = 4;

/** The later items of a verb list after a subject, each with a space before it (as the words after a name are read). */
export function laterItems(after: string): string[] {
  const first = firstWord(after);
  // A subject of its own first is a report between the name and its verb ("Varo himself, Clodius had been told, was
  // sitting in the consul's atrium": held-out corpus 88, ci09), read as before.
  if (!first || SHARED_FIRST.test(first) || OWN_SUBJECT.test(after.trimStart())) return [];
  const tense = formTense(first);
  const end = after.search(LIST_END);
  const list = end < 0 ? after : after.slice(0, end);
  const out: string[] = [];
  for (const part of list.split(',').slice(1)) {
    const item = part.replace(ITEM_OPENING, '');
    if (OWN_SUBJECT.test(item)) break;
    if (sameTense(item, tense) && !SHARED_FIRST.test(firstWord(item) ?? '')) out.push(' ' + item.trim());
    if (out.length >= ITEMS) break;
  }
  return out;
}

/** The first later item of the list that `acts` reads as a deed, sure or past ('doubtful' is none), or false. */
export function laterDeed(after: string, acts: (item: string) => boolean | 'doubtful' | 'past'): true | 'past' | false {
  for (const item of laterItems(after)) {
    const a = acts(item);
    if (a === true || a === 'past') return a;
  }
  return false;
}
