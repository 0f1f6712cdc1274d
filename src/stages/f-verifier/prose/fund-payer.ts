import type { ScenePacket } from '../../../domain/packet.js';
import type { VerifyContext } from '../context.js';
import { SUBJECT_SLOT } from './subjects.js';
import { escapeRegExp } from '../../../core/regex.js';

/**
 * A payer that is no person: a ledger account no character owns (an institution's fund, a faction's
 * chest), named in the narration as what pays ("The annona fund pays Clodius fifty thousand
 * denarii") or what the money comes out of ("paid out of the grain fund"). Such a payment is over or
 * within that account's means, not the richest cast member's nor the last doer's: a fund holding
 * 600,000 paying 50,000 to a man holding 32,000 was an overspend, and 900,000 paid by it in a scene
 * with Crassus (4.8 million) was none.
 */
export interface Fund {
  id: string;
  denarii: number;
  /** How a finding names it: its id in words ("the annona fund"). */
  name: string;
  /** The words that name it: its id's words and their English glosses ("annona" → "grain"). */
  words: ReadonlySet<string>;
}

/** The payer a paying sentence names as a fund: one of the packet's, or `unknown` (a fund the packet does not hold, or which of several). */
export type FundPayer = { fund: Fund } | 'unknown';

/**
 * Latin names of the Republic's public money and their English: the starter kit's institutions
 * (and those `import` keeps, store's import/assets.ts) are `aerarium` and `annona_fund`, and a
 * model writes "the treasury", "the grain fund".
 */
const GLOSSES: Record<string, readonly string[]> = { aerarium: ['treasury'], annona: ['grain'], fiscus: ['treasury'] };
/** Nouns that name public money whatever its account: "the fund", "the public treasury". Not a chest or a purse, which a man owns. */
const GENERIC = ['fund', 'funds', 'treasury', 'aerarium', 'exchequer'];

/** The packet's accounts that no character the scene can know owns, with the words that name each. */
export function fundsOf(pk: ScenePacket, ctx: VerifyContext): Fund[] {
  const people = new Set([...pk.cast.map((c) => c.id), ...pk.retrieved_subgraph.characters.map((c) => c.id), ...pk.dead.map((d) => d.id), ...(ctx.characters ?? []).map((c) => c.id)]);
  return pk.retrieved_subgraph.accounts
    .filter((a) => !people.has(a.owner) && !people.has(a.id))
    .map((a) => {
      const own = a.id.split('_').filter(Boolean);
      return { id: a.id, denarii: a.denarii, name: `the ${own.join(' ')}`, words: new Set([...own, ...own.flatMap((w) => GLOSSES[w] ?? [])]) };
    });
}

/**
 * "the annona fund", "the public grain fund", "the divisores": up to three words before the naming
 * noun, as many as end on one ("the annona fund", not "the annona").
 */
const phrase = (heads: readonly string[]) => String.raw`\bthe\s+((?:[\p{L}'’-]+\s+){0,3}(?:${heads.map(escapeRegExp).join('|')}))\b`;
/** Between a subject fund and its verb of paying: its men ("'s clerks"), an adverb, an auxiliary. */
const TO_VERB = /^(?:['’]s?\s+(?:[\p{L}-]+\s+){1,2}?)?(?:(?:\p{L}+ly|has|have|had|now|then|duly|at once)\s+)*$/iu;

/**
 * The fund a paying sentence pays from, or null when it names none as the payer. `narr` is the
 * sentence with its quotations blanked, `payAt` where its verb of paying stands. A fund is the payer
 * when it is the paying clause's subject (in a subject slot, with at most its men or an adverb between
 * it and the verb), or the money is paid "from", "out of" or "by" it after the verb, in the same clause.
 */
export function fundPayer(narr: string, payAt: number, funds: readonly Fund[]): FundPayer | null {
  const heads = [...new Set([...GENERIC, ...funds.flatMap((f) => [...f.words])])];
  const named = (words: string): FundPayer => resolve(words.toLowerCase().split(/\s+/), funds);
  for (const m of narr.slice(0, payAt).matchAll(new RegExp(phrase(heads), 'giu'))) {
    if (SUBJECT_SLOT.test(narr.slice(0, m.index)) && TO_VERB.test(narr.slice(m.index + m[0].length, payAt).trimStart())) return named(m[1]!);
  }
  const rest = narr.slice(payAt).split(/[;.!?]/)[0]!;
  const source = new RegExp(String.raw`\b(?:from|out\s+of|by)\s+${phrase(heads)}`, 'iu').exec(rest);
  return source ? named(source[1]!) : null;
}

/** The one fund the phrase's words name: by a word only it has, else by its naming noun when no other fund shares it. */
function resolve(words: readonly string[], funds: readonly Fund[]): FundPayer {
  const hits = funds.filter((f) => words.some((w) => f.words.has(w)));
  if (hits.length === 1) return { fund: hits[0]! };
  const distinct = hits.filter((f) => words.some((w) => !GENERIC.includes(w) && f.words.has(w)));
  return distinct.length === 1 ? { fund: distinct[0]! } : 'unknown';
}
