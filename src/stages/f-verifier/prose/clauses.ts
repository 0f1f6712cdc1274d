/**
 * Where one clause of a narration sentence ends and the next begins: a semicolon, colon, dash or
 * bracket, or a comma before a conjunction that opens a clause of its own ("…, and men come to
 * it", "…, and has not stopped"). A relative clause (", who came…") or a place in apposition
 * (", from the camp…") stays in its clause. A word that changes the tense or the truth of one
 * verb (places.ts: "come", "was"; arrivals.ts: "not") belongs to its clause, not to the sentence.
 */
const CLAUSE_BREAK = /[;:—–()]|,\s+(?=(?:and|but|because|while|though|although|yet|so|for|whereas)\b)/gi;

/** The clauses of a sentence, in order. */
export function clausesOf(narr: string): string[] {
  return narr.split(CLAUSE_BREAK);
}

/** The clause of `narr` that holds the character at `at`, with its start offset. */
export function clauseAt(narr: string, at: number): { text: string; start: number } {
  let start = 0;
  for (const m of narr.matchAll(CLAUSE_BREAK)) {
    if (m.index! >= at) return { text: narr.slice(start, m.index), start };
    start = m.index! + m[0].length;
  }
  return { text: narr.slice(start), start };
}
