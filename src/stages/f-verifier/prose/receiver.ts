import type { PacketInstruction } from '../../../domain/packet.js';
import type { VerifyContext } from '../context.js';
import { GROUP, type ComplianceUse } from './compliance.js';
import { BYSTANDER } from './pronoun-doer.js';
import { findMentions } from './names.js';
import type { ProseSentence, Reading } from './reader.js';
import { fits, referent, speakerOf } from './speaker.js';
import { readsOwn } from './reading.js';
import { LOOSE_THING } from './outcome.js';
import { LIKENESS_WORD } from './subjects.js';

/**
 * Who takes a thing, and whether that taking is a beat planned to fail coming off (held-out corpus
 * 3, y15: after the betrayal failed, "She takes the bundle from the table." is Servilia taking her
 * own letters back, not the rival getting them). A failing beat's directive says who is left
 * without the prize ("leaves Marcus Porcius Cato with nothing", "Crassus is left with a
 * suspicion"); a verb of receiving shows the beat coming off only when that person, or a crowd, or
 * someone the sentence does not let us name, is the taker. A directive that names no such person
 * leaves every taking counting, as before.
 */

/** The people a failing beat's directive leaves without what they came for: "leaves X with …", "X is left with …". */
export function leftWithout(app: PacketInstruction, r: Reading): Set<string> {
  const d = app.narrative_directive;
  const bound = new Set(Object.values(app.bindings));
  const out = new Set<string>();
  for (const m of findMentions(d, r.index)) {
    if (!bound.has(m.id)) continue;
    const leaves = /\bleaves\s+$/i.test(d.slice(0, m.start)) && /^\s+with\b/i.test(d.slice(m.end));
    if (leaves || /^\s+is left with\b/i.test(d.slice(m.end))) out.add(m.id);
  }
  return out;
}

/**
 * A pronoun right before the verb, an adverb allowed between, is its subject whatever comes first:
 * "She takes", "Then, slowly, he gathers", a fronted place or manner ("From the fold of his toga he
 * takes", held-out corpus 17, h04; "Without a word she takes it"), a clause ("as she takes it").
 */
const PRONOUN_SUBJECT = /(?:^|[\s,])(he|she)\s+(?:\p{L}+ly\s+)?$/iu;
/** A clause that opens the sentence on "he" or "she" and a verb, then "and" before this one: the two verbs share it. */
const SAME_SUBJECT_AND = /^[\s,]*(?:he|she)\s+\p{Ll}+\b[^,;:]*\band\s+(?:then\s+)?$/iu;

/**
 * Who takes in `s`, whose receiving verb has `before` as its clause: a person, or null (a crowd, or
 * not known). A clause with no subject of its own continues a chain of verbs after the sentence's
 * subject ("She rises, takes a lamp, and leaves": held-out corpus 15, k07): that subject takes.
 */
function receiverOf(s: ProseSentence, before: string, r: Reading, ctx: VerifyContext, head?: string): string | null {
  if (GROUP.test(before)) return null;
  // Before the names: a name in a fronted phrase is not the subject ("From Crassus' hand she takes").
  const p = PRONOUN_SUBJECT.exec(before);
  if (p) return sameSentencePerson(s, before, p[1]!, r, ctx) ?? referent(r, r.sentences.indexOf(s), p[1]!, ctx);
  const named = [...new Set(findMentions(before, r.index).map((m) => m.id))];
  // Two names before a verb after "and": the last clause's subject ("Crassus slid the tablets across … and Terentia
  // opened them on her knee and read them through": held-out corpus 112, dg17).
  if (named.length > 1 && /\band\s+(?:then\s+)?$/.test(before)) return lastClauseSubject(before.replace(/\s*\band\s+(?:then\s+)?$/, ''), s, r, ctx);
  if (named.length) return named.length === 1 ? named[0] : null;
  // A verb with no subject of its own after "and" or "then" shares the sentence's ("Terentia held on, then let go"),
  // also after the subject's own first verb in the clause ("He came in off the steps and took them": held-out corpus 81, cb04).
  // After a comma, the chain is the clause's before it ("Crassus slid the tablet across, and Terentia opened it, read
  // the three lines": Terentia reads), else the sentence's.
  if (/^[\s,]*(?:(?:and|but|then|and then)\s+)?$/.test(before)) return (/,/.test(before) ? clauseSubjectBefore(s, before, r, ctx, head) : null) ?? chainSubject(s, r, ctx);
  if (SAME_SUBJECT_AND.test(before)) return chainSubject(s, r, ctx);
  return SUBJECTLESS_CHAIN.test(before) ? clauseSubjectBefore(s, before, r, ctx, head) : null;
}

/** A clause of verbs after a comma, with no subject of its own, ending on "and": "…, unties the red thread and reads it". */
const SUBJECTLESS_CHAIN = /^\s*,\s*(?![^,]*\b(?:he|she|they|I|we|you)\b)[\p{Ll}'’ -]+\s(?:and|and then)\s+$/u;

/**
 * The subject of the clause right before a subjectless chain of verbs, which the chain shares: the name or "he" /
 * "she" opening it, with only its verb phrase between ("and Terentia picks it up, unties the red thread and reads
 * it": held-out corpus 105, cz17). Null when that clause has none, or names anyone after its subject.
 */
function clauseSubjectBefore(s: ProseSentence, before: string, r: Reading, ctx: VerifyContext, head?: string): string | null {
  // The text before the chain: up to the verb as read when known (a comma chain's ", " is in the sentence more than once).
  const text = head !== undefined && head.endsWith(before) ? head.slice(0, head.length - before.length) : (s.narr ?? s.text).slice(0, Math.max((s.narr ?? s.text).lastIndexOf(before), 0));
  return lastClauseSubject(text, s, r, ctx);
}

/**
 * The subject opening the last clause of `text` that has one, past clauses of verbs with none ("and Terentia opened
 * them on her knee and": Terentia): a name standing first, or "he" / "she" and its person. Null when a clause opens
 * on anything else.
 */
function lastClauseSubject(text: string, s: ProseSentence, r: Reading, ctx: VerifyContext): string | null {
  const starts = [0, ...[...text.matchAll(/[,;:]\s*(?:(?:and|then)\s+)?|\b(?:and|then)\s+/g)].map((m) => m.index! + m[0].length)];
  for (let k = starts.length - 1; k >= Math.max(0, starts.length - 4); k--) {
    const clause = text.slice(starts[k]!, starts[k + 1] ?? text.length);
    const p = /^\s*(he|she)\b/i.exec(clause);
    const inside = findMentions(clause, r.index);
    if (p) return inside.length ? null : referent(r, r.sentences.indexOf(s), p[1]!, ctx);
    if (inside.length) return inside.length === 1 && /^\s*$/.test(clause.slice(0, inside[0]!.start)) ? inside[0]!.id : null;
    // A clause of a verb with no subject of its own ("smiled", "opened them on her knee") goes back one more.
    if (!/^\s*\p{Ll}+\b/u.test(clause) || /^\s*(?:the|a|an|his|her|their|its|this|that|every|all)\b/i.test(clause)) return null;
  }
  return null;
}

/**
 * The one person named earlier in the same sentence whom a later clause's pronoun can mean ("Caesar
 * looks at the letter, and at last he relents"), or null: none, or two who both fit.
 */
function sameSentencePerson(s: ProseSentence, before: string, pronoun: string, r: Reading, ctx: VerifyContext): string | null {
  const text = s.narr ?? s.text;
  const at = text.lastIndexOf(before);
  const ids = [...new Set(s.mentions.filter((m) => at > 0 && m.end <= at).map((m) => m.id))].filter((id) => fits(id, pronoun, r, ctx));
  return ids.length === 1 ? ids[0]! : null;
}

/** The subject a sentence opens on, a pronoun's person or a name after nothing but adverbs, or null. */
function chainSubject(s: ProseSentence, r: Reading, ctx: VerifyContext): string | null {
  const text = s.narr ?? s.text;
  const p = CHAIN_HEAD.exec(text);
  if (p) return referent(r, r.sentences.indexOf(s), p[1]!, ctx);
  const head = s.mentions[0];
  return head && OPENING.test(text.slice(0, head.start)) ? head.id : null;
}

/** Nothing but adverbs before a sentence's subject. */
const OPENING = /^[\s,]*(?:(?:then|now|so|still|\p{L}+ly),?\s+)*$/u;
/** A sentence opening on "he" or "she" and a verb: the subject a chain of verbs after it shares. */
const CHAIN_HEAD = /^[\s,]*(?:(?:then|now|so|still|\p{L}+ly),?\s+)*(he|she)\s+\p{L}+/iu;

/** Whether a receiving verb in `s` (subject clause `before`) shows the failing `app` coming off: the taker is one it leaves without, or unknown. */
export function takenByLoser(s: ProseSentence, before: string, app: PacketInstruction, r: Reading, ctx: VerifyContext, head?: string): boolean {
  const losers = leftWithout(app, r);
  if (!losers.size) return true;
  const who = receiverOf(s, before, r, ctx, head);
  if (who !== null) return losers.has(who);
  // A "he" or "she" whose person is not found, that no loser can be ("He takes a folded tablet out of the fold at
  // his breast" where the beat leaves only Terentia without: held-out corpus 107, db12), takes no prize.
  const p = PRONOUN_SUBJECT.exec(before);
  return !p || [...losers].some((id) => fits(id, p[1]!, r, ctx));
}

/**
 * To whom a thing is handed, as the words after the verb say: an indirect object ("gives Cato the
 * letter", "hands her the tablet"), or "to", "into" or "onto" someone or their hand ("slides it to
 * him", "presses a denarius into his hand"). The person's word (a name or a pronoun), or null.
 */
const TO_WHOM = /^\s*(?:over\s+|back\s+)?(him|her|them|\p{Lu}[\p{L}'’]+)\s+(?=(?:the|a|an|his|her|their|it|this|that|some|every)\b)|\b(?:to|into|onto)\s+(?:(him|her|them|\p{Lu}[\p{L}'’]+)\b|(his|her|their)\s+(?:[\p{L}-]+\s+)?(?:hands?|palms?|lap|fingers)\b)/u;

/**
 * An unnamed person as the indirect object, right after the verb and before the thing handed ("gives
 * the attendant two denarii", "gave the temple attendant three denarii": held-out corpus 32, ae04, ae08).
 */
const INDIRECT_SOMEONE = /^\s*(?:a|an|the|his|her|their)\s+((?:[\p{L}'’-]+\s+){1,2})(?=(?:the|a|an|his|her|their|some|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|hundred|thousand|several|\d)\b)/iu;

/**
 * Whether someone unnamed who is handed the thing is not the one the beat leaves without: a god or a god's place,
 * given an offering ("has given the goddess a cake", "gave the altar twelve sesterces": held-out corpora 85, cf13,
 * and 90, ck04), or, when the beat names who loses, a person told of by a role ("to a slave", "into the
 * doorkeeper's hand": BYSTANDER).
 */
function unnamedNoLoser(unnamed: string, losers: ReadonlySet<string>): boolean {
  return DEITY.test(unnamed) || (losers.size > 0 && (BYSTANDER.male.test(unnamed) || BYSTANDER.female.test(unnamed)));
}
const DEITY = /^(?:gods?|goddess(?:es)?|deity|altar|shrine|temple|lares|household gods)\b/i;

/** "to", "into" or "onto" an unnamed person: the two words after the determiner ("a slave", "the doorkeeper's hand"). */
const TO_SOMEONE = /\b(?:to|into|onto)\s+(?:a|an|the|his|her|their|one of the)\s+((?:[\p{L}'’-]+\s*){1,2})/u;

/**
 * Whether a handing in `s` shows the failing `app` coming off: the thing goes to one it leaves
 * without (held-out corpora 9 and 10: a ring given back to the betrayed woman, s16; a coin pressed
 * into a doorkeeper's hand, r11). A recipient named, or a pronoun whose person is found, who is not
 * that loser is no prize won; so is an unnamed man or woman told of before the pronoun ("the
 * doorkeeper … into his hand"). A recipient not said or not found, or a directive that names no
 * loser, leaves the handing counting, as before.
 */
function givenToLoser(s: ProseSentence, use: ComplianceUse, app: PacketInstruction, r: Reading, ctx: VerifyContext): boolean {
  const losers = leftWithout(app, r);
  const unnamed = TO_SOMEONE.exec(use.obj)?.[1] ?? INDIRECT_SOMEONE.exec(use.obj)?.[1];
  if (unnamed && unnamedNoLoser(unnamed, losers)) return false;
  const to = TO_WHOM.exec(use.obj);
  const word = to ? (to[1] ?? to[2] ?? to[3])! : null;
  const asker = losers.size && !word ? askedBy(r, r.sentences.indexOf(s), ctx) : null;
  if (asker) return losers.has(asker);
  if (!losers.size || !word || /^(?:them|their)$/i.test(word)) return true;
  const named = findMentions(word, r.index);
  if (named.length) return losers.has(named[0]!.id);
  if (/^\p{Lu}/u.test(word) && !/^(?:Him|Her|His)$/.test(word)) return true;
  const pronoun = /^(?:him|his)$/i.test(word) ? 'he' : 'she';
  const i = r.sentences.indexOf(s);
  const prev = r.sentences[i - 1];
  const upTo = (s.narr ?? s.text).slice(0, (s.narr ?? s.text).indexOf(use.obj.trim()));
  if (BYSTANDER[pronoun === 'he' ? 'male' : 'female'].test(`${prev?.kind === 'narration' && prev.line === s.line ? prev.text : ''} ${upTo}`)) return false;
  const who = referent(r, i, pronoun, ctx);
  // A "her" not found, when the beat leaves only men without ("He handed it to her with a bow.", Cato the loser:
  // held-out corpus 92, cm13), is no loser.
  return who === null ? [...losers].some((id) => fits(id, pronoun, r, ctx)) : losers.has(who);
}

/** Verbs of yielding that are giving up whoever says them; an actor who "lets go" or "agrees" may be handing or taking. */
const GIVE_UP = new Set(['give in', 'give way', 'relent', 'yield', 'capitulate', 'concede', 'surrender', 'submit', 'cave', 'cave in', 'back down']);

/** Whether the subject of a verb in `s` (its clause `before`) is known and one the beat leaves without. */
export function lostBy(s: ProseSentence, before: string, app: PacketInstruction, r: Reading, ctx: VerifyContext, head?: string): boolean {
  const who = receiverOf(s, before, r, ctx, head);
  return who !== null && leftWithout(app, r).has(who);
}

/** Whether the subject of a verb of yielding in `s` (its clause `before`) is the beat's own actor: he gives the attempt up. */
export function givenUpByActor(s: ProseSentence, before: string, app: PacketInstruction, r: Reading, ctx: VerifyContext): boolean {
  return receiverOf(s, before, r, ctx) === app.bindings.actor;
}

/** A line asking for a thing to be handed to its speaker: "Give it to me", "Hand them back to me", "Give me the letter". */
const ASKS_FOR_IT = /\b(?:give|hand|pass|bring)\s+(?:(?:it|them|that|this)\s+)?(?:back\s+)?(?:to\s+)?me\b/i;

/**
 * Who asked, in the few sentences before a handing that names no recipient, for the thing to be
 * handed to them: the one it goes to ("'Give it to me,' she says. Caesar gives it.": held-out corpus
 * 19, f07, the letters back to the betrayed woman). A screenplay cue's speaker, a said-tag's name, or
 * a said-tag pronoun's person (reader.ts reads the tag); null when no such line is found or its speaker is not.
 */
function askedBy(r: Reading, i: number, ctx: VerifyContext): string | null {
  for (let k = i - 1; k >= Math.max(0, i - 4); k--) {
    const t = r.sentences[k]!;
    if (t.kind !== 'speech' || !ASKS_FOR_IT.test(t.text)) continue;
    return speakerOf(r, k, ctx)?.id ?? null;
  }
  return null;
}

/**
 * A thing named as a third party's, by a kin or household word: "Terentia tucks her husband's tablet
 * into her belt" is her own letter put away, not the betrayal's tablet received.
 */
const THIRD_PARTYS = /^\s*(?:(?:her|his|their)\s+)?(?:husband|wife|brother|sister|father|mother|son|daughter|steward|freedman|secretary|slave|cousin|uncle|aunt)['’]s?\s/i;

/** A loose thing right before the verb: its subject (outcome.ts LOOSE_THING). */
const LOOSE_THING_BEFORE = new RegExp(String.raw`\b${LOOSE_THING}\s+$`, 'i');
/** A clause of measure or kind opening the verb's clause: what or how much was given, not a giving. */
const HOW_MUCH = /^\s*(?:how (?:much|many|often)|whatever|what)\s+(?:[\p{L}'’-]+\s+){1,3}$/iu;
/** A painted, carved or woven figure as the verb's subject: a picture, not a deed. */
const LIKENESS_DOER = new RegExp(String.raw`\b${LIKENESS_WORD}\s+(?:[\p{L}'’-]+\s+){1,2}$`, 'iu');

/** Whether a beat binds anyone besides its actor to receive a thing (a rival, a target, a secret): a street riot binds no one. */
const bindsAReceiver = (app: PacketInstruction): boolean => Object.keys(app.bindings).some((k) => k !== 'actor');

/** Whether a verb of giving way in `s` shows the failing `app` won: its target yielding, not its actor giving up or a loose thing falling. */
function yieldWon(use: ComplianceUse, s: ProseSentence, app: PacketInstruction, r: Reading, ctx: VerifyContext): boolean {
  // The beat's own actor giving in gives the attempt up ("Then Caesar gives in and pushes it away"): a
  // failing beat told as planned. Letting go, agreeing or accepting may be his handing or taking.
  if (GIVE_UP.has(use.verb)) return !givenUpByActor(s, use.before, app, r, ctx);
  // One the beat leaves without letting go lets the thing go back ("He drew the tablet back. Terentia's
  // fingers held on for a moment, then let go": held-out corpus 63, bj04): the beat failing as planned.
  if (use.verb === 'let go' && lostBy(s, use.before, app, r, ctx)) return false;
  // A tile letting go of a roof is no one giving way (held-out corpus 70, bq05).
  return !LOOSE_THING_BEFORE.test(use.before);
}

/** Whether a handing, taking, reading or following is told as no deed of now, whoever the people are. */
function noDeedNow(use: ComplianceUse): boolean {
  const handing = use.kind === 'transfer' || use.kind === 'motion';
  // A thing of a third party's ("her husband's tablet"): the reader's own business, not the prize (held-out corpus 60, bg09).
  if (use.kind !== 'follow' && THIRD_PARTYS.test(use.obj)) return true;
  // How much or what someone has given, said as a measure ("how much I have given the goddess this year": held-out corpus 69, bp09).
  if (handing && HOW_MUCH.test(use.before)) return true;
  // A gerund naming what someone did ("what she has been seen doing, which is taking it": held-out corpus 70, bq04).
  if (/\b(?:which|what)\s+$/i.test(use.before) && /^(?:is|was)$/i.test(use.word)) return true;
  // A likeness doing it ("On the wall a painted Paris was handing an apple to a goddess": held-out corpus 64, bk12).
  return LIKENESS_DOER.test(use.before);
}

/**
 * Whether a verb of coming off in `s` shows the failing `app` won: a giving up is none by the beat's
 * own actor; a handing or a taking is none for a beat that binds nobody to receive (a riot comes off by the crowd
 * following, held-out corpus 9, s19: porters taking coin), nor someone else taking the thing, nor the thing handed
 * to someone else; a following is none for a beat that binds someone to receive (the men with clubs falling in
 * behind him are no betrayal's prize received: held-out corpus 68, bo04).
 */
export function wonBy(use: ComplianceUse, s: ProseSentence, app: PacketInstruction, r: Reading, ctx: VerifyContext): boolean {
  if (use.kind === 'yield') return yieldWon(use, s, app, r, ctx);
  if ((use.kind === 'follow') === bindsAReceiver(app) || noDeedNow(use)) return false;
  switch (use.kind) {
    case 'follow':
      return true;
    case 'receive':
      return takenByLoser(s, use.before, app, r, ctx, use.head);
    // Reading shows the thing received only by a reader named as one the beat leaves without (lostBy): "Caesar
    // and Servilia read it together" is no taking by Cato; nor is a reading of what the scene told as the reader's own (readsOwn).
    case 'read':
      return lostBy(s, use.before, app, r, ctx, use.head) && !readsOwn(s, leftWithout(app, r), r);
    default:
      return givenToLoser(s, use, app, r, ctx);
  }
}
