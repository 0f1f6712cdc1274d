/**
 * A question asked in an aside between dashes or brackets, inside a statement: "Cato — who else? — is on the quay",
 * "Murena (of all men!) waits at the door". The sentence says what happens; the aside only comments on who does it.
 * The sentence splitter cut such a sentence at the question mark ("Cato — who else?" / "— is on the quay."), and
 * the deed readers pass over any narration with a question mark in it (a real question: "Does Cato come?"), so the
 * name was no one's subject and a dead man stood on the quay unseen (session 43's audit).
 */

/**
 * A dash or an opening bracket, the aside's words (no stop, no quotation), its "?" or "!", the matching close. The
 * aside opens in lower case: "— Cato's? —" or "(Murena?)" doubts who it is, and so does an aside of doubt ("— could
 * it be? —", "— or was it? —"; not "— who could stop him? —", which doubts nothing). Those keep their mark, and the
 * sentence stays a question no deed is read in.
 */
const ASIDE_ASKED = /(—|–|--|\()(\s*(?!(?:[^—–()?!]*\b(?:(?:could|can|might|may|must)\s+(?:it|that|this|he|she)\s+be|or|surely|really|possibly|perhaps|was it|is it|was that|is that|was he|is he|was she|is she)\b))\p{Ll}[^—–()?!.;:"“”]{0,59}?)[?!]+(\s*)(?=—|–|--|\))/gu;

/** The narration with each aside's own question or exclamation mark taken off, for reading only (spans quote the text). */
export const asideUnasked = (narr: string): string => (/[?!]\s*(?:—|–|--|\))/.test(narr) ? narr.replace(ASIDE_ASKED, '$1$2$3') : narr);

/** Whether a sentence cut after a question or an exclamation runs on in the next: it opens with the aside's closing dash. */
const RUNS_ON = /^(?:—|–|--)\s*\p{Ll}/u;

/** Sentences with an aside's question put back together ("Cato — who else?" and "— is on the quay." are one). */
export function asideJoined(sentences: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of sentences) {
    const last = out.at(-1);
    if (last !== undefined && /[?!]$/.test(last) && RUNS_ON.test(s) && /(?:—|–|--)[^—–]*[?!]$/.test(last)) out[out.length - 1] = `${last} ${s}`;
    else out.push(s);
  }
  return out;
}
