import type { Mention } from './names.js';
import type { Narration } from './deeds.js';
import { FRAME } from './clause-doers.js';
import { LONG_PAST } from './tense.js';

/**
 * Someone shown arriving by being named as who has come, not by a verb of their own (session 41's audit, finding 2):
 * "The door to the atrium opens, and it is Catiline.", "The figure in the doorway is Catiline.", "The door opens.
 * Catiline." The name is the predicate of "is", or a sentence alone, so the subject reader (subjects.ts) finds no deed;
 * yet the person is on stage, and a "he" right after is that person (pronoun-doer.ts). Read only at an entrance told in
 * the same sentence before the name or in the sentence before it in its paragraph (a door, a curtain, footsteps, someone
 * coming in), or for a figure placed here ("the figure in the doorway"); never in a question, a memory, a dream or a
 * report. "It is Catiline who holds the notes" is a cleft (plain-order.ts), "It is Catiline's" a possessive: neither.
 */

/** An entrance: a door or curtain opening, footsteps or a knock, someone or a figure coming in or appearing. */
const ENTRANCE = /\b(?:(?:door|doors|curtain|curtains|gate|hangings?|shutters?)\b[^.;!?]{0,40}?\b(?:opens?|opened|swings?|swung|parts?|parted|creaks?|creaked|bangs?|banged|is (?:drawn|pulled) (?:back|aside)|lifts?|lifted|moves?|moved)|footsteps?|a knock|knocking|(?:someone|somebody|a (?:figure|man|woman|shape|shadow|visitor))\b[^.;!?]{0,40}?\b(?:comes?|came|enters?|entered|steps?|stepped|appears?|appeared|is (?:standing|coming))|(?:a|the) (?:figure|shape|shadow|silhouette) (?:fills?|filled|darkens?|darkened|stands?|stood|appears?|appeared) in)\b/i;
/** Where the name ends an identification: the clause's end. */
const ENDS = String.raw`\s*(?:,\s*(?:himself|herself)\b)?\s*(?:[.!…,;:—–]|$)`;
/** "it is" or "it's" (in a scene told in the past, "it was"), at a clause's start, right before the name. */
const IT_IS = /(?:^|[,;:—–]\s*|\b(?:and|but|then|so)\s+)(?:it\s+is|it['’]s)\s+$/i;
const IT_WAS = /(?:^|[,;:—–]\s*|\b(?:and|but|then|so)\s+)it\s+was\s+$/i;
/**
 * "The figure in the doorway is", "the man at the curtain was", "the one standing by the brazier is": a person-noun placed
 * here by a place phrase or a participle of being there, right before the name. Not a likeness ("the man in the portrait").
 */
const FIGURE_IS = /(?:^|[,;:—–]\s*|\b(?:and|but|then)\s+)(?:the|a)\s+(?:figure|man|woman|shape|shadow|silhouette|visitor|newcomer|caller|stranger|one|rider)\s+(?:(?:in|at|on|by|under|beside|near|behind|inside|outside|framed in|standing|waiting|leaning|lingering)\b[^.;!?,]{0,50}?\s+)(?:is|was)\s+$/i;
const LIKENESS = /\b(?:portrait|painting|picture|bust|statue|mask|fresco|mosaic|relief|coin|mirror|dream|memory|letter|story)\b/i;
/** A sentence that is a name alone, after its opening word at most ("Catiline.", "Then: Catiline, wet to the skin."). */
const ALONE_BEFORE = /^\s*(?:(?:and|then|now)\s*[:,—–]?\s*)?$/i;
const ALONE_AFTER = /^\s*(?:himself|herself)?\s*(?:[.!…]+|,[^.;!?]{0,40}[.!…]*)\s*$/i;

/** A question, a memory, a dream or a report, or a time long past ("years ago the door opened and it was Catiline"). */
const framed = (n: Narration) => n.narr.includes('?') || FRAME.test(n.narr) || LONG_PAST.test(n.narr);

/** The entrance told before `at` in this sentence, or in the sentence before it in the same paragraph. */
function atEntrance(n: Narration, at: number): boolean {
  if (ENTRANCE.test(n.narr.slice(0, at))) return true;
  const p = n.prev;
  return !!p && p.line === n.line && !p.elsewhere && !p.imagined && !framed(p) && ENTRANCE.test(p.narr);
}

/** The person this narration sentence shows arriving by naming them (see above), or null. */
export function identifiedHere(n: Narration): Mention | null {
  if (n.imagined || n.said || n.pronoun || framed(n)) return null;
  for (const m of n.mentions) {
    const before = n.narr.slice(0, m.start);
    const after = n.narr.slice(m.end);
    if (/^['’]/.test(after)) continue;
    const ends = new RegExp(`^${ENDS}`, 'i').test(after);
    if (ends && (n.past ? IT_WAS : IT_IS).test(before) && atEntrance(n, m.start)) return m;
    if (ends && FIGURE_IS.test(before) && !LIKENESS.test(before) && /\bwas\s+$/i.test(before) === !!n.past) return m;
    if (ALONE_BEFORE.test(before) && ALONE_AFTER.test(after) && atEntrance(n, 0)) return m;
  }
  return null;
}
