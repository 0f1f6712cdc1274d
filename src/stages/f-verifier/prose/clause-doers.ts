import type { Mention } from './names.js';
import type { Narration } from './deeds.js';
import { pastParenthetical, subjectVerb, type Subject } from './subjects.js';
import { LYING_DEED } from './bodies.js';

/**
 * Doers beyond a sentence's first (held-out corpus 2, x13): deedOf reads one doer per sentence,
 * the first name in a subject slot with a present deed, so "Clodius reads on, even when Catiline
 * leans over his shoulder" never reaches Catiline. Here every other name is read as the subject of
 * its own clause: a coordinated one (the subject slots subjects.ts knows), a subordinate one
 * ("because", "although", "until", "after"…), or a relative clause on it (", who leans in").
 * Only the presence rules ask, for the dead, and only after the first doers are judged: a person
 * already found keeps that finding, so this adds findings, never moves one. Kept strict (precision before
 * recall): a frame of memory, dream, report or condition anywhere before the name, a future or
 * habit in the sentence, or a verb of saying, thinking or lying dead reads as no deed here.
 */

/** Subordinating words after which a name starts its own clause (when/while are subject slots already). */
const OPENER = /\b(?:as|after|before|because|although|though|until|till|once|since)\s+$/i;
/** A relative clause on a name: "Catiline, who leans in". */
const RELATIVE = /^\s*,\s*who\s+/i;
/** Words that make what follows remembered, dreamed, reported, spoken of or hypothetical. */
export const FRAME = /\b(?:remember\w*|recall\w*|recollect\w*|dream\w*|imagin\w*|pictur\w*|memor\w*|think\w* (?:of|back|about)|thought (?:of|back|about)|fanc\w*|ghost|shade|spirit|as if|as though|if|unless|letter|message|rumou?r|story|stories|tales?|tells?|told|hears?|heard|news|word (?:of|from)|(?:speak|talk|ask)(?:s|ed|ing)? (?:of|about|after)|spoke (?:of|about)|says|said)\b/i;
/** A future, a condition or a habit in the sentence: the deed is not happening here and now. */
const NOT_NOW = /\b(?:will|would|shall|should|could|might|may|must|can|cannot|can't|won't|wouldn't|always|never|usually|often|every time|whenever|used to|once again|no longer)\b/i;
/** Verbs that are no deed on stage: saying, writing or thinking (a quotation), a state, lying dead. */
const NO_DEED = /^\s*(?:\w+ly\s+)?(?:says|writes|thinks|believes|knows|claims|argues|insists|holds|wants|wishes|hopes|fears|likes|puts it|lies|rests|sleeps|haunts|remains|stands (?:accused|condemned|charged|outlawed|convicted)|waits? (?:in|at) (?:his|the) (?:grave|tomb))\b/i;

/** Whether these words begin with a verb that is no deed; telling lies or lying in wait is one (bodies.ts). */
const noDeedHere = (s: string) => NO_DEED.test(s) && !LYING_DEED.test(s);

/** Whether the words after a name or a pronoun begin with a verb that is no deed, there or past an aside on it (subjects.ts). */
export function noDeed(after: string): boolean {
  return noDeedHere(after) || noDeedHere(pastParenthetical(after));
}

/** The subject reading of one mention on its own: as its clause's subject, else as the antecedent of a relative clause. */
function asSubject(n: Narration, m: Mention): Subject | null {
  const before = n.narr.slice(0, m.start);
  if (FRAME.test(before)) return null;
  const after = n.narr.slice(m.end);
  const own = noDeed(after) ? null : ownClause(n, m, before);
  if (own?.sure || !RELATIVE.test(after)) return own;
  // "Catiline, who leans in": the relative clause's verb is his deed ("who had died" is none).
  const rest = after.replace(RELATIVE, ' ');
  const rel = noDeed(rest) ? null : subjectVerb(m.text + rest, [{ id: m.id, start: 0, end: m.text.length, text: m.text }], n.away);
  return rel?.sure ? rel : (own ?? rel);
}

/** The mention as the subject of its own clause: in the sentence's subject slots, or from the name on after an opener. */
function ownClause(n: Narration, m: Mention, before: string): Subject | null {
  const whole = subjectVerb(n.narr, [m], n.away);
  if (whole || !OPENER.test(before)) return whole;
  return subjectVerb(n.narr.slice(m.start), [{ id: m.id, start: 0, end: m.end - m.start, text: m.text }], n.away);
}

/**
 * The doers of a narration sentence in clauses other than its first doer's, for the people
 * `matters` holds (each found once, in reading order). None in a question, a sentence put at
 * another place, or one told as future, condition or habit.
 */
export function clauseDoers(n: Narration, first: string | undefined, matters: (id: string) => boolean): Subject[] {
  if (n.elsewhere || n.narr.includes('?') || NOT_NOW.test(n.narr)) return [];
  const out: Subject[] = [];
  for (const m of n.mentions) {
    if (m.id === first || !matters(m.id) || out.some((d) => d.id === m.id)) continue;
    const s = asSubject(n, m);
    if (s && !s.offstage) out.push(s);
  }
  return out;
}
