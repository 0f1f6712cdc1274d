import { possessiveAfter, type Mention } from './names.js';
import { subjectVerb, type Subject } from './subjects.js';
import { identifiedHere } from './identified.js';
import type { Stranger } from './strangers.js';

/** Someone who does something on stage, by the prose's own account. */
export interface Deed {
  id: string;
  how: 'speaks' | 'acts';
  line: number;
  text: string;
  /** False when the subject was carried over from an earlier sentence or the verb is doubtful. */
  sure: boolean;
  /** A place other than the scene's, when the sentence puts the doer there. */
  elsewhere?: string;
  /** Words that put the doer off this stage without naming a place ("somewhere across the city"). */
  offstage?: string;
  /** The verb says only where or how a body lies ("lies in the next room"): no deed if the doer is dead (bodies.ts). */
  body?: true;
}

/**
 * One narration sentence and what its doer is found from. The doer is found on demand (issue 18,
 * twelfth pass): finding it tags the words after each name in the subject slot (subjects.ts, most
 * of the reader's cost), and a check asks for it only where the answer can change a finding: a
 * dead or uncast person's deed, a cast member put elsewhere, a payer, the speaker a pronoun
 * carries over. Every answer is the one the sentence-by-sentence reading gave (`deedsOf`).
 */
export interface Narration {
  line: number;
  /** The sentence as written (a deed's text). */
  text: string;
  /** The sentence with its quotes blanked out. */
  narr: string;
  mentions: readonly Mention[];
  elsewhere?: string;
  /** Private places of people other than the setting's that the sentence names ("in Fulvia's bed"; places.ts). */
  away?: readonly string[];
  /** People it says were at a named place not the scene's ("Cicero was at the Curia"; places.ts placedThen): off stage when `past`. */
  placed?: readonly { id: string; place: string }[];
  /** A said-tag's named speaker ("Cato says"). */
  said: { id: string; sure: boolean } | null;
  /** A said-tag's speaker no known name names ('"…," says Gnaeus Plautius'; strangers.ts): nobody the scene knows says the line. */
  stranger?: Stranger;
  /** A pronoun said-tag with no name in the sentence ("he says"), its pronoun: the speaker is the last doer it fits. */
  pronoun: 'he' | 'she' | null;
  /** With a pronoun said-tag: whether a person's gender fits the pronoun (an unknown gender fits both). */
  speakerFits?: (id: string) => boolean;
  /** The narration sentence before this one in the same reading order (the scene's, or one extra text's). */
  prev: Narration | null;
  /** The scene's narration is told in the past (tense.ts): a simple past is its now. */
  past?: true;
  /** Told as imagined (imagined.ts): no deed. */
  imagined?: true;
  /** The deed, once found (null: none). */
  deed?: Deed | null;
}

/** This sentence's deed, as the reading in order found it: a named or carried-over speaker, else a subject's present deed. */
export function deedOf(n: Narration): Deed | null {
  if (n.deed !== undefined) return n.deed;
  if (n.imagined) return (n.deed = null);
  let d: Deed | null = null;
  const last = n.said || !n.pronoun ? undefined : lastBefore(n);
  if (n.said) d = { id: n.said.id, how: 'speaks', line: n.line, text: n.text, sure: n.said.sure, elsewhere: n.elsewhere };
  else if (last) d = { id: last, how: 'speaks', line: n.line, text: n.text, sure: false, elsewhere: n.elsewhere };
  else {
    // A question in narration asks; it does not put anyone on stage.
    const sv = n.narr.includes('?') ? null : (subjectVerb(n.narr, n.mentions, n.away, n.past) ?? arrivedBy(n));
    const offstage = sv?.offstage ?? (n.past ? n.placed?.find((p) => p.id === sv?.id)?.place : undefined);
    if (sv) d = { id: sv.id, how: 'acts', line: n.line, text: n.text, sure: sv.sure, elsewhere: n.elsewhere, offstage, ...(sv.body ? { body: true as const } : {}) };
  }
  n.deed = d;
  return d;
}

/**
 * The words right before a name that a verb of saying reports ("says the consul…", "told him that Cato…"), also in a
 * later "that" clause of the same report ("The talk, he says, is that the Subura will burn…; that the consul would
 * give a great deal…": held-out corpus 73, bt04). Its verbs are those of reporting, not said.ts's SAID_VERB
 * (the verbs of a said-tag): "calls the consul over" or "laughs the consul off" reports nobody's words.
 */
const REPORTED_NAME = /\b(?:says?|said|saying|tells?|told)\s+(?:(?:him|her|them|me|us)\s+)?(?:that\s+)?(?:the\s+)?$|\b(?:says?|said|tells?|told)\b[^.!?]*[;,]\s*(?:and\s+)?that\s+(?:the\s+)?$/i;

/** Someone named as who has come in ("The door opens, and it is Catiline."; identified.ts): on stage, as a deed is. */
function arrivedBy(n: Narration): Subject | null {
  const m = identifiedHere(n);
  return m && { id: m.id, sure: true };
}

/**
 * Who a pronoun said-tag refers back to before this sentence: the last doer the pronoun's gender
 * fits, else the one such person named with no deed or beside a doer it does not fit (two or more:
 * nobody). A doer of the other gender is passed over: in a dialogue "she said" goes back past the
 * man's lines.
 */
function lastBefore(n: Narration): string | undefined {
  const fits = n.speakerFits ?? (() => true);
  for (let p = n.prev; p; p = p.prev) {
    const d = deedOf(p);
    if (d && fits(d.id)) return d.id;
    // A possessive names someone else's thing, not a speaker ("Terentia. Cicero's wife." then '"…," he says').
    // Nor a name inside a report ("somebody else says the consul should open them": held-out corpus 35, ah02).
    const named = p.mentions.filter((m) => fits(m.id) && m.id !== d?.id && !possessiveAfter(p.narr.slice(m.end)) && !REPORTED_NAME.test(p.narr.slice(0, m.start)));
    if (named.length) return named.length === 1 ? named[0].id : undefined;
  }
  return undefined;
}

/** Every deed of these sentences, in order. */
export function deedsOf(ns: readonly Narration[]): Deed[] {
  const out: Deed[] = [];
  for (const n of ns) {
    const d = deedOf(n);
    if (d) out.push(d);
  }
  return out;
}

/**
 * Whether this sentence's doer, if it has one, could be someone `matters` holds, without finding
 * it: a named speaker is that person, a subject is one of the sentence's names; a carried-over
 * speaker is found (rare, and it may be anyone named before).
 */
export function mayBeDoneBy(n: Narration, matters: (id: string) => boolean): boolean {
  if (n.said) return matters(n.said.id);
  if (n.pronoun) {
    const d = deedOf(n);
    return d !== null && matters(d.id);
  }
  return n.mentions.some((m) => matters(m.id));
}

/**
 * The payer of sentence `i`: the doer of the nearest sentence at or before it that has one, where
 * a sentence's doer is the first deed told in a sentence of the same line and text.
 */
export function payerAt(ns: readonly Narration[], i: number): string | undefined {
  for (let k = i; k >= 0; k--) {
    const n = ns[k];
    for (const o of ns) {
      if (o.line !== n.line || o.text !== n.text) continue;
      const d = deedOf(o);
      if (d) return d.id;
    }
  }
  return undefined;
}
