import { fellDying } from './fell.js';
import { tagsOnly } from './parse.js';
import { BoundedMemo } from '../../../core/bounded-memo.js';
import type { Mention } from './names.js';
import { bodyRest } from './bodies.js';
import { relativeOnTitle, titleBefore } from './titles.js';
import { laterDeed } from './verb-list.js';
import { withoutRelatives } from './relative-clauses.js';
import { PERCEIVE_OR_CAUSE } from './verb-mood.js';
import { formTense, HABIT, HAVING_COME, ITERATIVE_LEAD, iterativeWould, LONG_PAST, PAST_READ_AS_NOUN, pastDeedHere, PRESENT_READ_AS_NOUN, RECURRING, SAME_FORM_PAST, relayChain, timedNotNow, WHENEVER_LEAD, withoutHabitAside } from './tense.js';

/**
 * Right after a quotation: a name there opens its own clause ('"Nothing you want." Caesar sat up.':
 * held-out corpus 42, ao19; '"…" Murena paid him eighty thousand denarii': corpus 48, au19). A payer
 * or a pronoun's antecedent may stand there; a deed's subject is read by subjectVerb, which leaves a
 * name after a quotation to the said-tag reading.
 */
export const AFTER_QUOTATION = /["”]\s*$/;
/**
 * An adverb that may open a sentence before its subject: "Instead Fulvia …", "Slowly Catiline rises",
 * "At last he speaks" (held-out corpus 10, r19). "Only" and "early" are left out: "Only Cicero knows" is
 * a subject of its own, and "early" is as often an adjective.
 */
export const OPENING_ADVERB = String.raw`(?:instead|finally|still|again|soon|yet|at (?:last|once|length)|before long|presently|in the end|after a (?:while|moment|time)|in a moment|a moment later|(?!only\b|early\b)\p{L}+ly)`;
/** Openings after which a name is still the clause's subject: nothing, a fronted phrase, a conjunction. */
export const SUBJECT_SLOT = new RegExp(String.raw`(?:^\s*|,\s*|[;:—–]\s*|\b(?:and|then|but|now|so|when|while|meanwhile|elsewhere|tonight|later|suddenly)\s+|(?:^|[,;:—–]\s*|\b(?:and|then|but)\s+)${OPENING_ADVERB}\s+)$`, 'iu');
/**
 * A fronted place phrase without its comma ("At the back of the crowd Catiline lifts his arm"), after a conjunction too
 * ("and on the far bench Catiline…"), with a particle of direction before it ("Over by the impluvium Catiline himself
 * leaned against a pillar": held-out corpus 74, bu14), its words hyphened or not ("On the customs-shed steps Catiline
 * sits": 82, cc14), a fronted time too ("Halfway through the first watch Catiline comes in": 91, cl14). A relative
 * pronoun ends the phrase: "Beyond them a young Stoic who aped Cato stood barefoot" (95, cp16) has its own subject.
 */
const FRONTED = /^\s*(?:(?:and|but|then|so|now|while|when)\s+)?(?:(?:over|up|down|out|back|far|right|just|away|halfway|midway)\s+)?(?:at|in|on|by|from|behind|beside|near|under|across|through|inside|outside|within|along|among|opposite|beyond|against)\s+(?:(?!(?:who|whom|which)\s)[\p{L}'’-]+\s+){0,10}$/iu;
/** A verb of perceiving or causing right before the name: the name is its object ("When she hears Cicero laugh"). */
const SEEN_DOING = new RegExp(String.raw`\b${PERCEIVE_OR_CAUSE}\s+$`, 'i');
/**
 * A witness's simple verb of seeing right before the name, with the name's bare verb after it: what was seen done was
 * done ("Those of us sweeping the steps saw Catiline come up between the armed men, take Clodius by the shoulder …":
 * held-out corpus 125, dt14). Not a perfect, a modal, a habit or a negation ("had seen", "would see", "never saw"),
 * which tell of another time or of nothing seen; not hearing ("When she hears Cicero laugh": from the next room, maybe).
 */
/** A report, an oath or a fancy before the witness's verb: what someone swears or says they saw is theirs (held-out corpus 123, dr08). */
const WITNESS_REPORTED = /\b(?:swear|swears|swore|sworn|say|says|said|claim|claims|claimed|insist|insists|insisted|tell|tells|told|rumou?rs?|story|stories|dream\w*|imagin\w*|remember\w*|fanc\w*|if|would|could)\b/i;
const WITNESSED = /(?<!\b(?:had|has|have|would|could|might|will|shall|never|not|often|once|always|used to)\s+)\b(?:saw|see|sees|watched|watch|watches)\s+$/i;
/**
 * A fronted clause of time with no comma, its own subject a pronoun, opening the sentence ("Before he can think better
 * of it Caesar has set on the table … the bag": held-out corpus 110, de19; "When the lamps were lit Cato rose"): the
 * name after it is the main clause's subject when a verb of its own follows (not after SEEN_DOING).
 */
const FRONTED_CLAUSE = /^\s*(?:(?:and|but|then)\s+)?(?:when|while|before|after|until|till|once|as soon as|the moment)\s+(?:(?:he|she|they|I|we|you)\s+(?:[\p{L}'’]+\s+){1,6}|the\s+(?:[\p{L}'’]+\s+){1,6})$/iu;
/**
 * A fronted place phrase and a verb of being there before the name: the subject inverted ("At the
 * curtain stands Catiline", "Beside the brazier sits Crassus"). Only verbs of standing, sitting,
 * waiting or appearing, present tense: "lies" and "rests" may be a body (bodies.ts), and a longer list
 * would take objects for subjects. A fronted phrase of where from or where to takes verbs of coming
 * and rising, and an aside between commas may stand before the verb ("Up from the far couch, setting his
 * cup down on the floor beside him, rises Lucius Sergius Catilina": held-out corpus 24, a14); so may a
 * bare adverb of direction ("In comes Catiline").
 */
const FRONTED_AT = String.raw`(?:at|in|on|by|behind|beside|near|under|inside|outside|within|among|against|before)\s+(?:[\p{L}'’]+\s+){0,7}(?:[\p{L}'’]+,[^,;:.!?]{1,90},\s*)?`;
const FRONTED_FROM = String.raw`(?:(?:up|out|down|back|in)\s+)?(?:from|out of|into|through|across|onto|up|down)\s+(?:[\p{L}'’]+\s+){0,7}(?:[\p{L}'’]+,[^,;:.!?]{1,90},\s*)?`;
/** A fronted place phrase (at a clause's `start`) and a verb of being there or of coming, right before the name. */
const inversion = (start: string, there: string, coming: string, bare: string): RegExp =>
  new RegExp(String.raw`${start}(?:${FRONTED_AT}(?:${there})|${FRONTED_FROM}(?:${coming})${bare})\s+$`, 'iu');
const INVERTED = inversion(
  String.raw`^\s*`,
  'stands|sits|waits|appears|kneels|lingers|looms|hovers|crouches',
  'rises|comes|steps|walks|strides|emerges|climbs|stalks|bursts|appears',
  String.raw`|(?:in|out|up|down|through|back)\s+(?:comes|steps|walks|strides|stalks|bursts)`,
);
/**
 * The same inversion in a scene told in the past (tense.ts), after a clause's start too: "…, and among
 * them, patient as any client, stood Catiline in a fresh white toga" (held-out corpus 67, bn14). Its
 * simple past is the scene's now there, judged as any past deed (pastDeedHere).
 */
const INVERTED_PAST = inversion(
  String.raw`(?:^\s*|[,;:—–]\s*(?:and|but|then)?\s*)`,
  'stood|sat|waited|appeared|knelt|lingered|loomed|hovered|crouched',
  'rose|came|stepped|walked|strode|emerged|climbed|stalked|burst|appeared',
  '',
);
/**
 * A name right after a preposition is its object, never a subject: "Behind Catiline stands Crassus",
 * "a statue of Catiline", "a letter from Catiline" (a fronted place phrase would otherwise take the
 * name after it for the clause's subject, and the verb after the name for his deed). So is one after
 * "past", "round" or "around": "a young man who used to crowd round Curius on feast nights. He sees
 * her …" tells of the young man (held-out corpus 103, cx08).
 */
export const PREPOSITION_OBJECT = /\b(?:of|from|for|to|by|with|about|against|toward|towards|into|onto|upon|at|in|on|behind|beside|near|under|before|after|beyond|among|between|like|round|around|past|over|through|across|inside|outside|opposite|beneath|above|below|within|without|alongside)\s+(?:the\s+)?$/i;
/** Words between a name and its verb that do not change who acts. */
const FILLER = /^\s*(?:,?\s*(?:himself|herself|too|also|alone|already|now|still|again|meanwhile|at last|suddenly|quietly|slowly|softly|only)\b,?)+/i;
/**
 * A future time of the doer's deed: told ahead, not done here ("speaks in the Forum the day after
 * tomorrow", "next week, Crassus opens"). Not one the deed is done now for ("for tomorrow's vote").
 */
const FUTURE = /(?<!\b(?:for|until|till|before|by|from)\s+(?:the\s+day\s+after\s+)?)\b(?:tomorrow(?!['’])|next (?:week|month|year|market[- ]day)|in (?:a|one|two|three|four|five|six|seven|ten|a few) (?:days?|weeks?|months?)(?:['’]s?)? time)\b/i;
/** After "is/are", what makes it being on stage rather than a state ("is there", "is leaning"). */
const PRESENT_HERE = /^\s*(?:(?:already|still|now|back|down|up|out|off|away|home)\s+){0,2}(?:there|here|at|in|on|among|beside|by|inside|outside|behind|before|standing|sitting|waiting|leaning|watching|\w+ing)\b/i;
/** States, not deeds: "Caesar lives here" says where he lives, not that he is in the room. */
export const STATIVE = /^(?:lives|owns|owes|belongs|loves|hates|deserves|means|matters|seems|resembles|needs|wants|remains\s+dead)$/i;
/** The same states told in the past, and dying: no deed on stage in a past narrative either. */
const STATIVE_PAST = /^(?:lived|owned|owed|belonged|loved|hated|deserved|meant|mattered|seemed|resembled|needed|wanted|gone)$/i;
const DIED = /^(?:died|perished|expired)$/i;
/** Two people joined by "and" before the name: the verb after it is theirs, a plural ("Cicero and Catiline read"). */
const JOINED = /(?:\p{Lu}[\p{L}'’]+|\b(?:he|she|I|you|we|they))\s+and\s+$/u;
/** A name joined by "and" to the object of a preposition ("the business of Servilia and Caesar turns"): not a subject. */
const COORDINATED_OBJECT = /\b(?:of|with|between|for|about|against|to|from|toward|towards)\s+(?:the\s+)?(?:\p{Lu}[\p{L}'’]*\s+){1,4}and\s+$/u;
/**
 * A name opening the second half of a content clause: "He knew that Fulvia carried everything to Terentia, and
 * Terentia carried it to the consul", "the one thing worth more: that Fulvia …, and Terentia carried it" (held-out
 * corpus 105, cz18) tell what is known, as the first half does. A "that" after a verb of knowing or saying, or a
 * colon, with no stop between it and the "and".
 */
const CONTENT_AND = /(?:\b(?:knew|knows?|said|says?|heard|hears?|told\s+\p{L}+|tells\s+\p{L}+|thought|thinks?|believed|believes?|learned|learns?|swore|swears?|suspected|suspects?|remembered|remembers?|is|was)\s+|:\s*)that\s+[^;:.!?"“”]*,?\s+and\s+$/u;
/**
 * A clause that puts its subject off this stage without naming a place ("somewhere across the city", "in his own house"),
 * or seen from far off ("Far below, small as a figure painted on a vase, Cicero is climbing the Rostra": held-out corpus
 * 89, cj09).
 */
const OFFSTAGE = /\b(?:somewhere|across the (?:city|river|town|hill|valley|Tiber)|far (?:off|away|from here)|in (?:his|her|their) own (?:house|home|bed|rooms?|study|garden)|at home|in another (?:house|room|street|quarter|part of the city)|in the (?:next|other|adjoining) room|at the (?:back|far end) of the house|in the (?:back|inner|private) rooms|in the (?:women['’]s|servants['’]|slaves['’]) quarters|in the kitchens?(?!\s+(?:door|doorway|passage|steps|yard))|next door|through the wall|miles away|elsewhere|out of sight|far (?:below|beneath|down)|down in the (?:Forum|street|streets|valley|city|harbour)|(?:small|tiny) (?:as|in the distance))\b/i;
/**
 * A clause that says its subject is out or away, wherever that is (held-out corpus 4, z07: "Crassus is
 * dining out tonight"): dining or supping out, out of town, away from Rome, gone or stepped out, or
 * "is out" or "is away" itself, or at the bath (held-out corpus 6, v08: "The consul is still at his bath":
 * bathing is no place of this scene, in his own house or not). A bare "is out" only before a pause, a time, an -ing or an errand:
 * "is out on the quay" or "out in the garden" may be this very stage, and "out of breath" is no place;
 * one who "has stepped out of the crowd" or "ridden out from the city" may have come here. Word, a letter or one's love
 * sent from somewhere, or a letter written from there, puts the sender there ("Caesar sends his love from the Subura":
 * held-out corpus 80, ca18); so does word sent that something is so ("the consul sends word that he goes today to the
 * granaries": held-out corpus 117, dl10): a message from someone not here.
 */
const AWAY = /\b(?:(?:dines?|dining|dined|sups?|supping|supped) (?:out|abroad|away)|(?:(?:has|have|had) )?(?:sends?|sent) (?:word|greetings|(?:his|her|their) (?:love|greetings|regards|apologies|compliments)|an? (?:note|letter|message|line|slave|boy|runner)) (?:\w+ )?from|(?:sends?|sent) word that|(?:writes?|wrote|(?:has|have|had) written) from|out (?:to|at) (?:dinner|supper)|out of (?:town|the city|Rome)|away from (?:Rome|the city|town|home)|(?:has|have|had) (?:gone (?:out|away|off|abroad)|(?:stepped|slipped|ridden|sailed) (?:out|away|off|abroad)(?!\s+(?:of|from|onto|into)\b))|(?:is|are) (?:still |now |already )?(?:away|abroad)|(?:is|are) (?:still |now |already )?(?:at|in) (?:his|her|their|the) baths?|(?:is|are) (?:still |now |already )?(?:out|gone)(?=\s*(?:[,.;:!?—–]|$|\w+ing\b|tonight|today|this (?:evening|morning|afternoon|night)|for the (?:day|evening|night)|all (?:day|night|evening)|until|till|again|on business)))\b/i;
/**
 * A fronted frame of thought, memory, dream or desire: what follows it is imagined, not done here ("In
 * his mind Catiline laughs", "Crassus dreams of the night when Catiline…", "What Fulvia wants is a
 * house to stand behind her when … the consul starts counting heads": held-out corpus 36, ai20), or a mind gone
 * elsewhere ("His mind was elsewhere: at a supper in Murena's garden years ago, Murena slapping his back": 87, ch14).
 */
const IMAGINED = /\b(?:what \p{L}+ (?:wants|wanted|needs|needed|hopes|hoped|fears|feared|wishes|wished) (?:is|was)\b|in (?:his|her|their|my|your|the) (?:mind|mind['’]s eye|memory|memories|dreams?|imagination|thoughts|fancy)|in (?:dreams?|memory)|as (?:he|she|they) (?:imagines?|pictures?|remembers?|dreams?)|dream(?:s|ed|t|ing)? (?:of|about|that)|(?:his|her|their|my) mind (?:was|is|went|goes|wandered|wanders|drifted|drifts) (?:elsewhere|back|away))\b/iu;
/** What a likeness is made of. */
const MATERIAL = String.raw`(?:marble|bronze|stone|wax|clay|plaster|terracotta|ivory|mosaic)`;
/** What a likeness of a person is made as: one list for a name's likeness (LIKENESS) and a likeness doing a deed (receiver.ts). */
export const LIKENESS_WORD = String.raw`(?:${MATERIAL}|painted|waxen|carved|gilded|gilt|wooden|sculpted|woven|embroidered)`;
/** Before a name, a likeness of the person: "a marble Crassus", "the painted Caesar", "a bust of Cato". */
const LIKENESS = new RegExp(String.raw`\b(?:${LIKENESS_WORD}|(?:statue|bust|portrait|likeness|image|mask) of)\s+$`, 'i');
/**
 * After a name, in its sentence, the same said the other way round: "Crassus watches them from the niche
 * beside the door, in painted marble, … while the man himself dines across the city" (held-out corpus 67, bn09), or
 * right after the name ("stands the consul in marble, carved the year he was elected": 86, cg09; not "in bronze armour"), or
 * painted or carved on something ("Servilia herself looks down on them from the wall above the couch, painted on a cedar
 * board": 110, de09).
 */
const LIKENESS_AFTER = new RegExp(String.raw`^[^.;!?]*?,\s*(?:(?:cast|carved|done)\s+)?(?:in|of)\s+(?:(?:painted|polished|white|gilded|pale|cold)\s+)?${MATERIAL}\b|^\s+(?:in|of)\s+(?:(?:painted|polished|white|gilded|pale|cold)\s+)?${MATERIAL}(?![\w-])(?!\s+(?:armou?r|tunic|toga|cloak|robes?|mail)\b)|^[^.;!?]*\bthe (?:man|woman) (?:himself|herself)\b|^[^.;!?]*?,\s*(?:painted|carved|sculpted|woven|embroidered)\s+(?:on|in|into|upon)\s+(?:a|an|the)\s`, 'i');
/**
 * Keeping or saving a thing for some use ("Crassus keeps it for meetings he does not attend": held-out
 * corpus 48, au07) says what it is for, not what is done now.
 */
const RESERVED_FOR = /^\s*(?:keeps|kept|reserves|reserved|saves|saved)\s+(?:it|them|this|that|(?:the|this|that|his|her|their)\s+[\p{L}-]+(?:\s+[\p{L}-]+)?)\s+for\b/iu;
/** An interpolated report after the name: "Crassus, Caesar thinks, pays", "Terentia, they say, weeps". */
const REPORTED = /^\s*,\s*(?:[\p{L}'’]+\s+){0,3}(?:thinks|thought|knows|says|said|suspects|fears|hopes|believes|supposes|hears|imagines|is told|they say|men say|people say|it is said|I hear|we hear)\s*,/iu;
const CLAUSE_BREAK = /;|—|–|\b(?:and|but|while|whereas)\b/gi;
/** Time words that put a present-tense deed in the past: yesterday (not "yesterday's tunic": held-out corpus 74, bu15) and the long past (tense.ts LONG_PAST). */
const PRESENT_OF_PAST = new RegExp(String.raw`\byesterday\b(?!['’])|${LONG_PAST.source}`, 'i');
export const MODAL = /^(?:will|would|could|can|may|might|must|should|shall|used|did|does|had|was|were|once)$/i;

export interface Subject {
  id: string;
  sure: boolean;
  /** The words that put the subject off this stage, with no place named ("somewhere across the city"). */
  offstage?: string;
  /** The verb says only where or how a body lies ("lies in the next room"): no deed for the dead (bodies.ts). */
  body?: true;
}

/** The clause around a mention: from the last clause break before it to the next one after it. */
function clauseAround(narr: string, m: Mention): string {
  const starts = [...narr.slice(0, m.start).matchAll(CLAUSE_BREAK)].map((x) => x.index! + x[0].length);
  const end = narr.slice(m.end).search(CLAUSE_BREAK);
  return narr.slice(starts.at(-1) ?? 0, end < 0 ? narr.length : m.end + end);
}

type FirstTerm = { word: string; tags: string[] };
/** firstTerm's answers by the exact string it tags (a re-verify or repair reads the same mentions again). */
const firstTerms = new BoundedMemo<string, FirstTerm | null>(4000);

/**
 * The tags of the word after a subject, via compromise. A pronoun stands in for the name so that
 * "lifts", "walks" or "rises" read as verbs, not plural nouns.
 */
function firstTerm(text: string): FirstTerm | null {
  return firstTerms.get(`He ${text.trim()}`, (s) => {
    // The first sentence's second term, as .json()[0].terms[1] would give it, read off the document.
    const t = (tagsOnly(s) as unknown as { docs: { text: string; tags: Set<string> }[][] }).docs[0]?.[1];
    return t ? { word: t.text.toLowerCase(), tags: Array.from(t.tags) } : null;
  });
}

/**
 * The word after a subject when it is plain letters followed by white space: then it is term 1 of
 * `He …` as tagged (terms split only at white space, and tagging changes a term's text only for a
 * contraction, which has an apostrophe), so a modal or stative word there is known untagged.
 */
export function plainNextWord(text: string): string | null {
  return /^([A-Za-z]+)\s/.exec(text.trim())?.[1].toLowerCase() ?? null;
}

/** A parenthetical's opening mark right after a name: a comma, a dash, a bracket. */
const ASIDE_OPEN = /^\s*(,|—|–|--|\()\s*/;
/** What a parenthetical never runs past: a sentence or clause end, a quotation. */
/**
 * "himself" or "herself" right after the name, before a relative clause on it. Not before another aside: "Varo himself,
 * Clodius had been told, was …" (held-out corpus 88, ci09) is a report, read as before.
 */
const INTENSIFIER_BEFORE_ASIDE = /^\s+(?:himself|herself)(?=\s*(?:,|—|–|--|\()\s*(?:who|whom|whose|which)\b)/i;
const ASIDE_STOP = /[;:.!?"“”…]/;
/** How far a parenthetical may run: a long relative clause is some 70 characters, and one of 160 is no aside. */
const ASIDE_MAX = 160;
const RELATIVE_PRONOUN = /^(?:who|whom|whose|which)\b/i;
/** The next of a chain of relative clauses on one name, after a comma: "who was not invited, who is never invited, and who…". */
const NEXT_RELATIVE = /^\s*(?:and\s+)?(?=(?:who|whom|whose|which)\b)/i;
/** How many relative clauses a chain may stack on one name, each within ASIDE_MAX. */
const CHAIN_MAX = 4;

/** Whether some word of `text` is tagged a verb (a relative clause has its own). */
function hasVerb(text: string): boolean {
  const docs = (tagsOnly(`${text.trim()}.`) as unknown as { docs: { tags: Set<string> }[][] }).docs;
  return docs.flat().some((t) => t.tags.has('Verb'));
}

/**
 * The words after a name past a parenthetical on it: a relative clause ("Caesar, who has let himself
 * in through the garden, takes the stool"), an appositive ("Caesar, the great hope of the optimates,
 * rises"), an aside in dashes or brackets. A bracket or a dash ends at its closing mark. A comma can
 * close the aside or sit inside it ("who, as always, has let himself in,"), so the aside ends at the
 * first comma followed by a verb, with a relative clause's own verb before it. None runs past
 * ASIDE_MAX characters, a clause or sentence end, or a quotation. Relative clauses stacked on one
 * name (held-out corpus 4, z16: "who was not invited, who is never invited…, and who has been
 * standing behind the curtain…, pushes") are read one by one, each within ASIDE_MAX, up to `links`.
 */
export function pastParenthetical(after: string, links = CHAIN_MAX): string {
  const o = ASIDE_OPEN.exec(after);
  if (!o) return after;
  const body = after.slice(o[0].length);
  const stop = body.slice(0, ASIDE_MAX).search(ASIDE_STOP);
  const within = stop < 0 ? body.slice(0, ASIDE_MAX) : body.slice(0, stop);
  if (o[1] !== ',') {
    const e = within.indexOf(o[1] === '(' ? ')' : o[1]);
    return e > 0 ? ' ' + body.slice(e + (o[1] === '(' ? 1 : o[1].length)).replace(/^\s*,/, '') : after;
  }
  const ends = [...within.matchAll(/,/g)].map((x) => x.index!).filter((i) => i > 0);
  const relative = RELATIVE_PRONOUN.test(body);
  for (const i of ends) {
    const rest = ' ' + body.slice(i + 1);
    if (relative && !hasVerb(body.slice(0, i).replace(RELATIVE_PRONOUN, ''))) continue;
    if (relative && links > 1 && NEXT_RELATIVE.test(rest)) return pastParenthetical(',' + rest.replace(NEXT_RELATIVE, ' '), links - 1);
    const t = firstTerm(rest.replace(FILLER, ' ').slice(0, 80));
    if (t?.tags.includes('Verb')) return rest;
  }
  // No verb after any comma: the aside is taken to end at the first, and the word after it is no deed.
  return ends.length ? ' ' + body.slice(ends[0] + 1) : after;
}

/** After "is" (or "was" in a past narrative), whether what follows is being here rather than a state ("is there", not "is dead"). */
// "was away at his villa" (held-out corpus 23, b19) is absence, whatever place follows; so is being at a
// public show or in the country ("Servilia was at the theatre with her daughter": held-out corpus 67, bn18),
// or at a kinsman's ("Tertulla is at her mother's beyond the Campus tonight": 71, br09).
const beingHere = (rest: string) => PRESENT_HERE.test(rest) && !/^\s*(?:(?:in\s+)?(?:dead|gone|alive|buried|dust|away|abroad|absent|elsewhere)|(?:at|in)\s+the\s+(?:theatre|baths|games|races|circus|country)|at\s+(?:her|his|their)\s+(?:mother|father|sister|brother|aunt|uncle|cousin|daughter|son)['’]s?)\b/i.test(rest);

/**
 * Whether the words after a subject begin an action or presence now: a present tense, or in a past
 * narrative (`past`, tense.ts) a simple past, answered 'past' so that its clause is checked for
 * backstory (pastDeedHere). A past perfect ("had come"), a "would" or a state is none in either.
 */
function actsNow(after: string, past = false, plural = false): boolean | 'doubtful' | 'past' {
  // An absolute construction of coming in ("Terentia herself having come in from the shrine …, the three men rose":
  // held-out corpus 85, cf15): the person came in, here.
  if (HAVING_COME.test(after)) return past ? 'past' : true;
  // A modal or a state is no deed whatever its tags ("Cicero was", "Crassus owns"): not tagged.
  const plain = plainNextWord(after.slice(0, 80));
  if (past && plain && /^(?:was|were)$/.test(plain)) return beingHere(after.trim().slice(plain.length)) && 'past';
  if (plain && (MODAL.test(plain) || STATIVE.test(plain) || (past && STATIVE_PAST.test(plain)))) return false;
  // Their tags are not read, so a stop may follow them: "Catiline rose." (held-out corpus 126, du15).
  const word = plain ?? /^\s*([A-Za-z]+)[,.;:!?]/.exec(after)?.[1].toLowerCase();
  if (word && PAST_READ_AS_NOUN.test(word)) return past && 'past';
  if (word && !plural && PRESENT_READ_AS_NOUN.test(word)) return true;
  const t = firstTerm(after.slice(0, 80));
  if (!t || !t.tags.includes('Verb') || MODAL.test(t.word) || STATIVE.test(t.word) || t.tags.includes('Modal')) return false;
  // One person's present takes -s: after a single name "lay", "set" or "read" is a past (held-out corpus 11, q08).
  // An irregular past is one whatever the tagger says of it in a phrasal verb ("went up to Rome": held-out corpus 18, g11).
  if (t.tags.includes('PastTense') || formTense(t.word) === 'past' || (!plural && SAME_FORM_PAST.test(t.word))) return past && !STATIVE_PAST.test(t.word) && !DIED.test(t.word) && 'past';
  const rest = after.trim().slice(t.word.length);
  if (/^(?:is|are)$/.test(t.word)) return beingHere(rest);
  if (/^(?:has|have)$/.test(t.word)) return 'doubtful';
  return t.tags.includes('PresentTense') || t.tags.includes('Infinitive') ? true : 'doubtful';
}

/**
 * Whether the words after a subject say only where or how a body lies (bodies.ts), with no other
 * verb joined on by "and", "then" or "but" ("lies on the bier and laughs" is a deed).
 */
function bodyOnly(after: string): boolean {
  const rest = bodyRest(after);
  if (rest === null) return false;
  const clause = rest.split(/[;:.!?"“”—–]/)[0];
  for (const j of clause.matchAll(/\b(?:and|then|but)\s+/gi)) {
    const next = clause.slice(j.index! + j[0].length);
    if (firstTerm(next.slice(0, 80))?.tags.includes('Verb') && bodyRest(' ' + next) === null) return false;
  }
  return true;
}

interface Slot {
  /** The words before the name that put it in the slot: without its title, when it has one (titles.ts). */
  before: string;
  inverted: boolean;
  invertedPast: boolean;
  titled: boolean;
}

/** Whether the words before a name put it in a subject slot, or right after its verb (INVERTED), and how; null if not. */
function slotAfter(before: string, past: boolean): Omit<Slot, 'titled'> | null {
  // "a marble Crassus watches them" (held-out corpus 49, av09): a likeness, not the man.
  if (LIKENESS.test(before)) return null;
  // The verb before the name is its deed (INVERTED); the words after it are then no evidence.
  const invertedPast = past && !INVERTED.test(before) && INVERTED_PAST.test(before) && !IMAGINED.test(before);
  const inverted = (INVERTED.test(before) && !IMAGINED.test(before)) || invertedPast;
  if (!(inverted || SUBJECT_SLOT.test(before) || FRONTED.test(before) || (FRONTED_CLAUSE.test(before) && !SEEN_DOING.test(before)) || ITERATIVE_LEAD.test(before) || (WITNESSED.test(before) && !WITNESS_REPORTED.test(before))) || /["…]\s*$/.test(before.trim()) && before.trim().length > 0 && !/,\s*$/.test(before)) return null;
  if (COORDINATED_OBJECT.test(before) || CONTENT_AND.test(before) || IMAGINED.test(before) || PREPOSITION_OBJECT.test(before)) return null;
  return { before, inverted, invertedPast };
}

/**
 * The slot of a name as written, else with the title before it taken off (titles.ts titleBefore): "The conspirator
 * Catiline comes in", "His old debtor Lucius Sergius Catilina comes in", "Crassus' wife Tertulla brings in the wine",
 * "Young Curius slips in" (session 41's audit: each was read as no subject). What the title leaves before it is read as
 * before a bare name: "with the consul Cicero" stays a preposition's object, "In comes the consul Cicero" inverted.
 */
export function subjectSlot(whole: string, past = false): Slot | null {
  const plain = slotAfter(whole, past);
  if (plain?.inverted) return { ...plain, titled: false };
  const t = titleBefore(whole);
  const titled = t >= 0 ? slotAfter(whole.slice(0, t), past) : null;
  // "In comes the conspirator Catiline": FRONTED would take "In comes the conspirator" for a place phrase.
  if (titled && (titled.inverted || !plain)) return { ...titled, titled: true };
  return plain && { ...plain, titled: false };
}

/**
 * Who acts in a narration sentence: a named person in the subject slot followed by a present-tense
 * verb. Possessives ("Catiline's head"), objects ("remembers Catiline") and past or modal verbs
 * ("Catiline stood", "Catiline would have") are not deeds in the present scene. `away`: someone
 * else's private places the sentence names (places.ts); one in the doer's clause puts the deed off stage.
 * `past`: the scene is told in the past (tense.ts), so a simple past is a deed too, unless its clause
 * tells backstory or a habit, or a memory or report frames it (pastDeedHere).
 */
export function subjectVerb(narr: string, mentions: readonly Mention[], away: readonly string[] = [], past = false): Subject | null {
  for (const m of mentions) {
    const slot = subjectSlot(narr.slice(0, m.start), past);
    if (!slot || LIKENESS_AFTER.test(narr.slice(m.end))) continue;
    const { before, inverted, invertedPast } = slot;
    let after = narr.slice(m.end);
    if (/^['’]/.test(after) || REPORTED.test(after)) continue;
    // "The slave Crassus sends comes in": a relative clause on the title's noun, not the name's deed.
    if (slot.titled && relativeOnTitle(after.replace(FILLER, ' '))) continue;
    // "Cicero himself, who has been at his scrolls since before first light …, comes through the curtain" (held-out
    // corpus 122, dq15): the aside is on the name, past its "himself".
    after = pastParenthetical(after.replace(INTENSIFIER_BEFORE_ASIDE, '')).replace(FILLER, ' ');
    // An aside opened after the name and never followed by a verb ("Catiline, its seal broken."): no verb of his.
    if ((!inverted && ASIDE_OPEN.test(after)) || RESERVED_FOR.test(after)) continue;
    const again = past && iterativeWould(before, after);
    const acts = invertedPast || again ? 'past' : inverted || actsNow(after, past, JOINED.test(before)) || laterDeed(after, (item) => actsNow(item, past, JOINED.test(before)));
    if (!acts) continue;
    // "Since Catiline fell, …", "Catiline fell at Pistoria": a death told, as "died" is (fell.ts), not the man acting.
    if (fellDying(before, after)) continue;
    const clause = clauseAround(narr, m);
    // A relative clause between commas tells of someone or something else's time ("rose from the back
    // bench, where he always sat alone, and laughed": held-out corpus 28, aa14): not the deed's.
    // So does an aside likening the deed to a habit ("…, as he did every morning, and called her name": tense.ts).
    const own = withoutHabitAside(withoutRelatives(clause));
    // A present told of yesterday or long ago is a memory in the present tense ("Yesterday, in the smoke of the Temple
    // of Concord, Crassus looks at him … and smiles": held-out corpus 119, dn09), not a deed here: the time word
    // before the doer in its clause ("Clodius remembers Catiline laughing … a year ago" is Clodius remembering now).
    // A clause of time told of a future or supposed time, or of every time ("When Terentia hears of it, she will…",
    // "Whenever Terentia visits, Cato hides the wine"): not a deed here (tense.ts).
    if (timedNotNow(before, narr) || (WHENEVER_LEAD.test(before) && !again)) continue;
    // How news runs, told as a chain of relays ("Curius tells her everything, and she brings it to Terentia"): tense.ts.
    if (acts !== 'past' && relayChain(after)) continue;
    if ((FUTURE.test(own) && !again) || HABIT.test(own) || (acts !== 'past' && RECURRING.test(after.split(/[;:.!?—–]/)[0]!)) || (acts === 'past' ? !pastDeedHere(before, own) : PRESENT_OF_PAST.test(before.slice(before.search(/[^;—–]*$/))))) continue;
    const a = acts === 'past' ? true : acts;
    const off = (clause.match(OFFSTAGE) ?? clause.match(AWAY))?.[0] ?? away.find((a) => clause.includes(a));
    const s: Subject = off ? { id: m.id, sure: a === true, offstage: off } : { id: m.id, sure: a === true };
    if (bodyOnly(after)) s.body = true;
    return s;
  }
  return null;
}
