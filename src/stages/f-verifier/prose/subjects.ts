import nlp from 'compromise';
import type { Mention } from './names.js';

/** Openings after which a name is still the clause's subject: nothing, a fronted phrase, a conjunction. */
const SUBJECT_SLOT = /(?:^\s*|,\s*|[;:—–]\s*|\b(?:and|then|but|now|so|when|while|meanwhile|elsewhere|tonight|later|suddenly)\s+)$/i;
/** A fronted place phrase without its comma ("At the back of the crowd Catiline lifts his arm"). */
const FRONTED = /^\s*(?:at|in|on|by|from|behind|beside|near|under|across|through|inside|outside|within|along|among|across)\s+(?:[\p{L}'’]+\s+){0,7}$/iu;
/** Words between a name and its verb that do not change who acts. */
const FILLER = /^\s*(?:,?\s*(?:himself|herself|too|also|alone|already|now|still|again|meanwhile|at last|suddenly|quietly|slowly|softly|only)\b,?)+/i;
/** An apposition ("Caesar, the great hope of the optimates, rises"). */
const APPOSITION = /^\s*,\s*[^,]{1,60},\s*/;
/** After "is/are", what makes it being on stage rather than a state ("is there", "is leaning"). */
const PRESENT_HERE = /^\s*(?:(?:already|still|now|back|down|up|out|off|away|home)\s+){0,2}(?:there|here|at|in|on|among|beside|by|inside|outside|behind|before|standing|sitting|waiting|leaning|watching|\w+ing)\b/i;
/** States, not deeds: "Caesar lives here" says where he lives, not that he is in the room. */
const STATIVE = /^(?:lives|owns|owes|belongs|loves|hates|deserves|means|matters|seems|resembles|remains\s+dead)$/i;
/** A name joined by "and" to the object of a preposition ("the business of Servilia and Caesar turns"): not a subject. */
const COORDINATED_OBJECT = /\b(?:of|with|between|for|about|against|to|from|toward|towards)\s+(?:the\s+)?(?:\p{Lu}[\p{L}'’]*\s+){1,4}and\s+$/u;
const MODAL = /^(?:will|would|could|can|may|might|must|should|shall|used|did|does|had|was|were|once)$/i;

export interface Subject {
  id: string;
  sure: boolean;
}

/**
 * The tags of the word after a subject, via compromise. A pronoun stands in for the name so that
 * "lifts", "walks" or "rises" read as verbs, not plural nouns.
 */
function firstTerm(text: string): { word: string; tags: string[] } | null {
  const t = (nlp(`He ${text.trim()}`).json() as { terms: { text: string; tags: string[] }[] }[])[0]?.terms[1];
  return t ? { word: t.text.toLowerCase(), tags: t.tags } : null;
}

/** Whether the words after a subject begin a present-tense action or presence. */
function actsNow(after: string): boolean | 'doubtful' {
  const t = firstTerm(after.slice(0, 80));
  if (!t || !t.tags.includes('Verb') || MODAL.test(t.word) || STATIVE.test(t.word) || t.tags.includes('PastTense') || t.tags.includes('Modal')) return false;
  const rest = after.trim().slice(t.word.length);
  if (/^(?:is|are)$/.test(t.word)) return PRESENT_HERE.test(rest) && !/^\s*(?:in\s+)?(?:dead|gone|alive|buried|dust)\b/i.test(rest);
  if (/^(?:has|have)$/.test(t.word)) return 'doubtful';
  return t.tags.includes('PresentTense') || t.tags.includes('Infinitive') ? true : 'doubtful';
}

/**
 * Who acts in a narration sentence: a named person in the subject slot followed by a present-tense
 * verb. Possessives ("Catiline's head"), objects ("remembers Catiline") and past or modal verbs
 * ("Catiline stood", "Catiline would have") are not deeds in the present scene.
 */
export function subjectVerb(narr: string, mentions: Mention[]): Subject | null {
  for (const m of mentions) {
    const before = narr.slice(0, m.start);
    if (!(SUBJECT_SLOT.test(before) || FRONTED.test(before)) || /["…]\s*$/.test(before.trim()) && before.trim().length > 0 && !/,\s*$/.test(before)) continue;
    if (COORDINATED_OBJECT.test(before)) continue;
    let after = narr.slice(m.end);
    if (/^['’]/.test(after)) continue;
    after = after.replace(APPOSITION, ' ').replace(FILLER, ' ');
    const a = actsNow(after);
    if (a) return { id: m.id, sure: a === true };
  }
  return null;
}
