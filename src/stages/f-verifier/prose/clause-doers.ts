import type { Mention } from './names.js';
import type { Narration } from './deeds.js';
import { pastParenthetical, subjectVerb, type Subject } from './subjects.js';
import { LYING_DEED } from './bodies.js';
import { fellDying } from './fell.js';
import { clauseAt } from './clauses.js';
import { timeLead, timedNotNow } from './tense.js';

/**
 * Doers beyond a sentence's first (held-out corpus 2, x13): deedOf reads one doer per sentence,
 * the first name in a subject slot with a present deed, so "Clodius reads on, even when Catiline
 * leans over his shoulder" never reaches Catiline. Here every other name is read as the subject of
 * its own clause: a coordinated one (the subject slots subjects.ts knows), a subordinate one
 * ("because", "although", "until", "after"…), or a relative clause on it (", who leans in").
 * Only the presence rules ask, for the dead, and only after the first doers are judged: a person
 * already found keeps that finding, so this adds findings, never moves one. Kept strict (precision before
 * recall): a frame of memory, dream, report or condition anywhere before the name, a future or
 * habit governing his verb, or a verb of saying, thinking or lying dead reads as no deed here.
 */

/** Subordinating words after which a name starts its own clause (when/while are subject slots already). */
export const OPENER = /\b(?:as|after|before|because|although|though|until|till|once|since|where)\s+$/i;
/** A relative clause on a name: "Catiline, who leans in". */
const RELATIVE = /^\s*,\s*who\s+/i;
/**
 * Words that make what follows remembered, dreamed, reported or hypothetical, wherever they stand
 * before it in the sentence; "shade" as a ghost, not the shade of a portico (held-out corpus 22, c14).
 */
const THOUGHT = String.raw`remember\w*|recall\w*|recollect\w*|dream\w*|imagin\w*|pictur\w*|memor\w*|think\w* (?:of|back|about)|thought (?:of|back|about)|fanc\w*|ghost|(?<!\b(?:in|into|from|out of)\s+(?:the\s+)?)shade(?!\s+of\s+(?:the|a|an|his|her|their|its)\b)|spirit|as if|as though|if|unless|letter|message|rumou?r|story|stories|tales?|hears?|heard|news|word (?:of|from)`;
/**
 * Words of saying: what follows is spoken of only in their own clause ("Cicero says Catiline rises", not "Cicero says,
 * and Catiline rises"). Saying nothing frames nothing ("For a moment Clodius says nothing. … ¶ Then he shrugs, and …
 * throws back the lids on forty thousand denarii": held-out corpus 13, n19, whose "he" is Clodius).
 */
const SAYING = String.raw`tells?|told|(?:speak|talk|ask)(?:s|ed|ing)? (?:of|about|after)|spoke (?:of|about)|(?:says|said)(?!\s+(?:nothing|no more|not a word)\b)`;
/** Words that make what follows remembered, dreamed, reported, spoken of or hypothetical. */
export const FRAME = new RegExp(String.raw`\b(?:${THOUGHT}|${SAYING})\b`, 'i');
const THOUGHT_FRAME = new RegExp(String.raw`\b(?:${THOUGHT})\b`, 'i');
const SAYING_FRAME = new RegExp(String.raw`\b(?:${SAYING})\b`, 'i');

/**
 * Whether the words before a mention frame it: a word of thought, report or condition anywhere
 * before it, or a word of saying in its own clause (held-out corpus 7, u14: "'Write it large,' Cicero
 * says, and … Catiline gets to his feet" is Catiline acting once the saying's clause is closed).
 */
function framed(narr: string, at: number): boolean {
  const before = narr.slice(0, at);
  return THOUGHT_FRAME.test(before) || SAYING_FRAME.test(before.slice(clauseAt(narr, at).start));
}
/**
 * The words that govern a mention's deed: its clause up to the name and the three words after it
 * ("Catiline always comes", "whenever Catiline comes", "Catiline would have"), not a habit told of
 * something else later in the sentence (held-out corpus 10, r14: "…Catiline is coming down the other
 * way…, his cloak thrown back as he always wears it, … that used to make her forget").
 */
function governing(narr: string, m: Mention): string {
  const next = /^(?:[^\p{L}]*[\p{L}'’]+){0,3}/u.exec(narr.slice(m.end))?.[0] ?? '';
  return narr.slice(clauseAt(narr, m.start).start, m.end) + next;
}
/** A future, a condition or a habit governing the deed (governing): it is not happening here and now. */
const NOT_NOW = /\b(?:will|would|shall|should|could|might|may|must|can|cannot|can't|won't|wouldn't|always|never|usually|often|every time|whenever|used to|once again|no longer)\b/i;
/** Verbs that are no deed on stage: saying, writing or thinking (a quotation), a state, lying dead; "holds" only as an opinion ("holds that…"), not "holds the door open" (held-out corpus 22, c14). */
const NO_DEED = /^\s*(?:\w+ly\s+)?(?:says|writes|thinks|believes|knows|claims|argues|insists|holds(?=\s+(?:that|with|it\s+(?:true|right|wrong|against)|to\s+(?:it|the\s+view))\b)|wants|wishes|hopes|fears|likes|puts it|lies|rests|sleeps|haunts|remains|stands (?:accused|condemned|charged|outlawed|convicted)|waits? (?:in|at) (?:his|the) (?:grave|tomb))\b/i;

/** Whether these words begin with a verb that is no deed; telling lies or lying in wait is one (bodies.ts). */
const noDeedHere = (s: string) => NO_DEED.test(s) && !LYING_DEED.test(s);

/** Whether the words after a name or a pronoun begin with a verb that is no deed, there or past an aside on it (subjects.ts). */
export function noDeed(after: string): boolean {
  return noDeedHere(after) || noDeedHere(pastParenthetical(after));
}

/** The subject reading of one mention on its own: as its clause's subject, else as the antecedent of a relative clause. */
function asSubject(n: Narration, m: Mention, touching = false): Subject | null {
  const before = n.narr.slice(0, m.start);
  if (framed(n.narr, m.start)) return null;
  const after = n.narr.slice(m.end);
  // "Since Catiline fell, …": a death dated, as "since Catiline died" is (fell.ts), read before the opener is cut off.
  const own = (noDeed(after) || fellDying(before, after)) && !touching ? null : ownClause(n, m, before);
  if (own?.sure || !RELATIVE.test(after)) return own;
  // "Catiline, who leans in": the relative clause's verb is his deed ("who had died" is none).
  const rest = after.replace(RELATIVE, ' ');
  const rel = noDeed(rest) ? null : subjectVerb(m.text + rest, [{ id: m.id, start: 0, end: m.text.length, text: m.text }], n.away, n.past);
  return rel?.sure ? rel : (own ?? rel);
}

/** The mention as the subject of its own clause: in the sentence's subject slots, or from the name on after an opener. */
function ownClause(n: Narration, m: Mention, before: string): Subject | null {
  const whole = subjectVerb(n.narr, [m], n.away, n.past);
  if (whole) return whole;
  if (OPENER.test(before)) return subjectVerb(n.narr.slice(m.start), [{ id: m.id, start: 0, end: m.end - m.start, text: m.text }], n.away, n.past);
  // A clause of its own after a semicolon, a colon or a dash, read from its start: "…; on the far bench Catiline laughs".
  const { start } = clauseAt(n.narr, m.start);
  return start > 0 ? subjectVerb(n.narr.slice(start), [{ id: m.id, start: m.start - start, end: m.end - start, text: m.text }], n.away, n.past) : null;
}

/**
 * The doers of a narration sentence in clauses other than its first doer's, for the people
 * `matters` holds (each found once, in reading order). None in a question or a sentence put at
 * another place, nor a deed told as future, condition or habit. For the people `timedOnly` holds, only the subject of
 * a clause of time ("When Terentia looks away, …", "…, while Terentia pours the wine"): that clause tells what happens
 * here as the main one does, where a "because" or "although" clause as often gives a reason from elsewhere.
 */
export function clauseDoers(n: Narration, first: string | undefined, matters: (id: string) => boolean, timedOnly: (id: string) => boolean = () => false): Subject[] {
  if (n.elsewhere || n.narr.includes('?')) return [];
  const out: Subject[] = [];
  for (const m of n.mentions) {
    if (m.id === first || !matters(m.id) || out.some((d) => d.id === m.id)) continue;
    const timed = timedOnly(m.id);
    if (timed && !timeLead(n.narr.slice(0, m.start))) continue;
    // A perfect in a clause of time may be a leaving told after it ("once Terentia has gone"): sure readings only there.
    const s = doerHere(n, m);
    if (s && (s.sure || !timed)) out.push(s);
  }
  return out;
}

/**
 * One mention read as the subject of its own clause, now and on this stage: not told as future, condition or habit,
 * not framed, not put off stage. Also for a phrase standing for its owner ("Catiline's hand": body-parts.ts), whose
 * resting on a thing (`touching`) is a deed.
 */
export function doerHere(n: Narration, m: Mention, touching = false): Subject | null {
  if (NOT_NOW.test(governing(n.narr, m)) || timedNotNow(n.narr.slice(0, m.start), n.narr)) return null;
  const s = asSubject(n, m, touching);
  return s && !s.offstage ? s : null;
}
