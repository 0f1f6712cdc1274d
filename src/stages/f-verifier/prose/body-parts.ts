import type { Mention } from './names.js';
import type { Narration } from './deeds.js';
import type { Subject } from './subjects.js';
import { doerHere } from './clause-doers.js';

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

/** The owner's body-part phrases of a sentence, each as a mention of the owner spanning the whole phrase. */
function partPhrases(n: Narration): Mention[] {
  const out: Mention[] = [];
  for (const m of n.mentions) {
    const after = AFTER_OWNER.exec(n.narr.slice(m.end));
    const before = after ? null : BEFORE_OWNER.exec(n.narr.slice(0, m.start));
    if (!after && !before) continue;
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
    const s = doerHere(n, p, TOUCHING_REST.test(rest));
    if (s?.sure) out.push(s);
  }
  return out;
}
