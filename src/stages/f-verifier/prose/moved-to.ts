import type { VerbUse } from './compliance-verbs.js';
import { concreteObject } from './object-phrase.js';

/**
 * Where a thing moved by a verb of motion (compliance-verbs.ts MOTION: slips, pushes, tucks …) goes: to a
 * person, into someone else's clothes, or into the mover's own keeping, which hands nobody anything.
 */

/**
 * A thing slipped or tucked under, into or inside someone's clothes reaches them ("He slips the tablet
 * under the edge of her cloak": held-out corpus 35, ah17).
 */
const UNDER_CLOTHES = /\b(?:under|beneath|inside|into)\s+(?:the\s+(?:edge|fold|folds|hem)\s+of\s+)?(his|her|their)\s+(?:cloak|palla|toga|stola|mantle|robe|sleeve)\b/i;
/**
 * Whether a thing is put under someone else's clothes: not "away", and not the subject's own ("Caesar
 * tucks the tablet away inside his toga": held-out corpus 34, ag12). Read only after a subject
 * pronoun in the sentence before the verb, whose possessive it must not be: no gender is known here
 * for a name ("Servilia … tucks them inside her cloak" is her own).
 */
function intoOthersClothes(obj: string, before: string): boolean {
  const m = UNDER_CLOTHES.exec(obj);
  if (!m || /\baway\b/i.test(obj.slice(0, m.index))) return false;
  const p = /\b(he|she|they)\b(?![\s\S]*\b(?:he|she|they)\b)/i.exec(before);
  // A name after the pronoun is the nearer subject ("They stand…, and then Caesar … tucks it into the fold of his toga").
  if (!p || /\p{Lu}/u.test(before.slice(p.index + p[0].length))) return false;
  return m[1]!.toLowerCase() !== { he: 'his', she: 'her', they: 'their' }[p[1]!.toLowerCase() as 'he' | 'she' | 'they'];
}

/** Clothes, a purse or a lap named by a possessive, in the clause after the verb ("it into her sleeve"). */
const INTO_KEEPING = /^[^,;:.!?]*?\b(?:into|inside|under|beneath|in)\s+(?:the\s+(?:edge|fold|folds|hem)\s+of\s+)?(his|her|their)\s+(?:own\s+)?(?:cloak|palla|toga|stola|mantle|robe|sleeves?|purse|pouch|bosom|belt|girdle|lap|satchel|wallet|tunic|shawl)\b/i;
/** The determiner of the last noun phrase before the verb: whose the "it" moved is ("taking back her tablet, slipping it"). */
const LAST_DETERMINER = /\b(the|his|her|their|a|an|this|that)\s+[\p{L}'’-]+(?![\s\S]*\b(?:the|his|her|their|a|an|this|that)\s+[\p{L}'’-]+)/iu;

/**
 * A thing of one's own put back into one's own clothes or purse: "her tablet" (or "it", after "her tablet") slipped
 * "into her sleeve" (held-out corpus 127, dw13: Terentia's own offer, pushed back to her unopened, put away again).
 * "her" there is the keeping's owner, not a person the thing goes to, and the thing was hers before: nothing handed.
 * A thing named with another determiner ("the tablet", "his tablet") is still read as it was.
 */
function ownIntoOwn(obj: string, before: string): boolean {
  const m = INTO_KEEPING.exec(obj);
  if (!m) return false;
  const owner = m[1]!.toLowerCase();
  const named = /^\s*(?:back\s+)?(his|her|their)\s+(?!own\b)[\p{L}'’-]+/iu.exec(obj);
  if (named) return named[1]!.toLowerCase() === owner;
  if (!/^\s*(?:it|them)\b/i.test(obj)) return false;
  return LAST_DETERMINER.exec(before)?.[1]?.toLowerCase() === owner;
}

/** Where a thing moved goes to a person: "to Cato", "into her hands", or into someone's clothes; not "towards". */
const TO_SOMEONE = /\b(?:to|into|onto)\s+(?:\p{Lu}|[Hh]im\b|[Hh]er\b|[Tt]hem\b|(?:his|her|their) (?:\w+ )?hands?\b)/u;

/** A thing moved into a person's keeping: not towards them, not one's own thing into one's own clothes. */
export function movesToSomeone(u: VerbUse, earlier: string): boolean {
  if (!concreteObject(u.obj, earlier) || /\btowards?\b/i.test(u.after) || ownIntoOwn(u.obj, earlier)) return false;
  return TO_SOMEONE.test(u.after) || intoOthersClothes(u.obj, earlier);
}
