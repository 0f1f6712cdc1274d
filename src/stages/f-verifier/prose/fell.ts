/**
 * "fell" as dying, a death told rather than a fall (held-out corpus 127, dw22: "Since Catiline fell, nobody in these
 * streets slept much." read the dead Catiline as acting). One list for the readers of deeds (subjects.ts: a dead man
 * who fell is not acting) and of life and death (canon.ts: "Cato fell at Utica" says Cato is dead). A fall is still a
 * fall: "fell to his knees", "fell silent", "fell asleep", "fell back", "fell at her feet", "fell on the floor".
 */

/**
 * What after "fell" makes it a death: a battle ("in battle", "in the fighting", "on the field"), a place by its name
 * ("at Pistoria", "at Utica"; not "at Caesar's feet"), fighting ("fighting", "sword in hand", "with his men",
 * "among the dead"), the weapon ("to a spear"), or "dead" itself.
 */
const DYING_AFTER = String.raw`(?:in\s+(?:battle|action|(?:the\s+)?(?:battle|fighting|field|front\s+rank|rout|slaughter|war|charge))|on\s+the\s+(?:field|battlefield)|at\s+(?:the\s+head\s+of\s+(?:his|her|their)\s+\p{L}+|\p{Lu}\p{Ll}+\b(?!['’]))|fighting|sword\s+in\s+hand|with\s+(?:his|their)\s+(?:men|army|legions?|soldiers|face\s+to\s+the\s+enemy)|among\s+(?:his\s+|their\s+|the\s+)?(?:men|dead|soldiers|ranks)|beside\s+(?:his|their)\s+(?:men|soldiers|standards?|eagles?)|to\s+(?:an?\s+|the\s+)?(?:swords?|spears?|javelins?|blades?|arrows?)\b|dead\b)`;

/** "fell" with a complement of dying right after it ("fell at Pistoria"), for the words after a name. */
export const FELL_DYING = new RegExp(String.raw`^\s+(?:\p{Ll}+ly\s+)?fell\s+${DYING_AFTER}`, 'u');
/** A bare "fell" that ends its clause ("Since Catiline fell, …", "the day Catiline fell."). */
const FELL_BARE = /^\s+fell\s*(?:$|[,.;:!?—–])/u;
/** A clause of time before the name: "since", "after", "when", "the day …": a bare "fell" there is a death dated. */
const TIME_BEFORE = /\b(?:since|after|when|once|before|until|till|the\s+(?:day|night|year|month|morning|hour|summer|winter))\s+(?:[\p{L}'’]+\s+){0,3}$/iu;

/**
 * Whether the words after a name (`after`) tell of the person falling dead: "fell" with a complement of dying, or a
 * bare "fell" in a clause of time ("since Catiline fell"; a bare "Catiline fell." on its own may be a fall on stage).
 */
export function fellDying(before: string, after: string): boolean {
  return FELL_DYING.test(after) || (FELL_BARE.test(after) && TIME_BEFORE.test(before));
}
