import { parsed } from './parse.js';
import { ALONG, FOLLOW, givenAsReason, mayComply, MOTION, RECEIVE, receiverKeeps, REFUSE, STEMS, TRANSFER, type VerbUse, YIELD } from './compliance-verbs.js';
import { gripped } from './grip.js';
import { cuePrefixLength, spokenCueLength } from '../dialogue.js';
import { clauseAt } from './clauses.js';
import { everyTimeBefore, formerly, LONG_PAST, SAME_FORM_PAST } from './tense.js';
import { ABSTRACT, concreteObject, GIVEN_AWAY, PUT_BACK } from './object-phrase.js';
import { GERUND_READ, READ, readsHanded } from './reading.js';
import { movesToSomeone } from './moved-to.js';
import { MODAL_AUX } from './moods.js';
import { AFTER_COLON_BARE, BELIEVED, JOINED_TO_ORDER, OPENS_BARE, PARTICIPLE_ALONE, PERCEIVE_OR_CAUSE, SHARED_AUX, SHARED_MODAL } from './verb-mood.js';

/**
 * Whether a sentence shows someone giving way to an attempt on them: yielding, handing over,
 * taking what is handed, a crowd following. Read verb by verb with compromise, so a negation
 * ("does not hand it over"), a modal or future ("would have given", "will not yield"), an
 * imperative ("Give it to him": it asks, it does not show), an infinitive ("refuses to give"), a
 * near-miss adverb ("almost hands it over") or a negative subject ("nobody follows") is not a
 * depiction of success. A refusal in the same sentence ("hands it back, refusing") voids it. The verbs
 * themselves, by kind, are in compliance-verbs.ts.
 */

/**
 * Going "with them" is going with the crowd, which may be leaving the leader ("The porters began to
 * move, but away from him… His eleven men went with them": held-out corpus 32, ae20); after or
 * behind them, or with him, is following.
 */
const WITH_SOMEONE = /^\s*(?:(?:in|up|out|along|on|too|all)\s+){0,2}(?:with\s+(?:him|her|\p{Lu}[\p{L}'’]+)\b|(?:after|behind)\s+(?:him|her|them|\p{Lu}[\p{L}'’]+)\b|at\s+(?:his|her|their)\s+backs?\b)/u;
/**
 * Others going away before a following of "them" (held-out corpus 42, ao05: "The women with baskets
 * drifted away in twos and threes, and then the porters followed them"): who follows those who
 * leave leaves too.
 */
const GOING_AWAY = /\b(?:(?:drift|wander|slip|melt|trickl|head|go|sidl|stroll|shuffl|slink)(?:s|es|e|ed|ped|d|ing)?|went|gone)\s+(?:\w+\s+)?(?:away|off|home)\b|\b(?:dispers|scatter)(?:e|es|ed|ing|s)?\b/i;
/**
 * What a crowd takes up to go back to work, not a cause taken up: its loads ("The porters take up their sacks and walk
 * away around his barrel": held-out corpus 119, dn18).
 */
const BURDEN = /^\s*(?:(?:their|his|her|the|its)\s+)?(?:sacks?|loads?|baskets?|burdens?|bundles?|bales?|tools?|work|poles?|oars?|nets?|packs?|jars?|amphorae)\b/i;

/**
 * A following with no one to follow, whose words after it go back or away ("The porters followed, back to
 * the barges, and the sailors to their ships": held-out corpus 61, bh16): the crowd follows the others off.
 */
const BACK_AWAY = /^\S+[,\s]+(?:back\s+to|home\b|away\b|off\s+to)/i;
/** A word that joins clauses or opens a phrase: no head of a noun phrase ("the torch and his men answer"). */
const NOT_JOIN = String.raw`(?!(?:and|or|but|then|while|as|when|so|to|of|in|at|on|with|for|from)\b)`;
/**
 * A contact relative clause: its subject (a pronoun, or "a woman", "his own men in Rome") right after a noun phrase, the
 * verb's object being that phrase's head ("the signal, the one they agreed in the tavern", "the look
 * she gave a slave", "The look a woman gives a man": held-out corpora 26, i05, 31, ad15, and 37,
 * aj07): the verb says which thing the head is, not that anything is yielded or handed now. Read for
 * a yielding verb when the head is a thing agreed (AGREED: so "In the end he gave in", "this time he
 * lets go" stay yieldings), for a handing when the head is abstract, and for a following always: "the
 * sign his own men in Rome know and answer" says which sign it is (held-out corpus 46, as05), not
 * that a crowd here takes it up.
 */
const CONTACT_HEAD = new RegExp(
  String.raw`\b(?:[Tt]he|[Aa]n?|[Tt]his|[Tt]hat|[Tt]hese|[Tt]hose)\s+(?:${NOT_JOIN}[\p{L}'’-]+\s+)?(${NOT_JOIN}[\p{L}'’-]+)\s+` +
    String.raw`(?:[Hh]e|[Ss]he|[Tt]hey|[Ww]e|I|[Yy]ou|(?:a|an|the|his|her|their|its|our|your|my)\s+(?:own\s+)?[\p{Ll}'’-]+(?:\s+(?:of|in|at|from)\s+(?:the\s+)?\p{Lu}[\p{L}'’-]*)?)\s+(?:\p{Ll}+\s+and\s+)?$`,
  'u',
);
const AGREED = /^(?:one|ones|same|thing|things|terms|price|bargain|deal|plan|signal|sum)$/i;
const contactHead = (before: string): string => CONTACT_HEAD.exec(before)?.[1]?.toLowerCase() ?? '';
/** A clause of what was said or sworn, opened by "that" after the verb of saying. */
const REPORTED_CLAUSE = /\b(?:said|says|say|told\s+\p{L}+|tells\s+\p{L}+|whispered|whispers|swore|swears)\b[^.;!?]*\bthat\s+[^.;!?]*$/iu;
/**
 * A verb of yielding right after a quotation and its speaker is a way of saying it ('"No," Caesar
 * agrees.', held-out corpus 9, s07): what is agreed is the line, which is speech.
 */
const SAID_TAG = /^["”]\s*(?:(?:\p{Lu}[\p{L}'’-]*\s+){1,3}|(?:he|she|they|I|we)\s+)$/u;

/**
 * Taking a thing from one's own servant ("takes the cakes from her slave"), taking it away (a hand
 * withdrawn, "takes it away as if the table were hot") or out (one's own things brought out, "He
 * takes the tablets out": held-out corpus 13, n12) or off ("He takes it off and gives it to her", the ring: held-out corpus 9,
 * s16), or food from or off a plate or dish ("takes an olive from
 * his plate": held-out corpus 70, bq18; "off his plate": 92, cm07): household business, a withdrawal or a showing, not the prize
 * of the attempt received.
 */
const HOUSEHOLD = /\b(?:from|off)\s+(?:his|her|their|the|a)\s+(?:own\s+)?(?:slaves?|servants?|maids?|attendants?|steward|freedman|doorkeeper|porter|nurse|secretary|boy|girl|plate|dish|bowl|platter)\b|^\s*(?:\S+\s+){1,3}?(?:away\b(?!\s+with\b)|out\b(?!\s+of\b)|off\b(?!\s+(?:the|a|an|his|her|their|its|my|your)\b))/i;
/**
 * Taking a thing off one's own body, clothes or purse ("takes the ring from her finger", "from the
 * fold of her palla", "from inside his cloak", "from the fold of her stola": held-out corpus 124, ds04) receives nothing.
 */
const OWN_BODY = /\b(?:from|off|out of)\s+(?:(?:inside|within|under|beneath)\s+)?(?:(?:the|a)\s+(?:[\p{L}-]+\s+){0,2}?(?:of|in)\s+)?(his|her|their|my|your|its)\s+(?:own\s+)?(?:finger|fingers|hand|hands|neck|wrist|belt|hair|arm|sleeve|head|shoulder|shoulders|girdle|toga|palla|stola|mantle|robe|shawl|sash|tunic|cloak|fold|folds|lap|bosom|breast|purse|pouch|satchel|wallet)\b/iu;
/** The subject pronoun a possessive in a fronted phrase must agree with, to be the taker's own ("From his toga he takes"). */
const OWN_PRONOUN: Record<string, string> = { his: 'he', her: 'she', their: 'they', my: 'i', your: 'you' };
/** A phrase fronted before the verb of taking that names the taker's own body, clothes or purse as the source. */
function frontedOwn(before: string): boolean {
  const own = /^[\s,]*(?:(?:and|then|so|but|\p{L}+ly),?\s+)*/iu.exec(before)![0].length;
  const m = OWN_BODY.exec(before.slice(own));
  const subject = /\b(he|she|they|I|you)\s+(?:\p{L}+ly\s+)?$/iu.exec(before)?.[1];
  return !!m && m.index === 0 && !!subject && OWN_PRONOUN[m[1]!.toLowerCase()] === subject.toLowerCase();
}
/**
 * A yielding whose subject is a feeling or faculty ("Something in Fulvia gives way", "his nerve
 * gives way", "her voice gives out", "something in his face gives way": held-out corpus 91, cl14) is a person failing
 * inside, not the attempt coming off.
 */
const INNER = /\b(?:something|anything)\s+(?:in|inside|within)\s+(?:(?:his|her|their|the)\s+)?\S+\s*$|\b(?:nerve|courage|heart|voice|knees|legs|strength|composure|patience|temper)\s*$/i;
/** Taking a sign or a slight "as" something reads it, it receives nothing ("takes it as an omen", "takes it badly"). */
const READS_AS = /^\s*(?:(?:it|them|this|that)\s+(?:as|for|amiss|badly|ill|hard|personally|lightly|to heart|to mean)|the \p{L}+\s+(?:as an?|amiss|badly|ill|hard|personally|lightly|to heart))\b/iu;
/** A crowd or a band of men, the doer of a following (and the owner of a street taken: outcome.ts). */
export const GROUP = /\b(?:crowd|crowds|mob|men|street|streets|people|plebs|throng|rabble|they|lane|lanes|Subura|quarter|tribes|voters|boys|gangs?|crews?|followers|everyone|all of them)\b/i;
/**
 * A crowd as a clause's subject ("The men of the quay surge …"): compromise reads "quay surge" as one
 * noun, so the phrase is read as "they", as subjects.ts reads a name as "He". At a clause's start, or
 * wherever "the whole" or "the entire" makes it a crowd ("when he raises his arm the whole quay
 * answers him": held-out corpus 18, g17).
 */
const GROUP_NP = /(^|[,;:—–]\s*|\band\s+|\bthen\s+|(?<=\s)(?=the\s+(?:whole|entire)\s))(?:the\s+|all\s+the\s+|a\s+|some\s+)?(?:(?!(?:no|not|none|few|neither)\b)[\p{L}-]+\s+)?(?:crowd|crowds|mob|men|people|plebs|throng|rabble|porters|dockers|sailors|boys|gangs?|crews?|followers|quay|harbour|waterfront|docks|wharf|wharves|pier|jetty)(?:\s+(?:of|from|on|in|at)\s+the\s+[\p{L}-]+)?(?=\s)/giu;
/** Things that take what is thrown to them, not people: "the flame takes it", "the river takes them" (held-out corpus 48, au04). */
export const ELEMENTS = String.raw`(?:flames?|fires?|wind|sea|river|water|waves?|tide|current|earth|ground|smoke|dark|darkness|night)`;
const ELEMENT_TAKER = new RegExp(String.raw`\b(?:the|a)\s+${ELEMENTS}\s+$`, 'i');
/**
 * Whoever would do it, not someone doing it: "the man who handed them over walks out clean",
 * "Whoever hands them over tonight…" (held-out corpus 49, av07 and av09), and in speech the men a
 * promise is made to ("A hundred thousand denarii to the men who follow me up the road": 68, bo12).
 */
const ANYONE_WHO = /\b(?:whoever|(?:the|any|a)\s+(?:man|woman|one|person|fellow)\s+(?:who|that)|(?:to|for)\s+(?:the|any|all|every)\s+(?:men|man|ones?|hands|fellows|lads|boys)\s+(?:who|that))\s+$/i;
const NEG_SUBJECT = /\b(?:nobody|no one|none|not one|not a|not a single|no\s+\p{L}+|few|neither|nor)\b[^,;]*$/iu;
/**
 * A bare infinitive after a verb of seeing, letting or making ("wants the gods to watch it agree",
 * "lets him take the purse"): what is watched, allowed or caused is not thereby depicted as done.
 */
const BARE_INF = new RegExp(String.raw`\b${PERCEIVE_OR_CAUSE}\s+(?:it|him|her|them|us|me|you|each other|one another|\p{Lu}[\p{L}'’]+|the\s+\p{L}+)\s+$`, 'u');
const NEAR = /^(?:almost|nearly|barely|never|hardly|scarcely|not)$/i;
const HABITUAL = /^(?:always|usually|often|habitually|invariably)$/i;
/**
 * Conditions, wishes and habits before a verb: it is not a depiction of now. So is the way things
 * go, as someone knows it ("they know how the consul learns it: … Terentia, who passes it on to her
 * husband"): a habit told, not a deed. Only before the verb: after it, "as though" or "if" says how
 * or on what terms a thing was done, not that it was not (held-out corpus 10, r17: "Cato took the
 * tablets, … and held them against his chest as though they were a wound"). "once" is not among them:
 * complianceUses reads it for the whole sentence, and only where it means formerly (tense.ts formerly),
 * so "Once more Caesar hands the tablet to Cato" is a deed now. A time of anyone's doing ("When a worshipper comes to
 * the altar I open it, and they take a pinch": held-out corpus 79, bz13) is a habit, and one inside an aim ("She had taken
 * her ring off to seal the thing when he gave it": held-out corpus 112, dg14) is still to come.
 */
const UNREAL_BEFORE = /\b(?:if|unless|as if|as though|whether|wish|wishes|hope|hopes|pretend|pretends|imagine|imagines|imagined|rehearsed|in (?:the|his|her) version|used to|before|(?:know|knows|knew) how|when(?:ever)? (?:a|an|any|every|each) \w+|to \p{Ll}+ (?:[\p{L}'’]+ ){0,4}when (?:he|she|they|\p{Lu}\p{L}+))\b/iu;
/**
 * A clause told in the future or a mood, with a relative clause opened after it: what the relative
 * clause's verb says describes someone in that future ("by tomorrow night he will be in the Subura,
 * among men who still answer his hand": held-out corpus 11, q10), it is no event of the scene.
 */
const FUTURE_RELATIVE = /\b(?:will|would|shall|should|could|might|may|must|['’]ll|going to)\b[^;:—–]*\b(?:who|that|which)\s+(?:[\p{L}'’]+\s+){0,2}$/iu;
/**
 * The text before a verb without its asides between dashes or brackets: "— when he can feel them, the
 * way you feel a horse gather under you before a jump —" (held-out corpus 20, e17) governs nothing
 * outside it.
 */
const withoutAsides = (text: string): string => text.replace(/[—–][^—–]*[—–]|\([^()]*\)/g, ' ');
/** What a hand lets go of that is a hold on someone, not a thing handed over: "lets go of his wrist" (held-out corpus 24, a07). */
export const A_HOLD = String.raw`of (?:his|her|their|my|your) (?:wrist|hand|arm|sleeve|shoulder|fingers|cloak|toga|palla)\b`;
const RELEASED_HOLD = new RegExp(String.raw`^\s*${A_HOLD}`, 'i');
/**
 * "back down" with a way after it goes down it ("sent him back down the steps": held-out corpus 72, bs09;
 * "backs down the ladder"), not a yielding.
 */
const DOWN_A_WAY = /^\s*(?:the|a|an|his|her|their|into|to|through|onto|off|from|toward|towards)\b/i;
/** A verb of putting a thing somewhere before "back down" or "in": a particle of placing ("put the cobble back down in its hole": held-out corpus 21, d12), not a yielding. */
const PLACED = /\b(?:put|puts|putting|set|sets|setting|lay|lays|laid|laying|place[sd]?|placing|lower(?:s|ed)?|drop(?:s|ped)?|push(?:es|ed)?)\s+(?:[\p{L}'’-]+\s+){0,3}$/iu;
/** A verb and its object before "shut" or "slammed": the result of that verb ("folded the tablets shut"), not a refusal. */
const RESULT_OF = /^\S+\s+(?:the|his|her|their|its|my|your|our|a|an)\s+(?:[\p{L}'’-]+\s+){1,2}$/u;

/**
 * A participle after a determiner, or after "the one" / "the same", is an adjective or a reduced
 * relative: "the agreed signal", "the signal, the one agreed in the tavern" (held-out corpus 26, i05).
 * A word after "whose" is a noun too, whatever its tags ("whose hand it was": held-out corpus 46, as12).
 */
const DETERMINER_BEFORE = /\b(?:the|a|an|his|her|their|its|this|that|these|those|our|your|my|whose)\s+(?:(?:one|ones|same)\s+)?$/i;

/** Whether a verb is written in its bare form ("give", "hand over"), not "gives", "gave" or "has given". */
const bare = (text: string, inf: string | undefined) => text.toLowerCase().split(' ')[0] === (inf ?? '').toLowerCase().split(' ')[0];

/** The words before a verb at `at` back to the last comma, stop, dash or quote: where its subject is read. */
export function clauseHead(sentence: string, at: number): string {
  return sentence.slice(Math.max(...[',', ';', ':', '—', '–', '(', '"'].map((c) => sentence.lastIndexOf(c, at - 1)), 0), at);
}

/**
 * Where a verb phrase stands in the sentence as whole words, from `from` on, or -1: a plain indexOf
 * found "read" inside "thread" ("Terentia broke the thread, read both leaves": held-out corpus 63, bj17)
 * and took the words after it for the verb's.
 */
function wordAt(sentence: string, phrase: string, from: number): number {
  for (let at = sentence.indexOf(phrase, from); at >= 0; at = sentence.indexOf(phrase, at + 1)) {
    if (!/[\p{L}\p{N}]/u.test(sentence[at - 1] ?? '') && !/[\p{L}\p{N}]/u.test(sentence[at + phrase.length] ?? '')) return at;
  }
  return -1;
}

/** Verb uses that are real, present or past, undenied indicatives, with the clause before and after them. */
function liveVerbs(sentence: string, kind: 'narration' | 'speech'): VerbUse[] {
  if (sentence.includes('?')) return [];
  const out: VerbUse[] = [];
  let from = 0;
  let hadEnd = -1;
  let modalEnd = -1;
  let pastBefore = false;
  let orderEnd = -1;
  const doc = parsed(sentence);
  // A speaker's cue that a spoken line still carries ("CATO:", "> **CATO** (low):", a screenplay's
  // "CATO Then give it to me", held-out corpus 19, f08): the words said start after it.
  const opens = kind === 'speech' ? spokenCueLength(sentence) : cuePrefixLength(sentence);
  type V = { text: string; verb?: { infinitive?: string; negative?: boolean; auxiliary?: string; preAdverbs?: string[]; grammar?: { form?: string; isInfinitive?: boolean } } };
  for (const v of doc.verbs().json() as V[]) {
    const phrase = v.text.replace(/[.,;:!?"”’]+$/, '').trim();
    const found = wordAt(sentence, phrase, from);
    if (found < 0 || !v.verb) continue;
    from = found + phrase.length;
    // compromise may take the words before a colon into the verb phrase ("twice over: give"): the verb is after it.
    const cut = /^(.*[:—–]\s*)(?=\S)/.exec(phrase)?.[1].length ?? 0;
    const text = phrase.slice(cut);
    const at = found + cut;
    const g = v.verb.grammar ?? {};
    // "Terentia opened it, read the two lines, and closed it": compromise takes a same-form past after a comma for an
    // order; right after a simple past of the same chain it is one more past (held-out corpus 110, de17).
    const order: boolean = g.form === 'imperative' && !(pastBefore && SAME_FORM_PAST.test(text) && /,\s*(?:and\s+)?$/.test(sentence.slice(0, at)));
    pastBefore = g.form === 'simple-past' || (g.form === 'imperative' && !order);
    // A past perfect ("they had agreed the night before") is backstory in a scene told in either tense,
    // and so is a verb joined to one by "and" with no subject of its own ("Terentia had arrived first,
    // with her maid, and taken a place near the side wall": held-out corpus 38, ak13).
    const perfect = /\bhad\b/i.test(v.verb.auxiliary ?? '');
    const sharesHad = !v.verb.auxiliary && hadEnd >= 0 && SHARED_AUX.test(sentence.slice(hadEnd, at));
    if (perfect) hadEnd = at + text.length;
    const modal = MODAL_AUX.test(v.verb.auxiliary ?? '');
    const sharesModal = !v.verb.auxiliary && modalEnd >= 0 && SHARED_MODAL.test(sentence.slice(modalEnd, at));
    if (modal) modalEnd = at + text.length;
    const joinedOrder = orderEnd >= 0 && JOINED_TO_ORDER.test(sentence.slice(orderEnd, at)) && bare(text, v.verb.infinitive);
    if (order || joinedOrder) orderEnd = at + text.length;
    if (v.verb.negative || modal || sharesModal || perfect || sharesHad || order || joinedOrder || g.isInfinitive) continue;
    if (!v.verb.auxiliary && PARTICIPLE_ALONE.test(text)) continue;
    // Nearly done, or done as a habit ("the rest would follow, as they always followed": held-out corpus 63, bj08).
    if ((v.verb.preAdverbs ?? []).some((a) => NEAR.test(a) || HABITUAL.test(a))) continue;
    if (/\bto\s*$/i.test(sentence.slice(Math.max(0, at - 4), at))) continue;
    // A participle after a determiner is an adjective: "the agreed signal", "the promised purse" (held-out corpus 12, p04).
    if (DETERMINER_BEFORE.test(sentence.slice(Math.max(0, at - 14), at))) continue;
    if (BARE_INF.test(sentence.slice(Math.max(0, at - 40), at))) continue;
    const before = clauseHead(sentence, at);
    if (BELIEVED.test(before)) continue;
    if (((at >= opens && OPENS_BARE.test(sentence.slice(opens, at))) || AFTER_COLON_BARE.test(sentence.slice(0, at))) && bare(text, v.verb.infinitive)) {
      orderEnd = at + text.length;
      continue;
    }
    const tail = sentence.slice(at + text.length);
    const end = tail.search(/[,;:—–.!("]|\b(?:and|but|then|while)\b/);
    const objEnd = tail.search(/[;:—–.!("]|\b(?:and|but|then|while)\b/);
    modalEnd = -1;
    out.push({ inf: (v.verb.infinitive ?? text).toLowerCase(), at, before, after: end >= 0 ? tail.slice(0, end) : tail, obj: objEnd >= 0 ? tail.slice(0, objEnd) : tail });
  }
  return out;
}

/** A verb that shows an attempt coming off: which of the lexicon's kinds it is, and its clause before it (its subject). */
export interface ComplianceUse {
  verb: string;
  kind: 'yield' | 'transfer' | 'receive' | 'read' | 'motion' | 'follow';
  before: string;
  /** The words after the verb to its clause's end: what is handed, and to whom (receiver.ts). */
  obj: string;
  /** The verb as written ("gave", "hands"): its tense (beats.ts). */
  word: string;
  /** The sentence as read up to the verb: the clause a subjectless chain goes back to (receiver.ts). */
  head: string;
}

/**
 * The verb that shows an attempt coming off in this sentence, or null. In speech only a thing
 * handed over or a crowd going along counts: a said "I agree" or "I accept it" may be grudging,
 * ironic or about something else, and "the watch takes a cut" is a habit, not a deed; narration
 * that says someone gives in or takes the purse shows it.
 */
export function complianceIn(sentence: string, kind: 'narration' | 'speech' = 'narration'): string | null {
  return complianceUse(sentence, kind)?.verb ?? null;
}

/** complianceIn's verb with its kind and subject clause: who takes a thing matters to the beat (beats.ts). */
export function complianceUse(sentence: string, kind: 'narration' | 'speech' = 'narration'): ComplianceUse | null {
  // A reading is the weakest sign: "They read it, then give it to Cato" is a giving.
  const uses = complianceUses(sentence, kind);
  return uses.find((u) => u.kind !== 'read') ?? uses[0] ?? null;
}

/**
 * Every verb of the sentence that shows an attempt coming off, in order: a beat may set one aside
 * (a purse handed to someone else) and still come off by the next ("…, and the porters follow him").
 */
export function complianceUses(sentence: string, kind: 'narration' | 'speech' = 'narration'): ComplianceUse[] {
  // A sentence that says its time is long past depicts nothing now.
  // "You gave me a pearl once" (held-out corpus 59, bf11): "once" as formerly, not one time or at once (tense.ts).
  if (LONG_PAST.test(sentence) || /\bonce\b/i.test(formerly(sentence)) || !STEMS.test(sentence)) return [];
  const read = sentence.replace(GROUP_NP, '$1they');
  if (!mayComply(read)) return [];
  const uses = liveVerbs(read, kind);
  const result = (u: VerbUse) => /^(?:shut|slam)$/.test(u.inf) && uses.some((v) => v.at < u.at && RESULT_OF.test(read.slice(v.at, u.at)));
  // A refusal reported in a clause of what was said ("said … that the crews Clodius kept in the
  // Subura were paid with his silver": held-out corpus 36, ai17) is no refusal here.
  // So is one in a relative clause ("whose company he keeps at night": held-out corpus 70, bq17).
  const reported = (u: VerbUse) => REPORTED_CLAUSE.test(read.slice(0, u.at)) || /\b(?:whose|whom)\s+(?:[\p{L}'’-]+\s+){0,3}$/iu.test(u.before);
  const handedAt = (at: number) => uses.find((v) => v.at < at && ['transfer', 'motion'].includes(kindOf(gripped(v), read, kind) ?? ''))?.at;
  if (uses.some((u) => REFUSE.has(u.inf) && !result(u) && !reported(u) && !receiverKeeps(u, read, handedAt(u.at)))) return [];
  const out: ComplianceUse[] = [];
  for (const use of uses) {
    const u = gripped(use);
    if (NEG_SUBJECT.test(u.before) || ANYONE_WHO.test(u.before) || (kind === 'speech' && givenAsReason(u.before, read.slice(u.at))) || UNREAL_BEFORE.test(withoutAsides(read.slice(0, u.at))) || FUTURE_RELATIVE.test(read.slice(clauseAt(read, u.at).start, u.at)) || everyTimeBefore(read, u.at)) continue;
    const k = kindOf(u, read, kind);
    if (k) out.push({ verb: u.inf, kind: k, before: u.before, obj: u.obj, word: /^[\p{L}'’]+/u.exec(read.slice(u.at))?.[0] ?? u.inf, head: read.slice(0, u.at) });
  }
  return out;
}

/**
 * Which way of coming off a live verb use shows, if any. Each kind has its own named test of the
 * forms that look like it and are not (the last argument of each is the text before the verb).
 */
function kindOf(u: VerbUse, read: string, kind: 'narration' | 'speech'): ComplianceUse['kind'] | null {
  const earlier = read.slice(0, u.at);
  if (kind === 'narration' && YIELD.has(u.inf) && yieldsHere(u)) return 'yield';
  if (TRANSFER.has(u.inf) && concreteObject(u.obj, earlier) && !ABSTRACT.test(contactHead(u.before)) && !GIVEN_AWAY.test(u.obj)) return 'transfer';
  if (kind === 'narration' && RECEIVE.has(u.inf) && receivesHere(u, earlier) && !PUT_BACK.test(read.slice(u.at))) return 'receive';
  if (kind === 'narration' && READ.has(u.inf) && readsHere(u, read, earlier)) return 'read';
  if (MOTION.has(u.inf) && movesToSomeone(u, earlier)) return 'motion';
  if ((FOLLOW.has(u.inf) || (ALONG.has(u.inf) && WITH_SOMEONE.test(u.after))) && followsHere(u, read)) return 'follow';
  return null;
}

/** What a yielding verb governs that makes it no giving way: "gives way with…", "gives in on nothing". */
const YIELD_OBJECTLESS = /^\s*(?:with|that|about|on)\b|\b(?:nothing|none|no)\b/i;

/**
 * A yielding in narration that is someone giving way, not a feeling failing (INNER), a said-tag, an
 * agreed thing giving out, a thing put back down (PLACED), a hold let go, or a way gone down.
 */
function yieldsHere(u: VerbUse): boolean {
  if (INNER.test(u.before) || SAID_TAG.test(u.before) || AGREED.test(contactHead(u.before)) || PLACED.test(u.before)) return false;
  if (u.inf === 'let go' && RELEASED_HOLD.test(u.after)) return false;
  if (u.inf === 'back down' && DOWN_A_WAY.test(u.after)) return false;
  return !YIELD_OBJECTLESS.test(u.after);
}

/** Taken by "his", "her" …: one's own belongings ("gathers her washing", "takes up his stylus"). */
const OWN_THING = /^\s*(?:up\s+)?(?:his|her|their|my|your|our|its)\b/i;

/**
 * Taking a thing handed, not one's belongings (what is received is "it", "the tablet"), not a dummy
 * "it" ("How long it takes a charge to become a verdict": held-out corpus 40, am04), not an element
 * taking what is thrown to it, one's own body, a sign read as something or a household's keeping.
 */
function receivesHere(u: VerbUse, earlier: string): boolean {
  if (/\bit\s+$/i.test(u.before) || ELEMENT_TAKER.test(u.before)) return false;
  if (!concreteObject(u.obj, earlier) || OWN_BODY.test(u.obj) || READS_AS.test(u.obj) || HOUSEHOLD.test(u.obj) || OWN_THING.test(u.obj)) return false;
  return !frontedOwn(u.before) && !frontedOwn(earlier);
}

/** Reading a thing handed, not reading a sign as something, not a dummy "it", not a gerund. */
function readsHere(u: VerbUse, read: string, earlier: string): boolean {
  return readsHanded(u.obj, earlier) && !READS_AS.test(u.obj) && !/\bit\s+$/i.test(u.before) && !GERUND_READ.test(read.slice(u.at, u.at + 8));
}

/** Whom a crowd follows as a habit: "The boys who follow any noise" (held-out corpus 33, af10). */
const ANY_ONE = /^\s*(?:any|every|whoever|whatever|anyone|anybody|everyone)\b/i;

/** A crowd following here: not a habit (ANY_ONE), not "them" going away, not backing away, not a contact's head. */
function followsHere(u: VerbUse, read: string): boolean {
  if (!GROUP.test(u.before) || ANY_ONE.test(u.obj)) return false;
  if (u.inf === 'take up' && BURDEN.test(u.obj)) return false;
  if (/^\s*them\b/i.test(u.obj) && GOING_AWAY.test(read.slice(0, u.at))) return false;
  return !BACK_AWAY.test(read.slice(u.at)) && !contactHead(u.before);
}
