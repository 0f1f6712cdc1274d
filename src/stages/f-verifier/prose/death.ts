import type { Gender } from '../../../domain/world.js';
import { BYSTANDER } from './pronoun-doer.js';
import { TO_COME } from './moods.js';

/**
 * Ways of saying that a named person is dead that are not "X died" / "X is dead" / "X's death"
 * (second prose audit, finding 1: "Cato, who died a month ago", "a month in his grave", "carried out to
 * his pyre", "cold in his tomb", "the tomb of Cato, raised after his death"). Read as constructions, so
 * they hold for any name and any wording around them:
 * - a relative clause on the name: "X, who died …", "X, who was killed …", "X, whose funeral …";
 * - the name as the one who lies in, or was taken to, a grave, tomb, pyre or urn: "X is cold in his
 *   tomb", "X, a month in his grave,", "X was carried out to his pyre", "they laid X in her tomb";
 * - "X is ashes" / "X is dust";
 * - a possessive pronoun whose only possible owner is X: "the tomb of X, raised after his death",
 *   "grey for X since his death".
 * - an idiom of dying after the name or a subject pronoun: "X breathed his last", "X is no more", "he
 *   gave up the ghost" (DIED_IDIOM);
 * - "he" or "she" told as dead (pronounDied): the person, in prose, is the one named in the sentence
 *   before (canon.ts pronounDeath); in a claim, its subject.
 * What stays clean: someone else's grave ("his father's tomb", "the tomb of the Porcii"), the grave as a
 * likeness ("cold as the grave", "a dead man"), a threat or wish (a modal or future verb: "X will be in
 * his grave by the Kalends", "may he rot in his tomb"), "grave" as an adjective ("in his grave voice"),
 * a visitor's place ("X wept at his funeral", where "his" is another man's), a name the speaker is the
 * subject of ("X has not smiled since his death": the death is another man's).
 */

/** "grave" only as a noun: "his grave voice", "her grave face" are adjectives (a word after it that is no preposition, verb or article). */
export const GRAVE_NOUN = String.raw`grave(?!\s+(?!(?:by|at|in|on|of|near|beside|outside|under|and|or|but|is|was|lies|lay|stands|stood|where|that|which|with|these|this|for|since|a|an|the|last|long|before|after|now)\b)[a-z])`;
/** Where the dead are laid. */
const RESTING = String.raw`(?:tomb|sepulchre|urn|barrow|pyre|${GRAVE_NOUN})`;
/** Words between the verb and the place: "cold in his tomb", "a month in his grave", "safely in …". Not "halfway", "nearly". */
const FILL = String.raw`(?:(?:already|now|long|safely|safe|cold|quiet|silent|still|these|a|an|one|two|three|four|five|six|seven|eight|nine|ten|some|many|few|full|whole|out)\s+){0,3}(?:(?:days?|nights?|months?|years?|weeks?|seasons?|summers?|winters?|moons?)\s+)?`;
/** A being-in verb (a state) or a going-to verb (past or present, never future: a threat is no death). */
const LIES = String.raw`(?:is|was|has been|had been|lies|lay|has lain|rests|rested|sleeps|slept)\s+${FILL}(?:in|into|beneath|under|on|upon)`;
const TAKEN = String.raw`(?:went|has gone|had gone|goes|was|has been|had been)\s+(?:carried|borne|taken|laid|put|sent|burned|burnt|cremated)?\s*${FILL}(?:to|in|into|on|upon)`;
const IN_RESTING = String.raw`(?:his|her)\s+(?:own\s+)?${RESTING}`;
const DIED_VERB = String.raw`(?:has\s+|had\s+)?died|(?:was|has been|had been)\s+(?:killed|murdered|executed|slain|strangled|buried|cremated|poisoned|beheaded)|(?:is|was|lies|lay)\s+(?:dead|buried)`;
const DEATH_EVENT = '(?:death|murder|execution|killing|burial|funeral|cremation)';

/**
 * Idioms of dying, told as done in the past or the present ("breathed his last", "gave up the ghost", "is no more",
 * "passed from this life", "went to the shades", "crossed the Styx"): after a name (AFTER) or a subject pronoun
 * (PRONOUN_DIED). Only their past, perfect and present forms: the bare verb of a negation, a chance or a threat ("did
 * not breathe his last", "may yet breathe his last", "will give up the ghost") matches none, nor a modal's perfect
 * ("would have breathed his last"). "no more" only at its clause's end: "is no more a friend of Caesar" is no death.
 */
export const DIED_IDIOM = String.raw`(?:(?:has|had)\s+)?(?:breathed|breathes)\s+(?:his|her)\s+last\b` +
  String.raw`|(?:(?:has|had)\s+)?(?:gave|gives|given)\s+up\s+the\s+ghost\b` +
  String.raw`|(?:is|was)\s+no\s+more(?=\s*(?:[.,;:!?—–"”]|$))` +
  String.raw`|(?:(?:has|had)\s+)?(?:passed|passes)\s+(?:(?:from|out\s+of)\s+this\s+(?:life|world)\b|away\b)` +
  String.raw`|(?:(?:has|had)\s+)?(?:departed|departs)\s+this\s+(?:life|world)\b` +
  String.raw`|(?:(?:has|had)\s+)?(?:went|goes|gone)\s+(?:down\s+)?to\s+the\s+shades\b|(?:(?:has|had)\s+)?joined\s+the\s+shades\b` +
  String.raw`|(?:(?:has|had)\s+)?(?:crossed|crosses)\s+(?:over\s+)?the\s+Styx\b`;
/** An adverb before an idiom of dying, but one that says it was not quite ("nearly breathed his last"). */
const IDIOM_ADVERB = String.raw`(?:(?!(?:nearly|scarcely|hardly|barely|only)\b)\w+ly\s+)?`;

/**
 * "Dead" as a degree or in an idiom, not a death: "dead on his feet", "dead tired", "dead set on", "dead drunk", "dead
 * to the world", "dead silent", "dead certain" (held-out corpus 2, x11), "dead to me" (cut off), "dead in the water" (a
 * plan that will fail). Only these complements are excused: "dead on the steps", "dead these three days" still say a
 * death, the last also as an apposition ("Clodius, dead these three days, …"). Read after "dead" (canon.ts, PRONOUN_DIED).
 */
export const DEAD_IDIOM = String.raw`(?![\s-]+(?:on\s+(?:his|her|their|my|your|our)\s+feet|to\s+the\s+world|to\s+(?:me|us|him|her|them|you)\b|in\s+the\s+water|set\b|tired|weary|beat\b|drunk|asleep|silent|quiet|still\b|serious|earnest|certain|sure|right\b|wrong\b|level|calm|ahead|against\b|straight|centre|center|even\b|broke\b|keen|last\b|easy))`;

/** Right after the name: a relative clause, a predicate, or an apposition that lays the person in a grave. */
const AFTER = new RegExp(
  String.raw`^(?:\s*,\s*(?:who|that)\s+(?:${DIED_VERB})\b` +
    String.raw`|(?:\s*,\s*(?:who|that))?\s+(?:${LIES}|${TAKEN})\s+${IN_RESTING}` +
    String.raw`|\s*,\s*${FILL}(?:in|on)\s+${IN_RESTING}` +
    // Not "whose death" or "whose murder": "Caesar, whose death the conspirators plan" is a plot, not a death.
    String.raw`|\s*,\s*whose\s+(?:funeral|burial|cremation|ashes|corpse|tomb|pyre)\b` +
    String.raw`|(?:\s*,\s*(?:who|that))?\s+(?:is|was)\s+(?:now\s+)?(?:ashes|ash|dust)\b` +
    // "X breathed his last", "X, who gave up the ghost", "X is no more".
    String.raw`|(?:\s*,\s*(?:who|that))?\s+${IDIOM_ADVERB}(?:${DIED_IDIOM}))`,
  'i',
);
/** The name as the object of a burial told as done: "they laid X in his tomb", "carried X out to her pyre". */
const LAID_BEFORE = /\b(?:laid|buried|burned|burnt|cremated|carried|bore|entombed)\s+$/i;
const LAID_AFTER = new RegExp(String.raw`^\s+(?:out\s+)?(?:to|in|into|on|upon|beneath)\s+${IN_RESTING}`, 'i');
/** "after his death", "since her funeral": the owner is whom the pronoun means. */
const POSSESSED = new RegExp(String.raw`\b(?:after|since|upon|following)\s+(?:his|her)\s+${DEATH_EVENT}\b`, 'i');
/** The name governed by a preposition or owning a thing: not the clause's subject, so "his" after it can be its. */
const GOVERNED_BEFORE = /\b(?:of|for|to|with|about|by|from|over|beside|mourning|mourns|mourned|mourn)\s+(?:the\s+)?$/i;
const PERSON_NOUN = new RegExp(`${BYSTANDER.male.source}|${BYSTANDER.female.source}`, 'i');
/** A tomb a living man builds for himself is no death ("the tomb Crassus is building for himself"). */
const OWN_TOMB = /\b(?:for\s+(?:himself|herself)|is\s+being\s+(?:built|raised)|(?:is|are|was|were)\s+building|unfinished|half[-\s]finished|in\s+(?:his|her)\s+(?:own\s+)?lifetime)\b/i;

export interface Span {
  start: number;
  end: number;
  /** The person's gender when known: "his" is not a woman's, and a woman named before "his death" is not its owner. */
  gender?: Gender;
}

/**
 * Whether the text says the person named at [start, end) is dead, in one of the constructions above.
 * `others`: the other people named in the text (the pronoun of "after his death" is not the name's
 * when someone else it could mean is named before it).
 */
export function saidDeadAt(text: string, at: Span, others: readonly Span[], before = text.slice(Math.max(0, at.start - 30), at.start)): boolean {
  const after = text.slice(at.end, at.end + 90);
  if (/\bthe\s+late\s+$/i.test(before)) return true;
  if (OWN_TOMB.test(text)) return false;
  // "X's house was sold after his death": X owns the thing, so the pronoun after it can be X's.
  if (/^['’]/.test(after)) return ownerDeath(text, at, others);
  if (AFTER.test(after)) return true;
  if (LAID_BEFORE.test(before) && LAID_AFTER.test(after)) return true;
  if (/\b(?:tomb|sepulchre|urn|pyre|grave|ashes|burial|bier)\s+of\s+(?:the\s+)?$/i.test(before)) return true;
  return GOVERNED_BEFORE.test(before) && ownerDeath(text, at, others);
}

/**
 * "after his death" later in the sentence, and the pronoun can be only X's: it fits X's gender, nobody
 * else it fits is named before it in the sentence ("Crassus leaves the house to Clodius after his
 * death": Crassus' death, if anyone's), no unnamed person stands between ("Cato's brother … after his
 * death"), and the death is not one to come ("will go to his nephew after his death").
 */
function ownerDeath(text: string, at: Span, others: readonly Span[]): boolean {
  const rest = text.slice(at.end);
  const m = POSSESSED.exec(rest);
  if (!m) return false;
  const between = rest.slice(0, m.index);
  if (/[.!?;]/.test(between) || PERSON_NOUN.test(between)) return false;
  return onlyOwner(text, at.end + m.index, m[0], others, at.gender);
}

/** Nothing before the pronoun at `at` tells of a death to come or names anyone else it could mean. */
function onlyOwner(text: string, at: number, phrase: string, others: readonly Span[], gender: Gender | undefined): boolean {
  const want: Gender = /\b(?:her|she)\b/i.test(phrase) ? 'female' : 'male';
  if (gender && gender !== want) return false;
  if (TO_COME.test(text.slice(0, at))) return false;
  return !others.some((o) => o.start < at && (!o.gender || o.gender === want));
}

/** "his tomb", "after her death" with no name before it: in a claim, said of the claim's own subject. */
const PRONOUN_DEATH = new RegExp(String.raw`${POSSESSED.source}|\b(?:his|her)\s+(?:own\s+)?(?:ashes|corpse|funeral|burial|${RESTING})\b`, 'i');

/**
 * A death told of a subject "he" or "she" ("By morning he was dead", "He did not live to see the lamps lit", "she
 * breathed her last"). Not "dead" in an idiom ("he was dead tired", "he is dead to me"), not "half dead" or "nearly
 * killed", and not a death to come or supposed: a modal's verb matches none ("he would be dead by morning", "he thought
 * he would die"), and a word of fear, supposition or plan before the pronoun (SUPPOSED, TO_COME) rules it out ("he
 * thought he was dead", "if she had died").
 */
const PRONOUN_DIED = new RegExp(
  String.raw`\b(he|she)(?:(?:\s+(?:was|is|had\s+been|has\s+been|lay|lies)|['’]s)\s+(?:(?:already|found|long|quite|stone)\s+)?dead\b${DEAD_IDIOM}` +
    String.raw`|\s+(?:(?:had|has)\s+)?died\b|['’][sd]\s+died\b` +
    String.raw`|\s+(?:was|had\s+been|has\s+been)\s+(?:killed|murdered|executed|slain|strangled|beheaded|poisoned|cut\s+down)\b` +
    String.raw`|\s+(?:did\s+not|didn['’]t|never)\s+live[ds]?\s+to\s+see\b` +
    String.raw`|\s+${IDIOM_ADVERB}(?:${DIED_IDIOM}))`,
  'iu',
);
/** Words of fear, belief, dream or condition before the pronoun: the death is only thought of. */
const SUPPOSED = /\b(?:if|unless|whether|lest|as if|as though|thought|thinks?|feared|fears?|believed|believes?|supposed|supposes?|imagined|imagines?|dreamed|dreamt|dreams?|pretended|pretends?|wished|prayed|prays|hoped|hopes?|half expected|expected|sure|certain)\b/i;

/** Where a sentence tells of a "he" or "she" as dead (PRONOUN_DIED), and which pronoun; null if it does not. */
export function pronounDied(text: string): { pronoun: 'he' | 'she'; at: number } | null {
  const m = PRONOUN_DIED.exec(text);
  if (!m || SUPPOSED.test(text.slice(0, m.index)) || TO_COME.test(text.slice(0, m.index))) return null;
  return { pronoun: m[1]!.toLowerCase() as 'he' | 'she', at: m.index };
}

/**
 * Whether a claim about a person (its `subject`) says, through a pronoun, that they are dead: "His tomb stands by the
 * harbour gate", "raised last year after his death", "He breathed his last at Utica" (pronounDied). Not when someone
 * else, named or not, comes before the pronoun ("his father's tomb" has no "his tomb"; "the steward … after his death").
 */
export function pronounSaidDead(text: string, others: readonly Span[], gender?: Gender): boolean {
  if (OWN_TOMB.test(text)) return false;
  const m = PRONOUN_DEATH.exec(text);
  const d = m ? { at: m.index, phrase: m[0] } : pronounDiedAt(text);
  return !!d && !PERSON_NOUN.test(text.slice(0, d.at)) && onlyOwner(text, d.at, d.phrase, others, gender);
}

function pronounDiedAt(text: string): { at: number; phrase: string } | null {
  const d = pronounDied(text);
  return d && { at: d.at, phrase: d.pronoun };
}
