import type { Narration } from './deeds.js';
import type { ProseSentence, Reading } from './reader.js';
import { clauseAt } from './clauses.js';
import { MONEY_CONTAINER, sumsIn } from './money.js';

/**
 * Whether the prose shows money changing hands (a required ledger transfer, rules/prose-beats.ts).
 * The opposite bias to the overspend rule's (prose-money.ts): there a doubtful payment must not
 * fail a scene, here a payment written in any ordinary way must count. So a mention of the debt
 * beside the payment ("counts out three thousand against the debt") is still a payment, while what
 * is only named, demanded, promised, refused, imagined or put off is not.
 */
export type Shown = 'shown' | 'weak' | 'absent';

/**
 * What money is: coin, a sum's unit, or what it is carried in (money.ts MONEY_CONTAINER). Silver and gold
 * are money only as nouns: "the silver changes hands", not "counting the silver cups" (the sideboard of
 * the dining room the held-out corpora's SC05 is set in). Not the words of money talked about ("sets the
 * price", "names the sum").
 */
const METAL = String.raw`(?:silver|gold)(?=\s*(?:[,.;:!?)"”—–]|$)|\s+(?:in|on|into|onto|across|to|from|of|and|or|with|for|at|he|she|they|coins?|pieces?|denarii|talents?)\b)`;
const MONEY_NOUNS = String.raw`notes?\s+of\s+hand|bills?\s+of\s+exchange|money|coins?|coinage|denarii|denarius|sesterces?|sestertii|talents?|cash|payment|instalment|installment|satchels?|wallets?|${MONEY_CONTAINER}`;
const MONEY = String.raw`(?:${MONEY_NOUNS}|${METAL})`;
const MONEY_WORD = new RegExp(String.raw`\b${MONEY}\b`, 'i');
/** A tip to a bystander ("flicks a coin to the boy"): money moves, but no sum a ledger records. */
const TIP = /\b(?:a|one|a single|an)\s+(?:small\s+|bronze\s+|copper\s+)?(?:coin|denarius|as|sestertius|sesterce)\b/i;

/** Verbs that mean money moves whatever their object ("pays", "spends", "buys", "counts out"). */
const MONEY_VERB = /\b(?:pays?|paid|paying|pays?\s+out|spends?|spent|spending|buys?|bought|buying|bribes?|bribed|disburses?|disbursed|settles?|settled|settling|counts?\s+out|counted\s+out|counting\s+out|reimburses?|repays?|repaid)\b/i;
/** Verbs of handing, lending, placing or taking, which move money only with money as their object ("tosses the purse", "lends Cicero money"). */
const HANDLING_VERB = /\b(?:hand(?:s|ed|ing)?|gives?|gave|giving|lends?|lent|lending|loans?|loaned|advances?|advanced|pass(?:es|ed|ing)|slides?|slid|sliding|push(?:es|ed|ing)?|drop(?:s|ped|ping)?|toss(?:es|ed|ing)?|throws?|threw|throwing|flings?|flung|tip(?:s|ped|ping)?|empties|emptied|emptying|pour(?:s|ed|ing)?|spill(?:s|ed|ing)?|spilt|sets?|setting|puts?|putting|plac(?:es|ed|ing)|lays?|laid|laying|count(?:s|ed|ing)?|press(?:es|ed|ing)?|sends?|sent|sending|scatter(?:s|ed|ing)?|stack(?:s|ed|ing)?|weigh(?:s|ed|ing)?|takes?|took|taken|taking|receiv(?:es|ed|ing)|accept(?:s|ed|ing)?|pocket(?:s|ed|ing)?|collect(?:s|ed|ing)?|sweeps?|swept|sweeping|gather(?:s|ed|ing)?|scoop(?:s|ed|ing)?|thumps?|heav(?:es|ed|ing)|haul(?:s|ed|ing)?|lift(?:s|ed|ing)?|shov(?:es|ed|ing)|deposit(?:s|ed|ing)?|deliver(?:s|ed|ing)?|brings?|brought|bringing|unties|untied|untying|unknots?|unknotted)\b/i;
/**
 * Money as the subject of its own moving, to somewhere: "the silver changes hands", "the coins go into the
 * chest", "three thousand of Clodius' denarii have gone into his strongbox", "10,000 denarii go from Crassus to the
 * divisores", "the purse lands on the table" (not
 * "the purse goes with him", "the coins rattle in his purse").
 */
// The metal is a noun here, the subject of the verb that follows it.
const MONEY_MOVES = new RegExp(String.raw`\b(?:${MONEY_NOUNS}|silver|gold)\s+(?:(?:is|are|was|were|has|have)\s+)?(?:changes?\s+hands|changed\s+hands|(?:goes|go|gone|went|passes|pass|passed|crosses|cross|crossed|disappears?|disappeared|vanishes|vanish|vanished|lands?|landed|clinks?|clinked|rattles?|rattled|spills?|spilled|slides?|slid|moves?|moved)\s+(?:(?:\w+ly|straight|back)\s+)?(?:into|onto|across|over|to|on|upon|through|from)\b)`, 'i');
/** Paying from one's own means: "at his own expense", "out of her own purse". */
const OWN_MEANS = /\b(?:at|out of|from)\s+(?:his|her|their|my|our|your)\s+own\s+(?:expense|cost|purse|pocket|money|funds?|coffers?|chest|strongbox)\b/i;

/**
 * Words before the verb, in its clause, that say it is not done here: denied, possible, wished,
 * ordered, put off ("does not pay", "could pay", "means to pay", "will pay", "if he pays").
 */
const NOT_DONE = /\b(?:not|never|no one|nobody|nothing|neither|nor|could|would|might|should|must|may|can|cannot|will|shall|going to|about to|ready to|means? to|meant to|wants? to|wanted to|tries to|tried to|refuses? to|refused to|offers? to|offered to|promises? to|promised to|(?:asks?|asked|demands?|demanded)\s+(?:\w+\s+)?(?:to|for)|if|unless|whether|almost|nearly|pretends? to|as if|as though)\b|['’]ll\b|n['’]t\b/i;
/** A clause of time or cause before the verb has its own modal: "Before he can speak, Clodius pays". */
const OTHER_CLAUSE = /\b(?:before|after|until|till|when|while|because|since|once)\b[^,;]*,/gi;
/** A past perfect or "used to" right before the verb: a payment of another time ("had paid him last spring"). */
const BACKSTORY = /\b(?:had|used to|once)\s+(?:[\p{L}'’]+\s+){0,2}$/iu;
/** How many words before a verb a denial, a modal or a wish governs it ("does not pay"; not "Clodius, who has never paid a debt on time, pays"). */
const REACH = 5;

/** The last REACH words of a clause before the verb at `at` (clauses.ts), past any clause of time or cause of its own. */
function before(narr: string, at: number): string {
  const c = clauseAt(narr, at);
  const head = narr.slice(c.start, at).replace(OTHER_CLAUSE, ' ');
  return head.split(/\s+/).slice(-REACH - 1).join(' ');
}

/** Where a verb's object ends: a preposition of place or direction ("puts his hand on the purse" moves a hand). */
const OBJECT_END = /\b(?:on|onto|upon|at|to|toward|towards|for|in|into|from|with|by|under|across|over|beside|before|between|behind|through|against|off|around|round|inside|near|beneath|below|above)\b|[,;:—–]/i;
const PARTICLE = /^\s+(?:in|out|up|down|back|forward|along|over)\b(?=\s+(?:a|an|the|his|her|their|its|some|two|three|four|five|six|seven|eight|nine|ten|\d))/i;
/** Money kept, not handed: taken out, put away or back, set aside ("takes out his purse", "puts the purse away again"). */
const KEPT = /^\s+out\b|^\s+(?:[\p{L}'’-]+\s+){0,4}?(?:away|back|aside)\b/iu;
/** A figure with no unit, a sum when the sentence says what moves or what was received ("Three thousand are handed over"). */
const FIGURE = /\b(?:thousand|hundred|\d[\d,.]*)\b/i;
/** A writing that may carry a sum: an order on a money-changer, a note, a tablet. */
const INSTRUMENT = /\b(?:tablets?|notes?|orders?|drafts?|bills?|letters? of credit)\b/i;
/** A passive's verb: "are counted out", "is handed over"; its subject is what moves. */
const PASSIVE = /\b(?:is|are|was|were|been|being)\s+(?:\w+ly\s+)?$/i;

/** The words before a verb that make money its object in a relative clause ("a bag his freedman", "a leather bag, heavy, which he"). */
const RELATIVE_OBJECT = new RegExp(String.raw`\b${MONEY}(?:\s+(?:that\s+|which\s+)?|[^.;:!?]{0,30}?\b(?:that|which)\s+)(?:[\p{L}'’-]+\s+){1,3}$`, 'iu');

/**
 * Whether money is what a verb of handling moves: named in its object (up to the first preposition:
 * "drops the purse on the table", not "puts his hand on the purse"), or in the subject of a passive ("three
 * thousand denarii are counted out"), or, when the object is "it" or "them", named earlier in the sentence
 * or in the narration sentence before it ("pulls out a heavy purse, and sets it on the table").
 */
function movesMoney(n: Narration, at: number, verb: string): boolean {
  const narr = n.narr;
  if (KEPT.test(narr.slice(at + verb.length))) return false;
  // A verb's particle is no preposition: "brought in a heavy bag", "counts out the coins".
  const after = narr.slice(at + verb.length).replace(PARTICLE, ' ');
  const object = after.slice(0, after.search(OBJECT_END) < 0 ? after.length : after.search(OBJECT_END));
  const money = (t: string) => (MONEY_WORD.test(t) || sumsIn(t).length > 0) && !TIP.test(t);
  if (money(object)) return true;
  const clause = clauseAt(narr, at);
  const head = narr.slice(clause.start, at);
  // A passive's subject is what moves, a bare figure too ("Three thousand are handed over at last, in worn silver").
  if (PASSIVE.test(head) && (money(clause.text) || FIGURE.test(head))) return true;
  // Money as the object of a contact or relative clause: "a bag his freedman brought in", "a leather bag, heavy, which he sets".
  if (RELATIVE_OBJECT.test(head)) return true;
  // A writing that carries the sum: "scratched on it an order … for three thousand denarii, … and pushed the tablet across".
  if (INSTRUMENT.test(object) && sumsIn(narr).length > 0) return true;
  if (!/\b(?:it|them)\b/i.test(object)) return false;
  // The two narration sentences before, in this paragraph or the one before it (a line of speech between: held-out corpus 24, a03;
  // "Three thousand denarii, stacked in hundreds … Crassus does not touch it. He nods to the steward, who counts it again": 58, be03).
  const before = [n.prev, n.prev?.prev].filter((x): x is Narration => !!x && n.line - x.line <= 2).map((x) => x.narr);
  return [narr.slice(0, at), ...before].some(money);
}

/** "Pays" that moves no money: "pays no attention", "pays him a visit", "pays for it with his life". */
const FIGURATIVE = /^\s+(?:(?:no|any|little|scant|close|him|her|them|his|their)\s+)?(?:attention|heed|court|compliments?|respects?|a\s+visit|tribute|lip\s+service|for\s+it\s+with)\b/i;

/** A simple past in a scene told in the present is backstory (tense.ts); told in the past, it is now. */
const SIMPLE_PAST = /^(?:paid|spent|bought|bribed|disbursed|settled|repaid|reimbursed|gave|lent|loaned|advanced|passed|slid|pushed|dropped|tossed|threw|flung|tipped|emptied|poured|spilled|spilt|placed|laid|counted|pressed|sent|scattered|stacked|weighed|took|received|accepted|pocketed|collected|swept|gathered|scooped|shoved|deposited|delivered|brought|went|passed|crossed|disappeared|vanished|landed|clinked|rattled|moved|changed)$/i;
/** A past after one of these is a passive or a perfect of now ("is paid", "has counted out"). */
const NOW_AUX = /\b(?:is|are|has|have|been|being|gets?)\s+(?:\w+ly\s+)?$/i;

/** Whether the narration sentence shows money moving now: which verb, or null. */
function paidIn(n: Narration): string | null {
  if (n.line <= 0 || n.imagined || /\?\s*$/.test(n.narr)) return null;
  const narr = n.narr;
  for (const re of [MONEY_VERB, HANDLING_VERB, MONEY_MOVES, OWN_MEANS]) {
    const g = new RegExp(re.source, 'gi');
    for (const m of narr.matchAll(g)) {
      const at = m.index!;
      const head = before(narr, at);
      if (NOT_DONE.test(head) || BACKSTORY.test(head)) continue;
      const verb = m[0].split(/\s+/).find((w) => SIMPLE_PAST.test(w));
      if (verb && !n.past && !NOW_AUX.test(narr.slice(0, at + m[0].indexOf(verb)))) continue;
      if (re === HANDLING_VERB && !movesMoney(n, at, m[0])) continue;
      if (re === MONEY_VERB && (FIGURATIVE.test(narr.slice(at + m[0].length)) || (TIP.test(clauseAt(narr, at).text) && !sumsIn(n.text).length))) continue;
      return m[0];
    }
  }
  return null;
}

/** Words said while money is handed over: "Here is your money", "Count it", "Received, three thousand denarii"; not "There is no money". */
const SAID_HANDING = /\b(?:here(?:['’]s| is| are)|there(?:['’]s| is| are))(?!\s+(?:no|not|nothing|none)\b)|\b(?:take it|take them|count it|count them|weigh it|received|paid in full|i (?:have|['’]ve) paid|i pay)\b/i;
/** A receipt's figure needs no unit: "Three thousand received." */
const RECEIPT = /\b(?:received|paid)\b/i;
const RECEIVED_FIGURE = /\b(?:thousand|hundred|\d[\d,.]*)\s+(?:denarii\s+|sesterces\s+)?received\b|\breceived[,:.]?\s+(?:\w+\s+){0,2}(?:thousand|hundred|\d[\d,.]*)\b/i;

/** Whether a sentence hands money over in words (said, or a receipt written), with money named in it or in the other sentences of its line. */
function handedInWords(s: ProseSentence, line: readonly ProseSentence[]): boolean {
  const m = SAID_HANDING.exec(s.text);
  if (s.line <= 0 || s.imagined || !m || /\?\s*$/.test(s.text) || NOT_DONE.test(s.text.slice(0, m.index))) return false;
  return line.some((t) => MONEY_WORD.test(t.text) || sumsIn(t.text).length > 0 || (RECEIPT.test(m[0]) && FIGURE.test(t.text)));
}

/**
 * How the prose shows a payment of `amount` denarii: `shown` when a narration sentence moves money now
 * (or the words said hand it over), `weak` when the narration only names that sum, on the table or in a
 * bag, with no verb that moves it, `absent` otherwise (money only named, owed, asked for, promised).
 */
export function paymentShown(r: Reading, amount: number): Shown {
  if (r.narration.some((n) => paidIn(n) !== null)) return 'shown';
  // A receipt written in the narration, read paragraph by paragraph: "writes a line in the book: three thousand received",
  // "presses his signet ring into the wax. Received. Three thousand." (held-out corpus 47, at03).
  const paragraphs = new Map<number, string>();
  for (const n of r.narration) if (n.line > 0 && !n.imagined) paragraphs.set(n.line, `${paragraphs.get(n.line) ?? ''} ${n.narr}`);
  if ([...paragraphs.values()].some((t) => RECEIVED_FIGURE.test(t))) return 'shown';
  // Words said, and narration that is only a receipt's words ("Received, three thousand. Nine outstanding.").
  const lines = r.sentences.filter((s) => s.line > 0 && (s.kind === 'speech' || /^\W*(?:received|paid)\b/i.test(s.text)));
  if (lines.some((s) => handedInWords(s, lines.filter((t) => t.line === s.line)))) return 'shown';
  const sum = (n: Narration) => sumsIn(n.narr).some((x) => Math.abs(x.denarii - amount) <= amount / 100);
  return r.narration.some((n) => n.line > 0 && !n.imagined && sum(n) && !NOT_DONE.test(n.narr)) ? 'weak' : 'absent';
}
