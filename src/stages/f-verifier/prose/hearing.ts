import { clauseAt } from './clauses.js';
import type { ProseSentence, Reading } from './reader.js';
import type { VerifyContext } from '../context.js';
import { fits, speakerOf } from './speaker.js';
import { deedOf } from './deeds.js';

/*
 * Who of the cast hears a line said aloud (prose audit 2, finding 7: a secret told in the hearing of a cast member
 * who does not hold it, rules/prose-secret-heard.ts). Everyone in the cast is on stage and hears, unless the
 * narration says otherwise of them: gone before the line ("Cato has gone out to the baths"), asleep, unable to hear
 * ("out of earshot", "cannot hear"), or come in only after it ("Servilia comes in on the last words", the first word
 * of them after the line). A line whispered or said apart ("whispers to Terentia", "takes her aside", "quietly, by the
 * shrine") is heard by the one its paragraph names beside the speaker (listenersApart), not by the rest of the room.
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

/** Words before a name that put its bearer at the speaker's side or make them the one spoken to ("beside Cato", "whispers to Terentia", "in Caesar's ear"). */
const NEAR_BEFORE = /\b(?:beside|next to|close to|closer to|near|nearer|by|to|toward|towards|into|in|at)\s+$/iu;
/** Words after a name that do so ("draws Cicero aside", "Caesar's ear", "Tertulla, at her side,", "Tertulla sits beside her", "Cato sits close beside Servilia"). */
const NEAR_AFTER = /^(?:\s+(?:aside|apart|close|closer|near)\b|['’]s?\s+(?:ear|side|shoulder|elbow)\b|[^.;:!?"…]{0,30}?(?:\b(?:beside|next to|close to|close by)\s+(?:him|her|\p{Lu}\p{Ll}+)|\bat\s+(?:his|her|\p{Lu}\p{Ll}+['’]s?)\s+(?:side|elbow)\b))/u;

/**
 * Who says a line said apart: its said-tag's person; else, in the sentence that holds it, the first person named in the
 * clause of its verb of speaking apart ("Cato sets down his cup, and Servilia leans close and whispers, '…'"), the one
 * person before it its pronoun can mean ("Cato sits beside Servilia, and she murmurs, '…'"), the paragraph's beat
 * (speaker.ts), or the sentence's doer.
 */
function apartSpeaker(r: Reading, k: number, ctx: VerifyContext): string | undefined {
  const at = r.sentences[k]!;
  // The line's words: the sentence itself, or the first quotation of a narration sentence that holds it.
  const said = at.kind === 'speech' ? k : r.sentences.findIndex((s, i) => i > k && s.line === at.line && s.kind === 'speech');
  if (said >= 0 && speakerOf(r, said, ctx)) return speakerOf(r, said, ctx)!.id;
  const holder = r.narration.find((n) => n.line === at.line && (n.text === at.text || (at.kind === 'speech' && n.text.includes(at.text.trim()))));
  const verb = holder ? APART.exec(holder.narr) : null;
  if (holder && verb) {
    const clause = clauseAt(holder.narr, verb.index);
    const inClause = holder.mentions.find((m) => m.start >= clause.start && m.end <= verb.index && !NEAR_BEFORE.test(holder.narr.slice(0, m.start)));
    if (inClause) return inClause.id;
    const pronoun = /\b(he|she)\s+(?:\p{L}+ly\s+)?$/iu.exec(holder.narr.slice(0, verb.index))?.[1];
    const fit = pronoun ? [...new Set(holder.mentions.filter((m) => m.end <= verb.index).map((m) => m.id))].filter((id) => fits(id, pronoun, r, ctx)) : [];
    if (fit.length === 1) return fit[0];
  }
  return (said >= 0 ? speakerOf(r, said, ctx, true)?.id : undefined) ?? (holder ? deedOf(holder)?.id : undefined);
}

/**
 * Who hears a line said apart with no one else told of (prose audit: "She leans close and whispers, '…'"): the one
 * person its paragraph names besides the speaker; of several, the one it puts beside the speaker or speaks to; else
 * nobody in particular, not the whole room. A paragraph that names no one but the speaker leaves it to the paragraph
 * before ("Tertulla sits beside her mother. ¶ Servilia leans close and whispers…").
 */
function listenersApart(r: Reading, k: number, ctx: VerifyContext): Set<string> {
  const at = r.sentences[k]!;
  const speaker = apartSpeaker(r, k, ctx);
  const cast = new Set(ctx.packet.cast.map((c) => c.id));
  const near = (paragraph: number): string[] | null => {
    const ss = r.narration.filter((n) => n.line === paragraph);
    const named = [...new Set(ss.flatMap((n) => n.mentions.map((m) => m.id)))].filter((id) => id !== speaker && cast.has(id));
    if (named.length <= 1) return named.length ? named : null;
    const close = named.filter((id) => ss.some((n) => n.mentions.some((m) => m.id === id && (NEAR_BEFORE.test(n.narr.slice(0, m.start)) || NEAR_AFTER.test(n.narr.slice(m.end))))));
    return close.length === 1 ? close : [];
  };
  const before = r.sentences.reduce((best, s) => (s.line < at.line && s.line > best ? s.line : best), 0);
  return new Set(near(at.line) ?? (before > 0 ? near(before) : null) ?? []);
}

/**
 * The cast members (of `ids`) who hear the line at sentence `k`: on stage at that point of the scene by what the
 * narration says of them, and not shut out by the line's being said apart.
 */
export function hearersOf(r: Reading, k: number, ids: readonly string[], ctx: VerifyContext): string[] {
  const at = r.sentences[k]!;
  const line = r.sentences.filter((s) => s.line === at.line && s.kind === 'narration');
  const apart = line.some((s) => APART.test(s.narr ?? s.text)) ? listenersApart(r, k, ctx) : null;
  return ids.filter((id) => {
    if (apart && !apart.has(id)) return false;
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
