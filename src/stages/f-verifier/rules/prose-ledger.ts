import type { Finding } from '../../../domain/scene.js';
import { finding, type VerifyContext } from '../context.js';
import type { Reading } from '../prose/reader.js';
import type { Narration } from '../prose/deeds.js';
import { paymentAt, sumsOfPayment } from '../prose/payment.js';
import { sumsIn } from '../prose/money.js';
import { spanOf } from '../prose/span.js';
import { formatAmount } from '../../../core/readable.js';
import { formTense, HABIT, LONG_PAST } from '../prose/tense.js';
import { withTotal, type Paid } from './prose-money.js';

/** A narration sentence that pays now, with the sums it pays (parts and their total). */
interface Paying {
  s: Narration;
  sums: Paid[];
}

/** A memory or a time long past before the verb of paying: "remembers the day Crassus paid…", "last winter he paid…". */
const REMEMBERED = /\b(?:remembers?|remembered|recalls?|recalled|thinks?\s+of|thought\s+of|once|ago|last\s+(?:year|winter|summer|spring|autumn|month|time))\b/i;

/**
 * Whether a paying sentence tells a payment before the scene: a memory, or in a scene told in the present a simple
 * past ("Crassus paid forty thousand for a single slave"): money the ledger moved, if ever, long ago.
 */
function before(s: Narration, payAt: number): boolean {
  const verb = /^[\p{L}'’]+/u.exec(s.narr.slice(payAt))?.[0] ?? '';
  const head = s.narr.slice(0, payAt);
  // Or a habit: "twenty-four thousand sesterces a year in rents, paid on the Kalends of every third month" (held-out corpus 90, ck06).
  if (HABIT.test(s.narr) || LONG_PAST.test(s.narr) || /\b(?:a|per|each|every)\s+(?:(?:second|third|other)\s+)?(?:year|month|week|day)\b/i.test(s.narr)) return true;
  return REMEMBERED.test(head) || /\bhad\s+(?:\p{L}+\s+){0,2}$/iu.test(head) || (!s.past && formTense(verb) === 'past');
}

/** A tenth: below it of the scene's smallest transfer, a sum is small change beside what the scene moves. */
const SMALL_SHARE = 0.1;

/** Two sums the same to the denarius: sesterces are quartered, so "twelve thousand sesterces" is 3,000 denarii. */
const same = (a: number, b: number) => Math.abs(a - b) < 1;

/**
 * Money the narration shows paid now that the scene's transfers do not move (AUR5023): a sum no required transfer
 * has ("a purse of five hundred denarii" to a clerk), or another sum than the transfer's ("counts five thousand
 * denarii onto the table" where the ledger moves 3,000). The ledger commits the scene's transfers, so a script that
 * shows another sum changing hands contradicts what the world will hold. Read with the overspend rule's reading of a
 * payment (prose/payment.ts): a sum owed, offered, refused, demanded, remembered, imagined or only said is not paid,
 * and a debt's total said in speech ("You owe me sixty thousand denarii") is speech; nor is a payment remembered or,
 * in a scene told in the present, told in the simple past (before). A sum whose unit's rate is a
 * guess (talents) is not weighed. Parts that add up to a transfer ("a thousand … then a second thousand …, and the
 * third") pay it.
 *
 * Soft, always. The mismatch is real (the commit applies the planned transfer, whatever sum the script shows), but a
 * Writer varies a sum as it varies a gesture: three of the sixteen near-miss controls of the first held-out corpus,
 * written by hand as sound scenes, pay Crassus five or ten thousand where the packet's transfer is three, and a hard
 * finding would send each to repair. Nor is whose money a tip was, or whether the ledger should carry it, a question
 * the prose settles. The author sees the finding and the sum it quotes.
 */
export function proseLedgerRules(r: Reading, ctx: VerifyContext): Finding[] {
  const pk = ctx.packet;
  const transfers = pk.constraints.required_deltas.filter((d) => d.op === 'transfer' && d.path === 'assets.cash_ledger' && typeof d.amount === 'number');
  // A scene whose plan moves no money: a payment in it is the Writer's invention, judged against the payer's means
  // (AUR5022) only; flagging every sum would flag the sound within-means payments of the held-out corpora and fixtures.
  if (!transfers.length) return [];
  // Below a tenth of the smallest transfer a sum is small change (four denarii for a copy of a charge, two for
  // incense, a coin pressed into every palm: held-out corpora 32, 51, 69), which no ledger keeps.
  const small = SMALL_SHARE * Math.min(...transfers.map((t) => t.amount!));
  const paying: Paying[] = [];
  for (let i = 0; i < r.narration.length; i++) {
    const s = r.narration[i]!;
    const payAt = s.line > 0 ? paymentAt(s) : null;
    if (payAt === null || before(s, payAt)) continue;
    // The sums its narration names; a sum said in its own quotation is said, not paid ('"…forty thousand denarii…,"
    // Crassus said, and lifted his cup'), while one said right after a handing names what was handed (payment.ts).
    const told = sumsIn(s.narr);
    if (!told.length && sumsIn(s.text).length) continue;
    const sums = withTotal(s.narr, told.length ? told : sumsOfPayment(r, i));
    if (sums.length && !sums.some((x) => x.doubtful) && Math.max(...sums.map((x) => x.denarii)) >= small) paying.push({ s, sums });
  }
  const paysTransfer = (p: Paying) => p.sums.some((x) => transfers.some((t) => same(x.denarii, t.amount!)));
  const stray = paying.filter((p) => !paysTransfer(p));
  if (!stray.length) return [];
  // The largest sum of each stray sentence (its total when its parts are one payment), added over the scene.
  const largest = (p: Paying) => Math.max(...p.sums.map((x) => x.denarii));
  const total = stray.reduce((a, p) => a + largest(p), 0);
  if (transfers.some((t) => same(total, t.amount!))) return [];
  const p = stray[0]!;
  const sum = p.sums.find((x) => same(x.denarii, largest(p)))!;
  const moved = transfers.map((t) => formatAmount(t.amount!)).join(', ');
  return [finding('AUR5023', 'soft', pk.scene_id, 'prose.unledgered_payment', { amount: formatAmount(Math.round(sum.denarii)), text: sum.text, moved }, spanOf(p.s, sum.lead ?? sum.text))];
}
