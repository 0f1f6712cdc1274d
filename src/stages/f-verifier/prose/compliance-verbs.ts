import { tokensOf } from './parse.js';
import { toInfinitive, TransformMemo } from './word-transforms.js';
import { READ } from './reading.js';

/**
 * The verbs that show an attempt coming off (compliance.ts reads them in a tagged sentence), and the
 * cheap test of whether a sentence could hold one at all before it is tagged.
 */

/** Giving way, with no object needed: the attempt's target yields. */
export const YIELD = new Set(['give in', 'give way', 'relent', 'yield', 'consent', 'agree', 'comply', 'submit', 'capitulate', 'concede', 'acquiesce', 'obey', 'surrender', 'let go', 'cave', 'cave in', 'back down', 'say yes', 'nod assent', 'accept']);
/** Handing over: counts with a concrete object ("hands Terentia the tablet", "gives them up"). */
export const TRANSFER = new Set(['give', 'hand', 'hand over', 'deliver', 'surrender', 'release', 'turn over', 'give up', 'yield up', 'entrust']);
/** Moving a thing toward someone: only a transfer once it arrives ("slides it to Cato", not "slides it toward Cato"). */
export const MOTION = new Set(['slide', 'slip', 'press', 'pass', 'push', 'tuck']);

/** Taking what is handed: counts with a concrete object ("takes it", "accepts the purse"). */
export const RECEIVE = new Set(['take', 'accept', 'receive', 'pocket', 'close on', 'close over', 'close around', 'close round', 'close upon', 'gather', 'gather up', 'seize', 'snatch', 'grab', 'scoop up']);
/** A crowd or men going along: counts with a group as subject ("the crowd follows him"). */
export const FOLLOW = new Set(['follow', 'answer', 'obey', 'heed', 'rise', 'surge', 'pour', 'stream', 'flood', 'march', 'take up', 'go after']);

/**
 * Going along in other words (held-out corpus 8, t17: "the quay comes with him", "fall in at his
 * back"): come, go, fall in or roll, when the words after the verb say with, after or behind
 * someone ("pour" is in FOLLOW already); a following only with a group as the subject, as FOLLOW.
 */
export const ALONG = new Set(['come', 'go', 'fall', 'fall in', 'roll']);

/** Refusals and holding back: a sentence with one of these, undenied, shows no success. */
export const REFUSE = new Set(['refuse', 'decline', 'withhold', 'keep', 'draw back', 'pull back', 'hold back', 'hesitate', 'falter', 'balk', 'deny', 'reject', 'shut', 'slam', 'turn away', 'shake', 'stay', 'snatch back']);

/** Every inflection of the lexicon's verbs starts with one of these: a sentence without one is not parsed (compromise costs ~1 ms a sentence). */
export const STEMS = /\b(?:come|coming|came|fall|fell|roll|giv|gave|hand|deliver|surrender|releas|turn|yield|entrust|slid|slip|tuck|press|pass|push|tak|took|accept|receiv|pocket|clos|gather|seiz|snatch|grab|scoop|follow|answer|obey|heed|ris|rose|surg|pour|stream|flood|march|go|went|relent|consent|agre|compl|submit|capitulat|conced|acquiesc|let|cav|back|say|said|nod|read)/i;

/** Every verb complianceIn can return, as [first word, particle]: compromise's infinitive of a phrase is at most two words. */
const ANSWERS = [...YIELD, ...TRANSFER, ...MOTION, ...RECEIVE, ...READ, ...FOLLOW, ...ALONG].map((v) => v.split(' '));
const infs = new TransformMemo<string, string[]>(20000);

/** A word and every infinitive compromise's verb parser could read it as, whatever the tense it tags (toInfinitive). */
function infinitivesOf(form: string): string[] {
  return infs.get(form, (f) => [f, ...['Participle', 'PastTense', 'PresentTense', 'Gerund'].map((t) => toInfinitive(f, t))]);
}

/**
 * Whether tagging the sentence could find one of the verbs complianceIn answers with. A verb's
 * infinitive is toInfinitive of its root's first word, plus the root's second word as a particle;
 * the root's words are terms' normal forms unless a term runs into the next without a space. So
 * with no such run, and no term that reads as a lexicon verb with its particle present, no verb
 * use can be one, and the sentence is not tagged.
 */
export function mayComply(sentence: string): boolean {
  const t = tokensOf(sentence);
  if (!t.spaced) return true;
  const firsts = new Set([...t.forms].flatMap(infinitivesOf));
  return ANSWERS.some(([w, particle]) => firsts.has(w) && (!particle || t.forms.has(particle)));
}

/** A verb of the sentence read as live, with the text around it. */
export interface VerbUse {
  inf: string;
  /** Where the verb starts in the sentence. */
  at: number;
  before: string;
  after: string;
  /** The words after the verb up to the clause's end, commas kept ("a short, dry laugh"). */
  obj: string;
}

/** A clause with a name of its own for subject ("…, and Terentia read it"): someone else than the one before does the rest. */
const NAMED_SUBJECT_AFTER = /\b(?:and|then)\s+\p{Lu}\p{L}+\s+(?!and\b)\p{Ll}/u;
/**
 * A keeping after a thing was handed or moved to someone (at `handedAt`), by a clause that names its own subject in
 * between: the receiver keeps it, which confirms the handing ("Crassus pushed the tablet under the table into her hands,
 * and Terentia read it over once, then a second time, and kept it": held-out corpus 120's mend). A keeping with no new
 * subject, or before any handing, is still the holder's refusal.
 */
export function receiverKeeps(u: VerbUse, read: string, handedAt: number | undefined): boolean {
  return u.inf === 'keep' && handedAt !== undefined && NAMED_SUBJECT_AFTER.test(read.slice(handedAt, u.at));
}

/** Before a verb of giving, a clause of reason with its subject: "because you", "since he". */
const REASON_SUBJECT = /\b(?:because|since)\s+(?:you|he|she|they|I|we)\s+$/i;
/**
 * In speech, a giving told in the simple past as the reason for what someone has ("And whatever he has, sister, he
 * has because you gave it": held-out corpus 121, dp07) explains a state; it shows nothing handed now.
 */
export function givenAsReason(before: string, verbOn: string): boolean {
  return REASON_SUBJECT.test(before) && /^(?:gave|handed|passed|sent|delivered|surrendered|entrusted)\b/i.test(verbOn);
}
