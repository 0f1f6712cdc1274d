import { lexiconTagged } from './parse.js';
import type { Mention } from './names.js';
import { SENTENCE_NOT_NOW } from './moods.js';

/**
 * The tense a scene's narration is told in. The Writer is asked for the screenplay's present tense
 * ("Cato rises"), and the deed reader takes a past tense there for backstory ("Cato rose in the
 * Senate last year"). A real model may tell the whole scene in the past ("Varo came out onto the
 * platform and looked down at the crowd": held-out corpus 10, nine answers of twenty); read as
 * backstory, such a scene would be almost unchecked. So the narration's own tense is read first,
 * from the verb right after each subject pronoun or name: a scene whose narration is mostly past
 * is a past narrative, and its simple past is the scene's now (subjects.ts), its past perfect the
 * backstory.
 *
 * Read by word lists and compromise's lexicon, not by tagging (issue 18: tagging every narration
 * sentence would cost ~10 ms a scene): the verb's form says its tense well enough for a count.
 */

export type Tense = 'present' | 'past';

/** A subject pronoun, with a clause's opening before it, or a quotation's close (a said-tag: '"…," she said'). */
const PRONOUN_SUBJECT = /(?:^|[,;:—–]\s*|["”]\s*|\b(?:and|then|but|when|as|while)\s+)(?:he|she|they|we|I)\s+((?:(?:\w+ly|always|never|still|just|only|also|even|now|then|too|already|almost|again|perhaps|at once)\s+){0,2})([a-z]+)\b/gi;
/** Adverbs that may stand between a name and its verb. */
const ADVERBS = /^\s+((?:(?:\w+ly|always|never|still|just|only|also|even|now|then|too|already|almost|again|perhaps|at once)\s+){0,2})([a-z]+)\b/i;
const PAST_AUX = /^(?:was|were|had|did)$/;
const PRESENT_AUX = /^(?:is|are|has|does|am)$/;
/** Words ending like a verb's form that are not verbs after a subject. */
const NOT_VERB = /^(?:perhaps|always|towards|afterwards|besides|unless|this|thus|its|his|hers|theirs|yes|us|plus|less)$/;


/**
 * Simple pasts compromise tags as a noun or an adjective even after "He" ("He rose from the bench":
 * a flower; "bent": an adjective), checked over a list of ninety irregular pasts (held-out corpus 28,
 * aa14: "Catiline rose from the end of the back bench … and laughed out loud" was no deed).
 */
export const PAST_READ_AS_NOUN = /^(?:rose|bent)$/i;
/**
 * Presents compromise tags as plural nouns even after "He" ("He glances around the room": glances), checked over
 * fifty common verbs of looking, moving and gesturing: after one person's name they are deeds now.
 */
export const PRESENT_READ_AS_NOUN = /^(?:glances|gestures|motions)$/i;
/**
 * Irregular pasts compromise's lexicon leaves untagged, which the count of a narration's tenses
 * passed over ("Terentia drew her shawl tighter"; the tagger in context reads them as verbs).
 */
const UNLISTED_PAST = /^(?:drew|woke|shone|sought|understood|clung|left|lost|bound|wound|bit|built)$/;

/**
 * Pasts spelt like a present without its -s ("lay" of lying, "set", "read", "put"): compromise may tag
 * them present, but after one person's name a present would be "lays", "sets", "reads" (subjects.ts); and an order
 * after a comma in a chain of pasts would break the chain ("opened it, read the letter": compliance.ts).
 */
export const SAME_FORM_PAST = /^(?:lay|set|put|read|cut|hit|let|shut|cast|spread|beat|bid|burst|hurt|quit|shed|slit|split|thrust)$/i;
/** The tense a verb's form reads as right after a subject, or null (an ambiguous or unknown word). */
export function formTense(word: string): Tense | null {
  const w = word.toLowerCase();
  if (PAST_AUX.test(w) || PAST_READ_AS_NOUN.test(w) || UNLISTED_PAST.test(w)) return 'past';
  if (PRESENT_AUX.test(w) || PRESENT_READ_AS_NOUN.test(w)) return 'present';
  if (NOT_VERB.test(w)) return null;
  if (lexiconTagged(w, 'PastTense')) return 'past';
  if (lexiconTagged(w, 'PresentTense')) return 'present';
  if (/^[a-z]{3,}ed$/.test(w) && !/eed$/.test(w)) return 'past';
  if (/[a-z]{2}[^su]s$/.test(w)) return 'present';
  return null;
}

/** The tenses of the verbs right after the subjects of one narration sentence (quotations blanked). */
export function subjectTenses(narr: string, mentions: readonly Mention[]): Tense[] {
  const out: Tense[] = [];
  for (const m of narr.matchAll(PRONOUN_SUBJECT)) {
    const t = formTense(m[2]!);
    if (t) out.push(t);
  }
  for (const m of mentions) {
    const v = ADVERBS.exec(narr.slice(m.end));
    const t = v ? formTense(v[2]!) : null;
    if (t) out.push(t);
  }
  return out;
}

/** How many past verbs, at least, and how many times the present ones, make a past narrative. */
const MIN_PAST = 4;
const RATIO = 2;
/**
 * How many past verbs make a past narrative when no subject's verb is present at all: a short scene told wholly in the
 * past ("Servilia crossed the room. … Cato was there too, by the door.") has no present for its pasts to be a memory
 * in, and read as present it put a dead man or an uncast one by the door unseen (session 43's audit). Two are still
 * too few to tell a scene from a line of backstory.
 */
const MIN_PAST_ALONE = 3;

function tenseCounts(sentences: ReadonlyArray<{ narr: string; mentions: readonly Mention[] }>): { past: number; present: number } {
  let past = 0;
  let present = 0;
  for (const s of sentences) {
    for (const t of subjectTenses(s.narr, s.mentions)) {
      if (t === 'past') past++;
      else present++;
    }
  }
  return { past, present };
}

/** The tense of a scene's narration: past when its subjects' verbs are mostly past, else present (the Writer's form). */
export function narrativeTense(sentences: ReadonlyArray<{ narr: string; mentions: readonly Mention[] }>): Tense {
  const { past, present } = tenseCounts(sentences);
  return (past >= MIN_PAST && past >= RATIO * present) || (present === 0 && past >= MIN_PAST_ALONE) ? 'past' : 'present';
}

/**
 * Whether a narration is told in the present beyond doubt, as a past one must be: its simple past is then
 * backstory even for a verb of handing (beats.ts). A few sentences with no clear tense are neither.
 */
export function clearlyPresent(sentences: ReadonlyArray<{ narr: string; mentions: readonly Mention[] }>): boolean {
  const { past, present } = tenseCounts(sentences);
  return present >= MIN_PAST && present >= RATIO * past;
}

/**
 * Words that put a deed's time long past, in a scene told in either tense ("ago", "last winter", "the
 * night before", "the last time they met"). "for the last time" and "one last time" are the final time,
 * now ("For the last time, Caesar hands the tablet to Cato").
 */
export const LONG_PAST = /\b(?:ago|last (?:year|month|spring|summer|autumn|winter)|(?<!\b(?:for the|one)\s+)last time|the (?:night|day|evening|morning|year|month|winter|summer|spring|autumn) before)\b/i;
/**
 * A habit, in a scene told in either tense: what someone does every day or in great number, not here
 * and now ("Servilia writes a great many letters": held-out corpus 7, u18; "Cato walks the Forum
 * every morning"), or the way someone does everything ("keeps his lamps trimmed low, the way he keeps
 * everything": held-out corpus 49, av07), or what someone does for things of a kind ("lends Crassus her dining
 * room for business of this kind": held-out corpus 58, be13), or the house someone keeps ("Crassus keeps a good lamp-oil, I
 * will say that for him": held-out corpus 109, dd07; "The consul keeps a good house"), or a room kept for a purpose
 * ("kept a small dining room at the back of his house for the suppers…": held-out corpus 118, dm14). subjects.ts reads it in a deed's clause.
 */
export const HABIT = /\b(?:every (?:day|morning|evening|night|week|month|year)|each (?:day|morning|evening|night)|daily|nightly|as a rule|a great many|a good many|countless|the way (?:he|she|they|I|we|you) (?:does|do|did|keeps|kept|keep|runs|ran|run) (?:everything|all things|things|it all)|(?:business|meetings?|matters|talk|work|things) of (?:this|that|the same) (?:kind|sort)|(?:keeps|kept|keep) (?:a|an) (?:good|fine|poor|plain|mean|generous|decent|excellent|splendid|handsome|modest) (?:house|table|cellar|kitchen|lamp-oil|oil|wine|cook|stable|garden)|(?:keeps|kept|keep) (?:a|an) (?:[\w-]+ ){0,2}(?:room|chamber|study|library|office|apartment|villa|house|garden|cellar|stable)s? (?:(?:at|in|on|behind|above|below|beside|near|off) [\w'’ ]{1,40}? )?for\b)\b/i;
/**
 * A present told of every time something happens, after the doer's verb ("Curius tells her everything whenever he visits
 * her"), or of all someone comes to hear ("tells her everything he hears", "passes on whatever he overhears"): a habit
 * told in the present, not this scene's deed (session 41's audit, P9). subjects.ts reads it after the name only:
 * "Whenever Terentia looks away, Curius slips in" times the scene's own moment.
 */
export const RECURRING = /\b(?:whenever|(?:everything|whatever|all)\s+(?:that\s+)?(?:he|she|they|I|we|you)\s+(?:hears|learns|overhears|picks up|finds out|gathers|gleans))\b/i;
/**
 * In a past narrative, time words that make a simple past backstory or habit rather than the scene's
 * now ("Catiline came to this house years ago", "Catiline laughed at everything, right up to the
 * end", "as a boy Cato walked barefoot"), read in the deed's own clause: the long past, and habits; and the day
 * before, told from the scene's own now ("Curius came home drunk last night. '…,' she said"; not a thing of then, "with a
 * cup of last night's wine": held-out corpus 84, ce15). "Every so
 * often" is the scene's own time, again and again ("Every so often Caesar … would lean back and murmur some joke":
 * held-out corpus 83, cd15), not "often", a habit.
 */
const BACKSTORY = new RegExp(String.raw`${LONG_PAST.source}|${HABIT.source}|\b(?:(?:yesterday|last night|the other (?:day|night))(?!['’])|once|years?|months?|in those days|(?:in|from) the (?:old )?days when|back when|as a (?:boy|girl|young man|youth)|in (?:his|her|their) youth|when (?:he|she|they) (?:was|were) young|used to|(?:up )?(?:to|until|till) the (?:very )?end|all (?:his|her|their) li(?:fe|ves)|in (?:his|her) day|long before|before (?:that|then)|everything|every time|whenever|always|never|(?<!\bevery so\s)often|usually)\b`, 'i');
/**
 * An aside that likens a deed to a habit ("Varo walked out, as he did every morning at that hour, and stopped"; "as
 * was his custom on market days"; "as she always did when Terentia asked"): the deed is one time of the habit, here and
 * now, so the aside's words of habit are not the deed's (held-out corpus 118, dm15 and dm19). Blanked before a
 * clause is read for backstory or habit.
 */
const HABIT_ASIDE = /(?:,\s*|\s+)(?:just\s+)?(?:as|like)\s+(?:(?:he|she|they|I|we|you|\p{Lu}\p{L}+)\s+(?:(?:always|usually|often|invariably|generally)\s+)?(?:did|does|do|had done)|(?:was|is)\s+(?:his|her|their|my|our|your)\s+(?:custom|habit|way|practice|wont|rule)|always|usual|ever)\b[^,;:.!?—–]*/giu;
/** The clause without its asides likening the deed to a habit (HABIT_ASIDE). */
export const withoutHabitAside = (clause: string): string => clause.replace(HABIT_ASIDE, '');
/**
 * Time words that make a payment backstory in a past narrative, in its own clause: the long past, habits, and what
 * was paid over years or by instalments ("Over the years she had paid this household more than thirty thousand
 * denarii, a little at a time": held-out corpus 118, dm11). Narrower than BACKSTORY, whose "everything" and "always"
 * a payment here may hold ("paid him everything she had").
 */
const PAID_BEFORE = new RegExp(String.raw`${LONG_PAST.source}|${HABIT.source}|\b(?:(?:over|across|through|for|in)\s+(?:the|all\s+(?:the|those|these)|many|so\s+many)\s+years|used to|every time|each time|whenever|a (?:little|few [a-z]+) at a time)\b`, 'i');
/** Whether a payment's clause, in a past narrative, tells it as paid long before or again and again (PAID_BEFORE). */
export const paidBefore = (clause: string): boolean => PAID_BEFORE.test(withoutHabitAside(clause));
/** Before the name anywhere in its sentence: a memory, a dream, a condition, a letter or a report frames the past deed after it. */
const PAST_FRAME = /\b(?:remember\w*|recall\w*|recollect\w*|dream\w*|imagin\w*|memor\w*|(?:thought|thinking|think) (?:of|back|about)|fancied|as if|as though|if|unless|letters?|wrote|written|story|stories|tales?|heard|news|rumou?rs?|said that|told (?:her|him|them|me|us) (?:that|how)|the (?:night|day|time|year|morning) (?:when|that))\b/i;

/**
 * "once" meaning one time or at once, not formerly: "rose at once", "laughed once more", "knocked once
 * and came in", "looked once around the atrium" (held-out corpus 52, ay14: the dead Catiline "looked
 * once around the atrium, and sat down" was read as backstory), and "Once inside," (as soon as).
 * So is "Once, a little after the lamps were lit," (held-out corpus 83, cd14: one time in the evening a montage sums
 * up). "Catiline once owned", "had once", "was once", "Once, years ago" and "Once, before the war" stay formerly.
 */
const ONCE_NOW = /\b(?:(?:all )?at once|for once|more than once|once (?:more|again|or twice|and for all)|once,?\s+(?:and\s+)?(?:then\s+)?(?:again|twice|a second time)\b)\b|^\s*once (?=inside|outside|indoors|there|alone|through|past|in|out|he|she|they|it|the|his|her|their|we|I)\b|^\s*once,(?=\s+(?:a little|just|shortly|soon|not long|an hour|a moment)\s+(?:after|before)\b)/gi;
/**
 * A word right before "once": a simple past or present that is no auxiliary makes it one time ("knocked once"), and
 * so does one with a preposition and its person or thing between ("nodded to him once", "looked at the
 * door once": held-out corpus 65, bl17), and one with a thing and a particle between ("read it through once": held-out
 * corpus 120, do17). A thing given between ("gave me a pearl once") stays formerly. ONCE_NOW: "once, and then again"
 * counts times too.
 */
const WORD_ONCE = /\b([a-z]+)\s+(?:(?:to|at|on|toward|towards|into|across)\s+(?:him|her|them|me|us|it|the\s+[a-z]+)\s+|(?:it|them|the\s+[a-z]+)\s+(?:through|over|aloud)\s+)?once\b/gi;

/**
 * A verb after which "once" is one time: a simple past or a present that is no auxiliary ("knocked once", "looks once
 * toward the door": a present told scene's one glance, not formerly; "has once", "was once" stay formerly).
 */
function oneTimeVerb(word: string): boolean {
  const w = word.toLowerCase();
  const t = formTense(w);
  // "read" is both a present and a past, and no auxiliary in either ("read it over once": held-out corpus 120, do17).
  return (t === 'past' && !PAST_AUX.test(w)) || (t === 'present' && !PRESENT_AUX.test(w) && w !== 'have' && w !== 'do') || w === 'read';
}

/** The clause with each "once" that means one time or at once blanked (ONCE_NOW, WORD_ONCE): what is left of it says formerly. */
export function formerly(clause: string): string {
  return withoutHabitAside(clause).replace(ONCE_NOW, ' ').replace(WORD_ONCE, (all, w: string) => (oneTimeVerb(w) ? all.replace(/\s*once$/i, '') : all));
}

/** Whether a clause of a past narrative tells backstory or habit (BACKSTORY). */
export const backstory = (clause: string): boolean => BACKSTORY.test(formerly(clause));

/**
 * A likeness after the deed, "as if" or "as though" to its clause's end: how it looks, not when it was ("Catiline was
 * already there, leaning on the far column, as if he had never left": its "never" is no backstory of the deed).
 */
const LIKENED = /\bas\s+(?:if|though)\b[^,;:.!?—–]*/gi;

/** Whether a simple past deed in a past narrative is the scene's now: no backstory in its clause, no frame before its doer. */
export function pastDeedHere(before: string, clause: string): boolean {
  return !backstory(clause.replace(LIKENED, ' ')) && !PAST_FRAME.test(before);
}

/** An absolute construction of coming in after a subject ("Terentia herself having come in from the shrine, …"). */
export const HAVING_COME = /^\s+(?:(?:himself|herself)\s+)?having\s+(?:just\s+)?(?:come|walked|stepped|swept|slipped|hurried|entered|arrived)\b/i;
/**
 * In a scene told in the past, "would" after a word of how often is the scene's own deed, done again and again ("Every
 * so often Caesar, on the bench in front, would lean back and murmur some joke over his shoulder": held-out corpus 83,
 * cd15), not a mood. Not "would have", nor a denied one. BACKSTORY leaves "every so often" to it.
 */
const ITERATIVE = /\b(?:every so often|every now and (?:then|again)|every few (?:moments|minutes|breaths|words|steps)|now and (?:then|again)|from time to time|again and again|time and again|once or twice|more than once|whenever)\b/i;
const WOULD_DO = /^\s*(?:,[^,]{0,80},\s*)?would\s+(?!have\b|not\b|never\b|be\b)(?:\p{L}+ly\s+)?\p{L}+/u;
export const iterativeWould = (before: string, after: string): boolean => ITERATIVE.test(before) && WOULD_DO.test(after);
/** A word of how often opening the clause before its subject ("Every so often Caesar …"): the name is still the subject. */
export const ITERATIVE_LEAD = new RegExp(String.raw`(?:^|[,;:—–]\s*|\b(?:and|then|but)\s+)(?:${ITERATIVE.source}),?\s+$`, 'i');

/**
 * "each time" or "every time" with a perfect: the times it has happened before, not a deed now ("He has done this in
 * the Subura a dozen times, and each time the crowd has risen under him": held-out corpus 120, do10). A present after
 * "each time" may be the scene's own repeated deed ("each time he names a senator the porters roar"), so only the perfect.
 */
const EVERY_TIME_BEFORE = /\b(?:each|every) time\s+(?:[\p{L}'’]+\s+){0,4}?(?:has|have|had)\s+(?:\p{L}+ly\s+)?$/iu;
/** EVERY_TIME_BEFORE up to a verb at `at`, its auxiliary taken in (a verb use may start at "has"). */
export const everyTimeBefore = (read: string, at: number): boolean => EVERY_TIME_BEFORE.test(read.slice(0, at) + (/^(?:has|have|had)\s+(?:\p{L}+ly\s+)?/iu.exec(read.slice(at))?.[0] ?? ''));

/** The opener of a clause of time right before its subject: "when Terentia…", "as soon as Curius…", "until Cato…". */
const TIME_OPENER = /\b(?:when|while|(?<!\b(?:such|well|same|much)\s+)as|after|before|until|till|once|the moment)\s+$/i;
/**
 * A relative clause before the opener in its clause: "after" there is a preposition of the relative's verb ("one of the
 * young Stoics who trailed after Cato stood barefoot": held-out corpus 29's aa01), and the verb after the name is the
 * relative's antecedent's.
 */
const RELATIVE_BEFORE = /\b(?:who|whom|whose|which|that)\b[^,;:—–]*$/i;
/** Whether the words before a name end in an opener of a clause of time whose subject the name is (not a relative's preposition). */
export const timeLead = (before: string): boolean => TIME_OPENER.test(before) && !RELATIVE_BEFORE.test(before.replace(TIME_OPENER, ''));
/**
 * Whether a name after `before` is the subject of a clause of time whose sentence is told as future or supposed
 * (moods.ts SENTENCE_NOT_NOW): a clause of time takes its time from its main clause ("When Terentia hears of it, she
 * will not forgive him", "Cato will not rest until Terentia pays"), so its deed is no more done now than the main one.
 */
export const timedNotNow = (before: string, narr: string): boolean => TIME_OPENER.test(before) && SENTENCE_NOT_NOW.test(narr);
/** "Whenever" right before the subject: every time it happens, a habit, unless a past "would" tells the scene's own repeats. */
export const WHENEVER_LEAD = /\bwhenever\s+$/i;

/** Verbs that pass on what one has learned, and the same passed on again. */
const TELLING = String.raw`(?:tells|whispers|repeats|reports|confides|feeds|passes on|gives up)`;
const PASSING = String.raw`(?:brings|carries|takes|passes|hands|gives|tells|repeats|reports|sends|feeds)`;
/**
 * A chain of relays told in one sentence: the doer tells someone what he knows, and it is carried on to someone else
 * ("Curius tells her everything, and she brings it to Terentia, and Terentia brings it to Cicero": the audit's SC16
 * exposition). The chain spans times and houses beyond one moment, so it tells how news runs, a habit with no habit
 * word, not a deed on this stage. Only when the doer's own verb is the telling: "Curius comes in and tells her
 * everything, and she carries it to Terentia" brings him in. The links may be joined by "and" or a semicolon. Nor a thing handed ("hands her the tablet, and she passes
 * it to Terentia"), which may be done here and now. Read after the name, to the sentence's end.
 */
const RELAY_CHAIN = new RegExp(String.raw`^\s*(?:\w+ly\s+)?${TELLING}\b[^.:!?]*?(?:\band\s+|;\s*(?:and\s+)?)(?:[\p{L}'’]+\s+){1,3}?${PASSING}\s+(?:it|them|this|that|everything|all of it|it all|the lot|each (?:word|name))(?:\s+(?:on|along|back|straight|in turn))?\s+to\b`, 'iu');
/** Words that pin a telling to this scene's moment or place: then it is a deed here, chain or not. */
const PINNED = /\b(?:here|now|tonight|this (?:night|morning|evening|afternoon)|at (?:this|that) moment|in (?:this|the) (?:room|atrium|hall|doorway))\b/i;
/** Whether the words after a name tell a chain of relays (RELAY_CHAIN), not pinned to this moment. */
export const relayChain = (after: string): boolean => RELAY_CHAIN.test(after) && !PINNED.test(after.split(/[.;:!?]/)[0]!);
