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

/** Right after the name: a relative clause, a predicate, or an apposition that lays the person in a grave. */
const AFTER = new RegExp(
  String.raw`^(?:\s*,\s*(?:who|that)\s+(?:${DIED_VERB})\b` +
    String.raw`|(?:\s*,\s*(?:who|that))?\s+(?:${LIES}|${TAKEN})\s+${IN_RESTING}` +
    String.raw`|\s*,\s*${FILL}(?:in|on)\s+${IN_RESTING}` +
    // Not "whose death" or "whose murder": "Caesar, whose death the conspirators plan" is a plot, not a death.
    String.raw`|\s*,\s*whose\s+(?:funeral|burial|cremation|ashes|corpse|tomb|pyre)\b` +
    String.raw`|(?:\s*,\s*(?:who|that))?\s+(?:is|was)\s+(?:now\s+)?(?:ashes|ash|dust)\b)`,
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
  const want: Gender = /\bher\b/i.test(phrase) ? 'female' : 'male';
  if (gender && gender !== want) return false;
  if (TO_COME.test(text.slice(0, at))) return false;
  return !others.some((o) => o.start < at && (!o.gender || o.gender === want));
}

/** "his tomb", "after her death" with no name before it: in a claim, said of the claim's own subject. */
const PRONOUN_DEATH = new RegExp(String.raw`${POSSESSED.source}|\b(?:his|her)\s+(?:own\s+)?(?:ashes|corpse|funeral|burial|${RESTING})\b`, 'i');

/**
 * Whether a claim about a person (its `subject`) says, through a pronoun, that they are dead: "His tomb
 * stands by the harbour gate", "raised last year after his death". Not when someone else, named or not,
 * comes before the pronoun ("his father's tomb" has no "his tomb"; "the steward … after his death").
 */
export function pronounSaidDead(text: string, others: readonly Span[], gender?: Gender): boolean {
  const m = PRONOUN_DEATH.exec(text);
  if (!m || OWN_TOMB.test(text) || PERSON_NOUN.test(text.slice(0, m.index))) return false;
  return onlyOwner(text, m.index, m[0], others, gender);
}
