import type { Mention } from './names.js';
import type { Narration } from './deeds.js';
import type { Subject } from './subjects.js';
import { doerHere } from './clause-doers.js';
import { SAID_VERB } from './said.js';

/**
 * A person's hand, voice or shadow doing the verb is the person doing it (held-out audit, case 70: "Catiline's hand
 * falls on his shoulder from behind, cold as a river stone" put a dead man on stage and passed): the possessive kept
 * the name out of the subject slot. Here the whole phrase, "Catiline's hand" or "the hand of Catiline", is read as a
 * name is (clause-doers.ts doerHere: its slot, tense, frame, habit, place), so a memory ("he remembers Catiline's hand
 * on his shoulder"), a past perfect ("Catiline's hand had once…") or a thing not of the body ("Catiline's letter lies
 * on the table") stays none. Only parts that act or sound: a head, a face or eyes are as often a portrait, a corpse or
 * a vision. grip.ts reads "Cato's hand closes on them" for a payment; this is presence only.
 */
const PART = String.raw`(?:hands?|fingers?|fist|arms?|palm|grip|knuckles|voice|breath|shadow|footsteps?|footfalls?|tread|laugh|laughter|cough|whisper|lips|mouth)`;
/** After the name: a possessive, at most one describing word, the part ("Catiline's cold hand", "Curius' voice"). */
const AFTER_OWNER = new RegExp(String.raw`^['’]s?\s+(?:own\s+)?(?:\p{Ll}+\s+)?${PART}\b`, 'u');
/** Before the name: "the hand of", "the cold voice of". */
const BEFORE_OWNER = new RegExp(String.raw`\b(?:the|a)\s+(?:\p{Ll}+\s+)?${PART}\s+of\s+$`, 'iu');
/**
 * A part that only is somewhere, not touching a thing here, is a figure of someone's influence ("Catiline's hand is in
 * all of this", "is everywhere", "is behind the riots"); one that is on, at or against something touches it ("Catiline's
 * hand is on his shoulder"). Verbs of hovering over a place are the same figure ("Catiline's shadow hangs over the city").
 */
const BEING_NOT_TOUCHING = /^\s*(?:\w+ly\s+)?(?:is|are|was|were)\s+(?:still\s+|already\s+)?(?!(?:on|upon|at|against|around|round)\s+(?:his|her|their|my|your|the|a)\b)/i;
const HOVERING = /^\s*(?:\w+ly\s+)?(?:still\s+)?(?:hangs?|looms?|lingers?|broods?|hung|loomed|lingered|brooded)\b/i;
/** Heard or felt only in someone's head: "Catiline's voice rings in his ears", "…in her memory". */
const INNER = /\bin\s+(?:his|her|their|my|your|\p{Lu}[\p{L}-]*['’]s?)\s+(?:ears?|head|mind|memory|memories|dreams?|sleep|thoughts)\b/iu;
/**
 * A part resting on something touches it ("Terentia's hand rests on Servilia's arm"): a deed, where a person
 * who rests or lies is no deed (clause-doers.ts NO_DEED, a body at rest).
 */
const TOUCHING_REST = /^\s*(?:\w+ly\s+)?rests\s+(?:lightly\s+)?(?:on|upon|against|across|over)\b/i;

/**
 * A voice whose owner is told in apposition, the possessive standing alone: "A voice — Cato's — says, 'Leave it.'",
 * "A voice Caesar knows — Cicero's — calls from the stair", "A voice, Terentia's, drifts in from the garden", "A second
 * voice answers him, Terentia's, low and even". The voice speaking is its owner speaking (body-parts.ts), but the
 * possessive stood outside the subject slot and before no noun, so no reader took it for anyone (session 43's audit).
 * Only the owner's bare possessive right inside the marks, or with a word of certainty ("— Terentia's, unmistakably
 * —"): "a voice like Cato's", "a voice — not Cato's —" and "— Cato's, or his ghost's —" are no one.
 */

/** An unowned part opening the phrase: "a voice", "another voice", "a second, softer voice" is too far. */
const PART_PHRASE = String.raw`\b(?:an?|the|another|one|some)\s+(?:\p{Ll}+\s+)?${PART}`;
/** Words of certainty that may follow the possessive inside the marks. */
const SURELY = String.raw`(?:\s*,?\s*(?:unmistakably|clearly|plainly|certainly|beyond (?:all )?doubt|without (?:a )?doubt))?`;
/**
 * Before the name: the part, at most six words of its own (a place, "Caesar knows") and the opening mark. The words
 * between hold no mark and no "like", "not" or "than": a likeness or a denial before the name is no owner.
 */
const BEFORE = new RegExp(String.raw`${PART_PHRASE}((?:\s+(?!(?:like|unlike|not|than|as)\b)[\p{L}'’-]+){0,6}?)\s*(—|–|--|,|\()\s*$`, 'iu');
/** After the name: the bare possessive, certainty at most, and the close that matches the opening mark. */
const CLOSES: Record<string, RegExp> = {
  dash: new RegExp(String.raw`^['’]s?${SURELY}\s*(?:—|–|--)`, 'u'),
  ',': new RegExp(String.raw`^['’]s?${SURELY}\s*,`, 'u'),
  '(': new RegExp(String.raw`^['’]s?${SURELY}\s*\)`, 'u'),
};
/**
 * A part that acts first and is owned after ("A second voice answers him, Terentia's, low and even"): the part, its
 * verb, at most a pronoun or a particle after it, then the possessive between commas or at the sentence's end. Any
 * other word there could be what the possessive is of ("calls the name, Cato's,": the name is his, the voice anyone's).
 */
const TRAILING = new RegExp(String.raw`(${PART_PHRASE})(\s+\p{Ll}+(?:\s+(?:him|her|them|me|us|in|out|up|back|again|\p{Ll}+ly)){0,2}\s*,\s*)$`, 'iu');
const TRAILING_CLOSE = new RegExp(String.raw`^['’]s?${SURELY}\s*(?:,|[.;!]|$)`, 'u');

/** The part phrase a mention owns by apposition, as a mention of the owner spanning it (and its appositive when that comes first), or null. */
function apposedPart(narr: string, m: Mention): Mention | null {
  const before = narr.slice(0, m.start);
  const after = narr.slice(m.end);
  const b = BEFORE.exec(before);
  if (b) {
    const close = CLOSES[/^[—–-]/.test(b[2]!) ? 'dash' : b[2]!]!.exec(after);
    if (close) return phrase(narr, m.id, b.index, m.end + close[0].length);
  }
  const t = TRAILING.exec(before);
  if (t && TRAILING_CLOSE.test(after)) return phrase(narr, m.id, t.index, t.index + t[1]!.length);
  return null;
}

const phrase = (narr: string, id: string, start: number, end: number): Mention => ({ id, start, end, text: narr.slice(start, end) });

/** A verb of saying right after a part (said.ts): a voice that says something says it here, no mere saying as a name's is (clause-doers.ts NO_DEED). */
const SAYS_NEXT = new RegExp(String.raw`^\s*(?:\w+ly\s+)?${SAID_VERB}\b`, 'iu');

/** The owner's body-part phrases of a sentence, each as a mention of the owner spanning the whole phrase. */
function partPhrases(n: Narration): Mention[] {
  const out: Mention[] = [];
  for (const m of n.mentions) {
    const after = AFTER_OWNER.exec(n.narr.slice(m.end));
    const before = after ? null : BEFORE_OWNER.exec(n.narr.slice(0, m.start));
    if (!after && !before) {
      const apposed = apposedPart(n.narr, m);
      if (apposed) out.push(apposed);
      continue;
    }
    const start = before ? before.index + before[0].search(/\S/) : m.start;
    const end = after ? m.end + after[0].length : m.end;
    out.push({ id: m.id, start, end, text: n.narr.slice(start, end) });
  }
  return out;
}

/**
 * The people whose body part acts on stage in this sentence, for the people `matters` holds (each once). None where
 * the part only is somewhere or hangs over it, or is heard in someone's head.
 */
export function bodyPartDoers(n: Narration, matters: (id: string) => boolean): Subject[] {
  if (n.elsewhere || n.imagined || n.narr.includes('?')) return [];
  const out: Subject[] = [];
  for (const p of partPhrases(n)) {
    if (!matters(p.id) || out.some((d) => d.id === p.id)) continue;
    const rest = n.narr.slice(p.end);
    if (BEING_NOT_TOUCHING.test(rest) || HOVERING.test(rest) || INNER.test(rest.split(/[;:.!—–]/)[0]!)) continue;
    // Sure readings only: "sees Catiline's hand behind the riots" has no verb of the hand's, however it is tagged.
    // A voice saying something says it here: "Catiline's voice says, '…'" ("Catiline says" is read as a said-tag).
    const s = doerHere(n, p, TOUCHING_REST.test(rest) || SAYS_NEXT.test(rest));
    if (s?.sure) out.push(s);
  }
  return out;
}
