import type { ProseSentence, Reading } from './reader.js';
import type { Narration } from './deeds.js';
import { clauseHead } from './compliance.js';
import { numberIn } from './parse.js';
import { sumsIn } from './money.js';

/**
 * A required change the prose keeps from the stage in so many words, for rules/prose-beats.ts (AUR5037): a payment
 * its payer is told not making ("Catiline does not pay. He leaves the purse tied at his belt"), a payment only
 * promised ("Tomorrow I will pay twenty thousand denarii into the fund"), a secret told kept ("He keeps her secret,
 * for now"). Not an absence, which the readers cannot tell from a rendering they miss (a payment or a telling in
 * words no reader knows), but the prose saying the opposite of what the events commit.
 */

/** How a change is kept off the stage, and the sentence that says so (the finding quotes it). */
export interface Withheld<H extends string> {
  how: H;
  sentence: { line: number; text: string };
}

/** A verb of paying denied before it: "does not pay", "never pays", "refuses to pay", "will not hand over"; or paying nothing. */
const NOT_PAYING = /\b(?:(?:does|did|do)\s+not|doesn['’]t|didn['’]t|don['’]t|never|will\s+not|won['’]t|cannot|can['’]t|refuses\s+to|refused\s+to|declines\s+to|declined\s+to)\s+(?:\p{L}+ly\s+)?(?:pay|pays|paid|hand\s+(?:it\s+|them\s+)?over|count\s+(?:it\s+|them\s+)?out|part\s+with)\b|\bpays?\s+(?:nothing|not\s+a\s+(?:coin|denarius|sesterce|single))\b|\bwithout\s+paying\b/iu;
/** "Pays" that moves no money: "does not pay attention", "never pays him a visit" (payment.ts FIGURATIVE). */
const FIGURATIVE_AFTER = /^\s*(?:(?:him|her|them|any|the\s+least|much|close)\s+)?(?:attention|heed|court|compliments?|respects?|a\s+visit|tribute|lip\s+service|for\s+(?:this|that|it))\b/i;
/**
 * A payment to come: a promise in the payer's own words ("I will pay twenty thousand denarii into the fund", "I'll
 * send it at the Kalends"), or one told ("he promises to pay", "Catiline will pay at the Nones"). Not "I will have
 * three thousand of it" nor "You will pay", a creditor's demand.
 */
const PAY_LATER_SAID = /\b(?:I|we)(?:\s+(?:will|shall)|['’]ll)\s+(?:\p{L}+ly\s+)?(?:pay|hand\s+over|count\s+out|send|bring)\b|\bI\s+promise\s+(?:to\s+pay|you)\b/iu;
const PAY_LATER_TOLD = /(?:\b(?:he|she|they)|\p{Lu}\p{L}+)\s+(?:will|shall)\s+(?:\p{L}+ly\s+)?(?:pay|hand\s+over|count\s+out)\b|\bpromis(?:es|ed|ing)?\s+to\s+pay\b/u;
/** Hedges that make a denial no denial of now: a condition, a question, a "not yet … but now" turn. */
const NOT_NOW = /\b(?:if|unless|would|could|might|whether)\b|\?|\bnot\s+yet\b/i;

/** Whose paying a denial is: a name of the payer in its clause before it, or a "he"/"she" with the payer named in its sentence or the one before. */
function byPayer(n: Narration, at: number, payer: string): boolean {
  const head = clauseHead(n.narr, at);
  const from = at - head.length;
  if (n.mentions.some((m) => m.id === payer && m.start >= from && m.end <= at)) return true;
  return /\b(?:he|she)\s+(?:\p{L}+ly\s+)?$/iu.test(head) && [n, n.prev].some((x) => !!x && x.mentions.some((m) => m.id === payer));
}

/**
 * How the scene keeps a required payment off the stage, when it shows none paid: 'refused', a narration sentence
 * that denies the payer's paying now; 'promised', a sentence (said or told) that puts it off to later and names
 * money or the sum; else null. `payer`: the paying account's owner; `amount`: the transfer's denarii.
 */
export function paymentWithheld(r: Reading, payer: string, amount: number): Withheld<'refused' | 'promised'> | null {
  for (const n of r.narration) {
    if (n.line <= 0 || n.imagined || NOT_NOW.test(n.narr)) continue;
    const m = NOT_PAYING.exec(n.narr);
    if (m && !FIGURATIVE_AFTER.test(n.narr.slice(m.index + m[0].length)) && byPayer(n, m.index, payer)) return { how: 'refused', sentence: n };
  }
  const named = (t: string) => sumsIn(t).length > 0 || /\b(?:denarii|sesterces|talents?|money|silver|purse)\b/i.test(t) || numberIn(t) === amount;
  for (const s of r.sentences) {
    if (s.line <= 0) continue;
    // "You will pay for this" threatens; a promise names what is paid.
    const t = s.kind === 'narration' ? (s.narr ?? s.text) : s.text;
    if ((s.kind === 'narration' ? PAY_LATER_TOLD : PAY_LATER_SAID).test(t) && named(t) && !/\bif\b|\?/i.test(t)) return { how: 'promised', sentence: s };
  }
  return null;
}

/**
 * A secret kept, told in narration: "keeps her secret", "guards the secret" ("kept" in a scene told in the past), not
 * negated ("keeps the secret no longer"), hedged, kept till now only ("has kept it for years" is backstory before a
 * telling) or only for a while ("keeps it until the vote").
 */
const KEEPS = /\b(?:keeps?|keeping|guards?|guarding)\s+(?:(?:his|her|their|the|this|that|its|my|your|our)\s+)?(?:own\s+)?(?:\p{L}+['’]s?\s+)?(?:secret|counsel)\b/iu;
const KEPT = /\b(?:kept|guarded)\s+(?:(?:his|her|their|the|this|that|its)\s+)?(?:own\s+)?(?:\p{L}+['’]s?\s+)?(?:secret|counsel)\b/iu;
const KEPT_NO_LONGER = /\b(?:no\s+longer|any\s*more|not|never|nor|until|till|at\s+first|for\s+a\s+(?:while|moment|time))\b|\b(?:has|have|had)\s+(?:\p{L}+ly\s+)?(?:kept|guarded|held)\b/iu;
/** Silence that may break later in the scene: "holds his tongue", "bites back the name". */
const SILENT = /\b(?:holds?|held|bites?|bit)\s+(?:his|her|their)\s+tongue\b|\bbites?\s+back\s+(?:the|her|his)\s+name\b/i;
/** A verb of telling denied, with what is told after it: "does not name her", "never tells him", "will not reveal it". */
const NOT_TELLING = /\b(?:(?:does|did|do)\s+not|doesn['’]t|didn['’]t|never|will\s+not|won['’]t|refuses\s+to|declines\s+to)\s+(?:\p{L}+ly\s+)?(?:tell|tells|name|names|reveal|reveals|expose|exposes|betray|betrays)\s+(?:it|her|him|them|the\s+(?:secret|name|truth))\b/iu;

/**
 * How the scene keeps a required telling of a secret off the stage: 'kept', a narration sentence that says a secret
 * is kept; 'denied', one that denies a telling or keeps silent (which a telling may still follow); else null. Read only when no telling is found (beats.ts
 * secretToldIn): "He keeps her secret, for now" after a denunciation planned to succeed.
 */
export function secretWithheld(r: Reading): Withheld<'kept' | 'denied'> | null {
  let out: Withheld<'denied'> | null = null;
  for (const n of r.narration) {
    if (n.line <= 0 || n.imagined || NOT_NOW.test(n.narr)) continue;
    if ((KEEPS.test(n.narr) || (n.past && KEPT.test(n.narr))) && !KEPT_NO_LONGER.test(n.narr)) return { how: 'kept', sentence: n };
    if (NOT_TELLING.test(n.narr) || SILENT.test(n.narr)) out ??= { how: 'denied', sentence: n };
  }
  return out;
}
