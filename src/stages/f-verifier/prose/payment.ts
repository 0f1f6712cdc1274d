import type { Reading } from './reader.js';
import { deedOf, type Narration } from './deeds.js';
import { MONEY_CONTAINER, PAID_PAST, PAYS, sumsIn, talkedOf, type Sum } from './money.js';
import { backstory, formTense, paidBefore } from './tense.js';
import { sentencesOf } from './parse.js';
import { clauseAt } from './clauses.js';
import { complianceUses } from './compliance.js';

/**
 * A payment made now in a narration sentence: one reading for the rule that weighs what is paid against the
 * payer's means (rules/prose-money.ts, AUR5022) and the one that asks whether a required payment is shown at all
 * (rules/prose-beats.ts, AUR5037), so the two never disagree on what counts as paying.
 */

/**
 * Where the verb of paying is in a narration sentence that pays now, or null. A verb of paying inside a quotation
 * is said, not done (`narr` has quotations blanked: "…or to throw in the Tiber," held-out corpus 7, u11). Told in
 * the past, the scene's simple past pays too, unless its time is long before, or a payment over the years or by
 * habit in its own clause (tense.ts paidBefore). Sums only talked of (owed, offered, worth) and imagined runs pay nothing.
 */
export function paymentAt(s: Narration): number | null {
  const paying = PAYS.exec(s.narr);
  const pays = (paying !== null && !(s.past === true && paidBefore(clauseAt(s.narr, paying.index).text))) || (s.past === true && PAID_PAST.test(s.narr) && !backstory(s.narr));
  if (!pays || s.imagined || talkedOf(s.narr)) return null;
  return (PAYS.exec(s.narr) ?? PAID_PAST.exec(s.narr))?.index ?? s.narr.length;
}

/** Money as a thing handed: a bag, a purse, coin, silver. */
export const MONEY_THING = String.raw`(?:${MONEY_CONTAINER}|money|silver|gold|coins?)`;

/** What a payment hands over when its sum is not in its own sentence: a bag, a purse, coin, or "it". */
const HANDED_THING = new RegExp(String.raw`\b(?:the|a|an|his|her|their|this|that)\s+(?:[\p{L}-]+,?\s+){0,3}?${MONEY_THING}\b|\b(?:it|them)\b`, 'iu');
/**
 * A sentence about the thing handed itself, between the handing and the quotation naming its sum ("Murena drops a
 * heavy leather bag onto the bench beside Varo. It clinks. \"There's seventy thousand denarii in that bag…\"":
 * held-out corpus 82, cc19): the quotation still names what was handed.
 */
const THE_THING_ITSELF = new RegExp(String.raw`^\s*(?:It|They|The\s+(?:[\p{L}-]+\s+){0,2}?(?:${MONEY_CONTAINER}|coins?|silver|gold))\s+(?:[\p{L}'’-]+\s*){1,5}[.!][\])]?\s*`, 'u');

/**
 * The sums a paying narration sentence hands over: those named in it, else, when it hands over a bag,
 * a purse or coin and names no sum, those of the quotation that follows it on the same line, but
 * for a sentence of it that only talks of money (owed, offered, to come)
 * ('"First, a debt," he says, and pushes the bag across the table to Servilia. "Fifty thousand
 * denarii, in silver."': held-out corpus 12, p19).
 */
export function sumsOfPayment(r: Reading, i: number): Sum[] {
  const s = r.narration[i]!;
  const own = sumsIn(s.text);
  const quoted = own.length || !HANDED_THING.test(s.narr) ? undefined : quotationAfter(r, i);
  if (quoted === undefined) return own;
  // Each sentence said in it by itself: "Fifty thousand denarii, in silver. Everything I owe you…" names the sum handed, then the debt.
  return sentencesOf(quoted.replace(/^["“]|["”]$/g, '')).flatMap((q) => (talkedOf(q) ? [] : sumsIn(q)));
}

/**
 * The quotation right after narration sentence `i` on its line, past sentences about the thing itself, or undefined.
 * A quotation with a said-tag is the payer's words on what they hand over when its speaker is the payer, named or a
 * "he"/"she" read as them (deeds.ts), on the same line or opening the next paragraph ("Tertulla takes a purse from her
 * sleeve and drops it into Servilia's lap. ¶ \"Sixty thousand denarii,\" she says.": prose audit 2, f5); another's words
 * ("\"Sixty thousand?\" Servilia says.") name no sum handed.
 */
function quotationAfter(r: Reading, i: number): string | undefined {
  const s = r.narration[i]!;
  for (let j = i + 1; j <= i + 3; j++) {
    const n = r.narration[j];
    if (!n) return undefined;
    if (n.line !== s.line) return j === i + 1 && n.line <= s.line + 2 && /^\s*"…"/.test(n.narr) && saidByPayer(s, n) ? quotedIn(n.text) : undefined;
    const lead = THE_THING_ITSELF.exec(n.narr)?.[0].length ?? 0;
    const rest = n.narr.slice(lead);
    if (rest.includes('"…"') && rest.replace(/"…"/g, '').trim() === '') return n.text.slice(lead);
    if (rest.includes('"…"') && saidByPayer(s, n)) return quotedIn(n.text.slice(lead));
    if (!lead || rest.trim()) return undefined;
  }
  return undefined;
}

/** Whether quotation sentence `q`'s said-tag names, or stands for, the doer of paying sentence `s`. */
function saidByPayer(s: Narration, q: Narration): boolean {
  if (!q.said && !q.pronoun) return false;
  const payer = deedOf(s)?.id;
  return payer !== undefined && deedOf(q)?.id === payer;
}

/** The words quoted in a sentence, its said-tag left out. */
const quotedIn = (text: string) => [...text.matchAll(/["“]([^"”]*)["”]/g)].map((m) => m[1]!.trim()).join(' ');

/** Verbs that are paying whatever their object: "In the end Clodius paid." (PAYS also has verbs of handing, which move money only with money as their object.) */
const PAYING = /\b(?:pays?|paid|paying|spends?|spent|bribes?|bribed|disburses?|disbursed|repays?|repaid)\b/i;
/** "Pays" that moves no money: "pays no attention", "pays him a visit". */
const FIGURATIVE = /^\s*(?:(?:no|any|little|close|him|her|them)\s+)?(?:attention|heed|court|compliments?|respects?|a\s+visit|tribute|lip\s+service)\b/i;
/** Money named in words: a thing it is carried in, coin, or a unit. */
const MONEY_WORD = new RegExp(String.raw`\b(?:${MONEY_THING}|denarii|denarius|sesterces?|sestertii|talents?)\b`, 'i');
/** Money as the subject of its own going somewhere: "the silver changes hands", "the bags go into his own strongbox", "have gone into his strongbox". */
const MONEY_GOES = new RegExp(String.raw`\b(?:${MONEY_THING}|denarii|sesterces)\s+(?:(?:has|have|is|are)\s+)?(?:change[sd]?\s+hands|(?:goes|go|gone|went|pass(?:es|ed)?|cross(?:es|ed)?)\s+(?:\w+\s+)?(?:into|across|over|to)\b)`, 'i');
/** "It" or "them" as what is handed: money named just before. */
const PRONOUN = /\b(?:it|them)\b/i;
/** Kinds of verb that move a thing from one to another (compliance.ts): handing, sliding it across, taking it. */
const MOVES = new Set(['transfer', 'motion', 'receive']);

/** How the prose shows a required payment: paid now, only money talked of or named somewhere, or no money at all. */
export type PaymentShown = 'paid' | 'talked' | 'none';

/** Where a verb's object ends: a preposition or a stop ("puts his hand on the purse" moves a hand, "drops it on the table" it). */
const OBJECT_END = /\b(?:on|onto|upon|at|to|toward|towards|for|in|into|from|with|by|under|across|over|beside|before|between|through|against|off|inside|near)\b|[,;:.!?—–]/i;

/**
 * Whether narration sentence `i` pays now (paymentAt): a verb that is paying itself, or one whose sum is named
 * (sumsOfPayment), or whose object is money, or "it" or "them" after money named in the two narration sentences
 * before (`moneyBefore`).
 */
function paysNow(r: Reading, i: number, moneyBefore: boolean): boolean {
  const n = r.narration[i]!;
  const at = paymentAt(n);
  if (at === null) return false;
  const verb = PAYING.exec(n.narr.slice(at));
  if ((verb?.index === 0 && !FIGURATIVE.test(n.narr.slice(at + verb[0].length))) || sumsOfPayment(r, i).length > 0) return true;
  const after = n.narr.slice(at + (PAYS.exec(n.narr.slice(at))?.[0].length ?? 0));
  const end = after.search(OBJECT_END);
  const object = end < 0 ? after : after.slice(0, end);
  return MONEY_WORD.test(object) || (PRONOUN.test(object) && (moneyBefore || MONEY_WORD.test(n.narr.slice(0, at))));
}

/**
 * Whether narration sentence `n` moves money: a verb of handing, sliding or taking read with its negation, mood and
 * tense (compliance.ts; a simple past is backstory in a scene told in the present) whose object is money, or "it" or
 * "them" after money named in the sentence or the two narration sentences before; or money going somewhere.
 */
function handsMoney(n: Narration, present: boolean, moneyBefore: boolean): boolean {
  if (MONEY_GOES.test(n.narr)) return true;
  return complianceUses(n.narr, 'narration').some(
    (u) => MOVES.has(u.kind) && !(present && formTense(u.word) === 'past') && (money(u.obj) || (PRONOUN.test(u.obj) && (moneyBefore || money(u.head)))),
  );
}

const money = (t: string) => MONEY_WORD.test(t) || sumsIn(t).length > 0;

/** Whether money is named in the two narration sentences before `n`, within two lines of it. */
function moneyJustBefore(n: Narration): boolean {
  return [n.prev, n.prev?.prev].some((x) => !!x && x.line > 0 && n.line - x.line <= 2 && money(x.narr));
}

/**
 * Whether the scene's prose (not its event or claim texts, line 0) shows money paid now (paysNow, handsMoney).
 * Otherwise 'talked' when any sentence, said or told, imagined or denied, names money or a verb that is paying (a
 * payment promised, refused, imagined, only named: not shown, but not surely missing either), else 'none'.
 */
export function paymentShown(r: Reading): PaymentShown {
  const present = !r.narration.some((n) => n.past);
  for (let i = 0; i < r.narration.length; i++) {
    const n = r.narration[i]!;
    if (n.line <= 0 || n.imagined) continue;
    const before = moneyJustBefore(n);
    if (paysNow(r, i, before) || handsMoney(n, present, before)) return 'paid';
  }
  return moneyNamed(r) ? 'talked' : 'none';
}

/**
 * Whether any sentence of the scene's prose, said or told, names money or a verb that is paying: without one, no
 * payment can be shown (paymentShown is 'none'), which is cheap to tell without reading a verb. Verbs of handing
 * alone ("hands", "pushes back his chair") are no trace.
 */
export function moneyNamed(r: Reading): boolean {
  return r.sentences.some((s) => s.line > 0 && (money(s.text) || PAYING.test(s.text)));
}
