import type { Finding } from '../../../domain/scene.js';
import { finding, type VerifyContext } from '../context.js';
import type { Reading } from '../prose/reader.js';
import { leastDenarii, type Sum } from '../prose/money.js';
import { paymentAt, sumsOfPayment } from '../prose/payment.js';
import { spanOf } from '../prose/span.js';
import { deedOf, payerAt, type Narration } from '../prose/deeds.js';
import { openingPronounPerson, previousSubject } from '../prose/pronoun-doer.js';
import { clauseHead } from '../prose/compliance.js';
import { AFTER_QUOTATION, SUBJECT_SLOT } from '../prose/subjects.js';
import { OPENER } from '../prose/clause-doers.js';
import { possessiveAfter, type PersonIndex } from '../prose/names.js';
import { likelyGender } from '../prose/gender.js';
import { fundPayer, fundsOf } from '../prose/fund-payer.js';
import { formatAmount } from '../../../core/readable.js';

/**
 * Money paid out in the narration beyond what the payer holds (AUR5022). The payer is the
 * sentence's doer, or the last doer before it; sure when that payer's balance is exceeded, or when
 * no account on stage could cover the sum, even at the lowest rate a guessed unit (talents) may
 * have. Sums only talked about (owed, offered, worth) are not paid. An account the packet does not
 * hold is unknown, never 0: a payer without one is judged only against a stage whose every account is known.
 * A fund or treasury named as what pays is the payer (prose/fund-payer.ts): its own balance, never a person's.
 */
export function proseMoneyRules(r: Reading, ctx: VerifyContext): Finding[] {
  const pk = ctx.packet;
  const balance = new Map(pk.retrieved_subgraph.accounts.map((a) => [a.owner, a.denarii]));
  const richest = Math.max(0, ...pk.cast.map((c) => balance.get(c.id) ?? 0));
  // A cast member whose account is not in the packet has unknown means, not none: "no account on stage
  // could cover the sum" is then not known (a pruned fund's payment was an overspend "with 0 available").
  const stageKnown = pk.cast.every((c) => balance.has(c.id));
  const out: Finding[] = [];
  // Whoever pays is named in the narration (a doer is a name of its sentence, or carried over from one).
  const named = [...new Set(r.narration.flatMap((n) => n.mentions.map((m) => m.id)))];
  const funds = fundsOf(pk, ctx);
  for (let i = 0; i < r.narration.length; i++) {
    const s = r.narration[i];
    // Paid now in the narration (prose/payment.ts: not said in a quotation, nor backstory, talk or imagined).
    const payAt = paymentAt(s);
    if (payAt === null) continue;
    // A fund that pays (the annona fund, the treasury) pays from its own account, whoever the sentence names:
    // judged against that balance alone, and not at all when the packet does not hold it (fund-payer.ts).
    const fund = fundPayer(s.narr, payAt, funds);
    if (fund) {
      const over = fund === 'unknown' ? undefined : withTotal(s.text, sumsOfPayment(r, i)).find((sum) => sum.denarii > fund.fund.denarii);
      if (over && fund !== 'unknown') return [overspend(pk.scene_id, over, fund.fund.name, fund.fund.denarii, s)];
      continue;
    }
    for (const sum of withTotal(s.text, sumsOfPayment(r, i))) {
      // A sum within the richest's balance and every named account's is over no payer's: the payer
      // is found only otherwise (finding it tags sentences).
      if (sum.denarii <= richest && named.every((id) => !(sum.denarii > (balance.get(id) ?? Infinity)))) continue;
      // A paying sentence that opens on "he" or "she" pays for the subject of the sentence before it, else the last doer;
      // a doer named after the verb of paying is a later clause's ("She counts … into Terentia's hands; Terentia keeps them").
      const d = deedOf(s);
      const own = d !== null && s.mentions.some((m) => m.id === d.id && m.start < payAt);
      const payer = ownerOfSum(s, sum.text) ?? (own ? null : (subjectOfPaying(s, payAt, r.index, ctx) ?? previousSubject(s, r.index, ctx) ?? openingPronounPerson(s, r.index, ctx))) ?? payerAt(r.narration, i);
      const has = payer !== undefined ? balance.get(payer) : undefined;
      if (has === undefined && !stageKnown) continue;
      const over = has !== undefined ? sum.denarii > has : sum.denarii > richest;
      if (!over) continue;
      const name = payer ? (r.index.byId.get(payer)?.name ?? payer) : 'the payer';
      out.push(overspend(pk.scene_id, sum, name, has ?? richest, s));
      return out;
    }
  }
  return out;
}

/**
 * AUR5022 for `sum` paid by `name` out of `balance`. Sure when even the lowest plausible rate of the
 * sum's unit puts it over the same means (money.ts): a sum of talents whose bounds straddle them stays doubtful.
 */
function overspend(scene: string, sum: Paid, name: string, balance: number, s: Narration): Finding {
  const sure = (sum.least ?? leastDenarii(sum)) > balance;
  // The span points at the sum (a total's first part); a sum named in the quotation after the sentence is not in it.
  return finding('AUR5022', sure ? 'hard' : 'soft', scene, 'prose.overspend', { name, amount: formatAmount(Math.round(sum.denarii)), text: sum.text, balance: formatAmount(balance) }, spanOf(s, sum.lead ?? sum.text));
}

/** A sum paid; a total of parts (withTotal) has its lowest reading and its first part's text. */
export type Paid = Sum & { least?: number; lead?: string };

/**
 * A clause head that is only a joining word before the verb, or one and "he"/"she" (group 1): the verb shares the
 * sentence's subject.
 */
const SHARED_SUBJECT = /^[,;—–\s]*(?:and|then|and then)\s+(?:(he|she)\s+)?(?:\p{L}+ly\s+)?$/iu;

/**
 * The one person named in a subject slot of the clause right before the verb of paying ("Caesar had paid
 * for it that night, … twenty thousand denarii": held-out corpus 22, c19, a pseudo-cleft unfolded),
 * or null: none, or two.
 */
function subjectOfPaying(s: Narration, payAt: number, index: PersonIndex, ctx: VerifyContext): string | null {
  const from = payAt - clauseHead(s.narr, payAt).length;
  // A name in a subject slot or after a subordinator ("watches as Clodius counts out…"), not a possessive ("at Crassus' feet") nor an object.
  const subject = (m: Narration['mentions'][number]) => {
    const before = s.narr.slice(0, m.start);
    return (SUBJECT_SLOT.test(before) || AFTER_QUOTATION.test(before) || OPENER.test(before)) && !possessiveAfter(s.narr.slice(m.end));
  };
  const ids = new Set(s.mentions.filter((m) => m.start >= from && m.end <= payAt && subject(m)).map((m) => m.id));
  // A verb of paying joined to the sentence's first verb with no subject of its own, or with a "he" or "she" of
  // that subject's sex ("Caesar brought the money, and (he) paid it over, forty thousand denarii": held-out corpus
  // 118's mend) pays for that verb's subject, not the last sentence's.
  const shared = ids.size ? null : SHARED_SUBJECT.exec(s.narr.slice(from, payAt));
  if (shared) {
    const first = new Set(s.mentions.filter((m) => m.end <= from && subject(m)).map((m) => m.id));
    const [id] = first;
    const sex = shared[1] ? (shared[1].toLowerCase() === 'he' ? 'male' : 'female') : null;
    if (first.size === 1 && (!sex || likelyGender(id!, index, ctx) === sex)) return id!;
  }
  return ids.size === 1 ? [...ids][0]! : null;
}

/**
 * The person whose money the sum is, named right after it as a possessive ("two hundred thousand
 * denarii of Murena's were paid across the table": held-out corpus 24, a19), or null.
 */
function ownerOfSum(s: Narration, sumText: string): string | null {
  const at = s.narr.indexOf(sumText);
  if (at < 0) return null;
  const after = at + sumText.length;
  const m = s.mentions.find((x) => x.start >= after && /^\s+of\s+(?:the\s+)?$/i.test(s.narr.slice(after, x.start)));
  return m && possessiveAfter(s.narr.slice(m.end)) ? m.id : null;
}

/** Between two parts of one sum: "…sesterces, in bags, and a talent of silver besides", "…denarii and two talents". */
const AND_MORE = /^[^.;:!?]{0,60}\b(?:and|plus)\s+(?:(?:a|an|one|another|the)\s+)?$/i;

/**
 * The sentence's sums, then, when two or more are joined as parts of one payment ("a hundred and twenty
 * thousand sesterces … and a talent of silver besides": held-out corpus 9, s19), their total, with its
 * lowest reading (each part at its unit's lowest rate): each part alone may be within the means.
 */
export function withTotal(text: string, sums: Sum[]): Paid[] {
  if (sums.length < 2) return sums;
  for (let i = 1; i < sums.length; i++) {
    const prevEnd = text.indexOf(sums[i - 1]!.text) + sums[i - 1]!.text.length;
    const at = text.indexOf(sums[i]!.text, prevEnd);
    if (prevEnd < sums[i - 1]!.text.length || at < 0 || !AND_MORE.test(text.slice(prevEnd, at))) return sums;
  }
  const total = { denarii: sums.reduce((a, x) => a + x.denarii, 0), text: sums.map((x) => x.text).join(' and '), doubtful: sums.some((x) => x.doubtful), least: sums.reduce((a, x) => a + leastDenarii(x), 0), lead: sums[0]!.text };
  return [...sums, total];
}
