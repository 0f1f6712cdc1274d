import { clauseAt } from './clauses.js';
import type { ProseSentence, Reading } from './reader.js';

/*
 * Who of the cast hears a line said aloud (prose audit 2, finding 7: a secret told in the hearing of a cast member
 * who does not hold it, rules/prose-secret-heard.ts). Everyone in the cast is on stage and hears, unless the
 * narration says otherwise of them: gone before the line ("Cato has gone out to the baths"), asleep, unable to hear
 * ("out of earshot", "cannot hear"), or come in only after it ("Servilia comes in on the last words", the first word
 * of them after the line). A line whispered or said apart ("whispers to Terentia", "takes her aside", "quietly, by the
 * shrine") is heard by those its narration names beside the speaker, not by the rest of the room.
 */

/** A clause after a person's name that takes them out of hearing. */
const GONE = /^[^.;:!?]{0,40}?\b(?:leaves|left|goes out|went out|(?:has|had|is|was) gone|walks out|walked out|steps out|stepped out|slips out|slipped out|withdraws|withdrew|departs|departed|(?:is|was) (?:fast )?asleep|falls asleep|fell asleep|sleeps|slept|dozes|dozed|(?:is|was) out of (?:earshot|hearing|the room)|(?:cannot|can['’]t|could not|couldn['’]t|does not|doesn['’]t|did not|didn['’]t) hear|hears nothing|heard nothing)\b/iu;
/** A clause after a person's name that brings them in (or wakes them). */
const COMES = /^[^.;:!?]{0,40}?\b(?:comes in|came in|comes back|came back|enters|entered|arrives|arrived|returns|returned|walks in|walked in|steps in|stepped in|(?:is|was) shown in|wakes|woke|appears|appeared|joins them|joined them)\b/iu;
/** A line said apart: whispered, murmured, said aside, in someone's ear, quietly. */
const APART = /\b(?:whisper(?:s|ed|ing)?|murmur(?:s|ed|ing)?|under (?:his|her|their) breath|aside|apart|in (?:his|her) ear|out of earshot|for (?:his|her) ears only|(?:lowers|lowered|lowering|drops|dropped|dropping) (?:his|her) voice|quietly|privately|in private|too low for)\b/iu;

type Said = (s: ProseSentence, id: string) => 'gone' | 'comes' | null;

/** What a narration sentence says of a person's presence: gone, come in, or nothing. */
const presenceIn: Said = (s, id) => {
  if (s.kind !== 'narration') return null;
  const narr = s.narr ?? s.text;
  for (const m of s.mentions.filter((x) => x.id === id)) {
    const clause = clauseAt(narr, m.start);
    const after = narr.slice(m.end, clause.start + clause.text.length);
    // "out of Cato's earshot": the line is said where he cannot hear it.
    if (GONE.test(after) || (/\bout of\s*$/iu.test(narr.slice(0, m.start)) && /^['’]s?\s+(?:earshot|hearing)\b/iu.test(after))) return 'gone';
    if (COMES.test(after)) return 'comes';
  }
  return null;
};

/**
 * The cast members (of `ids`) who hear the line at sentence `k`: on stage at that point of the scene by what the
 * narration says of them, and not shut out by the line's being said apart.
 */
export function hearersOf(r: Reading, k: number, ids: readonly string[]): string[] {
  const at = r.sentences[k]!;
  const line = r.sentences.filter((s) => s.line === at.line && s.kind === 'narration');
  const apart = line.some((s) => APART.test(s.narr ?? s.text));
  return ids.filter((id) => {
    if (apart && !line.some((s) => s.mentions.some((m) => m.id === id))) return false;
    // Before the line: what the narration said of them in order (a paragraph of its own, or a sentence of the line's
    // paragraph before it that holds no quotation: "Cato walks in. \"Crassus holds…\"").
    const before = (s: ProseSentence, i: number) => s.line < at.line || (s.line === at.line && i < k && !/["“”]/u.test(s.text));
    let here = true;
    let seen = false;
    for (const [i, s] of r.sentences.entries()) {
      if (!before(s, i)) continue;
      seen ||= s.mentions.some((m) => m.id === id);
      const said = presenceIn(s, id);
      if (said) here = said === 'comes';
    }
    // The line's own paragraph after it: gone or unhearing ("…," she says; Cato is asleep by the brazier), or come in
    // on its last words.
    if (r.sentences.some((s, i) => s.line === at.line && !before(s, i) && presenceIn(s, id) !== null)) return false;
    // Named first only after the line, and then coming in: not here when it was said.
    if (!seen && r.sentences.some((s) => s.line > at.line && presenceIn(s, id) === 'comes' && !r.sentences.some((p) => p.line > at.line && p.line < s.line && p.mentions.some((m) => m.id === id)))) return false;
    return here;
  });
}
