import type { Gender } from '../../../domain/world.js';
import type { VerifyContext } from '../context.js';
import type { Narration } from './deeds.js';
import { possessiveAfter, type PersonIndex } from './names.js';
import { AFTER_QUOTATION, OPENING_ADVERB, PREPOSITION_OBJECT, SUBJECT_SLOT, subjectVerb, type Subject } from './subjects.js';
import { FRAME, noDeed } from './clause-doers.js';
import { likelyGender } from './gender.js';
import { identifiedHere } from './identified.js';

/**
 * A sentence that opens on "He" or "She" and acts (held-out corpus 2, x14: a litter in Clodius'
 * colours stops, "He climbs out… and kisses Terentia's hand"). deedOf carries a pronoun over only
 * in a said-tag; here a subject pronoun is resolved to a person, but only when nobody else could be
 * meant: exactly one person of a fitting gender named earlier in the same paragraph, no cast member
 * of a fitting gender (anyone on stage may be "he"), no unnamed man or woman told of since the name
 * ("his steward", "a slave"), and no letter, memory, dream or report around the name. A gender
 * not known (gender.ts) fits both pronouns.
 */

const PRONOUN = /^\s*(he|she)\b/i;
/**
 * Someone unnamed the pronoun could mean instead: a singular person-noun of either gender, or of this one, or someone the
 * world does not know introduced by name ("Her name is Myrrhine and she belongs to the house of Servilia": held-out
 * corpus 106, da11).
 */
const ANYONE = 'slave|servant|steward|guard|porter|messenger|clerk|attendant|stranger|someone|somebody|figure|visitor|guest|neighbou?r|friend|owner|host|physician|doctor|cook|vendor|child|one of them|one of the';
export const BYSTANDER: Record<Gender, RegExp> = {
  male: new RegExp(`\\b(?:${ANYONE}|man|boy|lictor|soldier|freedman|priest|doorkeeper|youth|fellow|father|son|brother|husband|uncle|nephew|senator|rider|driver|bearer|secretary|scribe|boatman|merchant|beggar|informer|gladiator|centurion|tribune|consul|praetor|magistrate|shopkeeper|his name (?:is|was))\\b`, 'i'),
  female: new RegExp(`\\b(?:${ANYONE}|woman|girl|maid|matron|daughter|mother|sister|wife|aunt|niece|priestess|nurse|widow|midwife|vestal|mistress|her name (?:is|was))\\b`, 'i'),
};

/**
 * A likeness, not a person: "walks … like a man on his way to a party he has arranged himself" tells
 * of nobody else the pronoun could mean (held-out corpus 65, bl16).
 */
const SIMILE = /\b(?:like|as)\s+(?:a|an|any|some)\s+[\p{L}-]+/giu;

/**
 * An unnamed person named only as an owner ("stood beside the praetor's chair": held-out corpus 111, df16) is told of
 * through a thing, not brought in as someone the next "he" could mean.
 */
const OWNER = /\b[\p{L}-]+['’]s?\s+(?=[\p{L}-]+)/gu;

/** A pronoun's verb that tells a state or a whereabouts rather than a deed here. */
const STATE = /^\s*(?:\w+ly\s+)?(?:is|are|has|have|keeps|stays|owns|owes|lives|remains|was|were|had|kept|stayed|owned|owed|lived|remained)\b/i;

/**
 * The one person the paragraph before `n` (or, for a paragraph's first sentence, the paragraph right
 * before it) can mean by this pronoun, and the text since their last
 * mention; else null. A last mention governed by a preposition or a possessive ("one of the crowd
 * who drank with Curius", "one of Curius' friends") names someone beside the sentence's subject,
 * who may be an unnamed man or woman told of before the name, in that sentence or an earlier one:
 * then the whole paragraph counts as text since (held-out corpora 6, v12 and v19, and 14, m20).
 */
const FRAME_ALL = new RegExp(FRAME.source, 'gi');
/**
 * Frame words of memory, dream or fancy, which can run on past their sentence. Not "as if" or "as though": a likeness of
 * manner ("stood at the corner …, as if she belonged there, which she did not") is over with its clause, and names no one
 * the next "she" could mean unless a name follows it, which the frame's own test below reads (held-out corpus 124, ds16).
 */
const MEMORY = /^(?:remember|recall|recollect|dream|imagin|pictur|memor|think|thought|fanc|ghost|shade|spirit)/i;

/**
 * A semicolon after a word of report that does not go on with what was reported ("that", "how"): the report is over,
 * and a name after it is the narration's own ("Caesar hears only fragments behind the curtain; Fulvia lowers her voice
 * just in time": prose audit 2, f5).
 */
const REPORT_OVER = /;\s*(?!(?:that|how|whether|what|who)\b)/i;

function antecedent(n: Narration, fits: (id: string) => boolean, want: Gender): { id: string; since: string[] } | null {
  const since: string[] = [];
  const ids = new Set<string>();
  let last: { id: string; since: string[]; governed: boolean } | null = null;
  // A paragraph that opens on the pronoun reads back into the paragraph right before it, with only a
  // blank line between ("Publius Clodius Pulcher stood at the end of the lane… ¶ He had ridden down
  // from Manlius' camp at Faesulae…": held-out corpus 25, l16).
  // So does one whose sentences before `n` all tell of the same pronoun and name nobody it fits ("…; Fulvia lowers her
  // voice just in time. ¶ When she comes out she does not meet his eye. Instead she presses ten thousand denarii into
  // his hand": prose audit 2, f5): the pronoun runs on from the paragraph before.
  const word = new RegExp(`\\b${want === 'male' ? 'he' : 'she'}\\b`, 'i');
  let first: Narration = n;
  while (first.prev && first.prev.line === n.line && word.test(first.prev.narr) && !first.prev.mentions.some((m) => fits(m.id))) first = first.prev;
  const opener = first.prev && first.prev.line !== n.line && first.prev.line >= n.line - 2 ? first.prev : null;
  const back = opener ? opener.line : n.line;
  for (let p = n.prev; p && (p.line === n.line || p.line === back); p = p.prev) {
    if (p.elsewhere || p.away) return null;
    // A word of report leaves in doubt the people told of after it, in what was said or heard; its own
    // subject, named before it, is still the one the pronoun can mean ("Clodius had heard all of it before
    // he was off his horse. ¶ He had ridden in at dawn straight from … Faesulae": held-out corpus 123, dr16).
    // A memory or a dream may go on into the next sentence ("Terentia remembers the road. She has come
    // from Faesulae."): it leaves the pronoun in doubt.
    for (const f of p.narr.matchAll(FRAME_ALL)) {
      if (MEMORY.test(f[0]) || p.mentions.some((m) => m.end > f.index! && !REPORT_OVER.test(p.narr.slice(f.index!, m.start)))) return null;
    }
    for (const m of [...p.mentions].reverse()) {
      if (!fits(m.id)) continue;
      ids.add(m.id);
      // "as Curius", "than Curius": a comparison's object, like a preposition's (held-out corpus 14, m06).
      // An unnamed man or woman told of before the name in its sentence ("A man is coming down the lane …, one of the old crowd
      // who used to sit at Catiline's table when Catiline had a table": held-out corpus 125, dt06) is its subject too.
      const before = p.narr.slice(0, m.start);
      const governed = PREPOSITION_OBJECT.test(before) || /\b(?:as|than)\s+$/i.test(before) || /^['’]/.test(p.narr.slice(m.end)) || BYSTANDER[want].test(before.replace(SIMILE, ' ').replace(OWNER, ' '));
      last ??= { id: m.id, since: [p.narr.slice(m.end), ...since], governed };
    }
    since.unshift(p.narr);
  }
  if (ids.size !== 1 || !last) return null;
  // "A man is coming up… Everyone who ever sat at Curius' table knows him. He sees her" (m20).
  return { id: last.id, since: last.governed ? since : last.since };
}

/**
 * The one person "he" or "she" (`pronoun`) in `n` stands for beyond doubt, or null: the only person
 * of a fitting gender named earlier in the paragraph, not named in `n` itself, no unnamed person
 * of that gender told of since. `others` says who else on stage leaves doubt: 'cast', any other
 * cast member of the gender (the pronoun may mean anyone on stage: for a person outside the cast,
 * pronounDoer); 'paragraph', only one named in the paragraph (the person is of the cast, and the
 * paragraph names them alone of their gender: arrivals.ts). `unnamed`: whether an unnamed man or woman told of
 * since leaves doubt ('doubt') or not ('ignore': a payer, whom an unnamed person with no purse cannot be).
 */
export function pronounPerson(n: Narration, pronoun: string, index: PersonIndex, ctx: VerifyContext, others: 'cast' | 'paragraph', unnamed: 'doubt' | 'ignore' = 'doubt'): string | null {
  const want: Gender = pronoun.toLowerCase() === 'he' ? 'male' : 'female';
  const fits = (id: string) => (likelyGender(id, index, ctx) ?? want) === want;
  const a = antecedent(n, fits, want);
  if (!a || n.mentions.some((m) => m.id === a.id) || (unnamed === 'doubt' && a.since.some((t) => BYSTANDER[want].test(t.replace(SIMILE, ' ').replace(OWNER, ' '))))) return null;
  if (others === 'cast' && ctx.packet.cast.some((c) => c.id !== a.id && fits(c.id))) return null;
  return a.id;
}

/**
 * The one person of a fitting gender named, not as a possessive, in `n` before `at`, whom a later
 * clause's "he" or "she" there stands for ("CRASSUS comes up the steps in a riding cloak: he has
 * ridden straight from Manlius' camp at Faesulae": held-out corpus 27, o16), or null: none, or two.
 */
export function earlierInSentence(n: Narration, pronoun: string, at: number, index: PersonIndex, ctx: VerifyContext): string | null {
  const want: Gender = pronoun.toLowerCase() === 'he' ? 'male' : 'female';
  const named = n.mentions.filter((m) => m.end <= at && !possessiveAfter(n.narr.slice(m.end)));
  const ids = [...new Set(named.map((m) => m.id))].filter((id) => (likelyGender(id, index, ctx) ?? want) === want);
  return ids.length === 1 ? ids[0]! : null;
}

/**
 * The deed of a sentence whose subject is "he" or "she" standing for one person beyond doubt, or
 * null. Asked only where the pronoun's person could make a finding (`matters`).
 */
export function pronounDoer(n: Narration, index: PersonIndex, ctx: VerifyContext, matters: (id: string) => boolean): Subject | null {
  const pr = PRONOUN.exec(n.narr);
  if (!pr || n.line <= 0 || n.said || n.pronoun || n.elsewhere || n.narr.includes('?') || FRAME.test(n.narr)) return null;
  const a = pronounPerson(n, pr[1], index, ctx, 'cast') ?? justIdentified(n, pr[1], index, ctx);
  if (!a || !matters(a)) return null;
  const end = pr.index + pr[0].length;
  // "He is at the baths", "she keeps a house": where or how someone is, off stage as often as on it.
  if (noDeed(n.narr.slice(end)) || STATE.test(n.narr.slice(end))) return null;
  const s = subjectVerb(n.narr, [{ id: a, start: end - pr[1].length, end, text: pr[1] }], n.away, n.past);
  return s && !s.offstage ? s : null;
}

/**
 * The person the sentence before named as who has just come in ("The door opens, and it is Catiline. He crosses to the
 * brazier": identified.ts), when they are the only one of the pronoun's gender the paragraph names: the cast member of
 * that gender on stage and not named here (Cicero, in his own house) is not who the "he" after an entrance means.
 */
function justIdentified(n: Narration, pronoun: string, index: PersonIndex, ctx: VerifyContext): string | null {
  const p = n.prev;
  const m = p && p.line === n.line ? identifiedHere(p) : null;
  return m && pronounPerson(n, pronoun, index, ctx, 'paragraph') === m.id ? m.id : null;
}

/** A sentence-opening "he" or "she", after a conjunction or an opening adverb at most. */
const OPENING_PRONOUN = new RegExp(String.raw`^\s*(?:(?:then|and|but|so|now|${OPENING_ADVERB}),?\s+)?(he|she)\b`, 'iu');

/**
 * The person a sentence-opening "he" or "she" most likely means: the subject of the sentence before
 * (held-out corpus 14, m19: "But Clodius had not come … to be owned, and he knew it, and so did
 * Crassus. He bent, lifted the second chest…" is Clodius): the first name of a fitting gender in a
 * subject slot there, whatever its tense, not a possessive. The pronoun may follow an opening adverb
 * ("Instead she set down … the little cedar box": held-out corpus 10, r19). Null when the sentence does
 * not open on the pronoun, or the sentence before has no such name.
 */
export function previousSubject(n: Narration, index: PersonIndex, ctx: VerifyContext): string | null {
  const pr = OPENING_PRONOUN.exec(n.narr);
  const prev = n.prev;
  if (!pr || !prev || prev.line !== n.line) return null;
  const want: Gender = pr[1]!.toLowerCase() === 'he' ? 'male' : 'female';
  for (const m of prev.mentions) {
    const before = prev.narr.slice(0, m.start);
    if (!(SUBJECT_SLOT.test(before) || AFTER_QUOTATION.test(before)) || /^['’]/.test(prev.narr.slice(m.end))) continue;
    if ((likelyGender(m.id, index, ctx) ?? want) === want) return m.id;
  }
  return null;
}

/**
 * The one named person a sentence's opening "he" or "she" stands for in its paragraph (pronounPerson), or null: "For a
 * moment Clodius says nothing. Behind him, a slave is counting silver cups … ¶ Then he shrugs, and … throws back the
 * lids on forty thousand denarii" (held-out corpus 13, n19) pays for Clodius, not for whoever last did something a
 * paragraph earlier. Asked for a payer: an unnamed man told of since ("a slave") has no purse to pay from, so he
 * leaves no doubt about whose money it is.
 */
export function openingPronounPerson(n: Narration, index: PersonIndex, ctx: VerifyContext): string | null {
  const pr = OPENING_PRONOUN.exec(n.narr);
  return pr ? pronounPerson(n, pr[1]!, index, ctx, 'paragraph', 'ignore') : null;
}

/**
 * The one person "he" or "she" in `n` can mean when the scene has named nobody before it: no person
 * named in any narration before `n`, no unnamed man or woman told of there (BYSTANDER), and a cast of
 * that one person, known to be of the pronoun's gender ("Ostia, morning, grey … ¶ He had ridden down
 * from Tusculum, two days on a hired horse": held-out corpus 68, bo16, Clodius alone in SC15's cast).
 * Null otherwise.
 */
export function soleCastMember(n: Narration, pronoun: string, index: PersonIndex, ctx: VerifyContext): string | null {
  const want: Gender = pronoun.toLowerCase() === 'he' ? 'male' : 'female';
  for (let p = n.prev; p; p = p.prev) {
    if (p.mentions.length || BYSTANDER[want].test(p.narr.replace(SIMILE, ' '))) return null;
  }
  if (n.mentions.some((m) => m.end <= n.narr.search(new RegExp(`\\b${pronoun}\\b`, 'i')))) return null;
  // The whole cast is that one person: with two or more on stage, an unnamed "she" stays in doubt ("She has
  // come straight up from Faesulae." opening a scene of three: held-out corpus 4's z17 tests).
  const [only, ...more] = ctx.packet.cast;
  return only && !more.length && likelyGender(only.id, index, ctx) === want ? only.id : null;
}

