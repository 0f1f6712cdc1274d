import type { Mention, PersonIndex } from './names.js';
import type { Gender } from '../../../domain/world.js';
import { GRAVE_NOUN, saidDeadAt } from './death.js';
import { FELL_DYING } from './fell.js';

/** A statement the prose makes about a person's life or party. */
export interface CanonStatement {
  id: string;
  says: 'dead' | 'alive' | 'faction';
  faction?: string;
  /** Hedged (rumour, question, modal) or shouted on a wall: doubtful. */
  hedged: boolean;
}

/**
 * "Dead" as a degree or in an idiom, not a death: "dead on his feet", "dead tired", "dead set on",
 * "dead drunk", "dead to the world", "dead silent", "dead certain" (held-out corpus 2, x11). Only
 * these complements are excused: "dead on the steps", "dead these three days" still say a death,
 * the last also as an apposition ("Clodius, dead these three days, …").
 */
const DEAD_IDIOM = String.raw`(?![\s-]+(?:on\s+(?:his|her|their|my|your|our)\s+feet|to\s+the\s+world|set\b|tired|weary|beat\b|drunk|asleep|silent|quiet|still\b|serious|earnest|certain|sure|right\b|wrong\b|level|calm|ahead|against\b|straight|centre|center|even\b|broke\b|keen|last\b|easy))`;
const DEAD_AFTER = new RegExp(String.raw`^(?:\s*,)?\s+(?:is|was|has been|had been|lies|lay)\s+(?:already\s+)?(?:dead${DEAD_IDIOM}|murdered|killed|slain|executed|strangled|buried)\b|^(?:\s*,)?\s+(?:died|has died|is dying|was killed|was murdered|was executed|dead since|dead these|is no more)\b`, 'i');
const DEAD_BEFORE = /\b(?:killed|murdered|executed|strangled|buried|stabbed|mourning for|the late|the dead)\s+$/i;
const DEAD_POSSESSIVE = new RegExp(String.raw`^['’]s?\s+(?:widow|execution|murder|funeral|corpse|body|ghost|tomb|pyre|ashes|killing|death|burial|${GRAVE_NOUN})\b`, 'i');
const KILLS = /\b(?:kills|stabs|strangles|murders|cuts down|runs through|beheads|slays)\s+$/i;
/** A death wished, toasted or plotted ("men … drank to the consul's death": held-out corpus 65, bl08) is no death. */
const WISHED = /\b(?:drank|drink|drinks|drinking|toast(?:ed|s|ing)?|pray(?:ed|s|ing)?|plot(?:ted|s|ting)?|plan(?:ned|s|ning)?|swore|swear(?:s|ing)?|wish(?:ed|es|ing)?|want(?:ed|s|ing)?|seek(?:s|ing)?|sought|call(?:ed|s|ing)? for|demand(?:ed|s|ing)?|vow(?:ed|s|ing)?)\s+(?:to\s+|for\s+|on\s+)?(?:the\s+)?$/i;
const ALIVE_AFTER = /^(?:\s*,)?\s+(?:is|was)\s+(?:still\s+)?(?:alive|living|not dead)\b|^\s+(?:lives|still lives|survived|escaped|is coming back|has returned)\b/i;
/** "when" or "while" before "X was alive" makes it a time gone by ("from the days when Catiline was alive": held-out corpus 73, bt06), no claim that X lives. */
const WHEN_BEFORE = /\b(?:when|while|whilst|until|till|before)\s+(?:(?:he|she)\s+and\s+)?$/i;
/** Hearsay, questions and conditions: the speaker does not assert it. */
const HEDGE = /\b(?:rumou?rs?|they say|men say|people say|saying|were saying|I hear|heard|perhaps|maybe|if|whether|would|could|might|may|a lie|lies that|false|nonsense|wish|pretend|as if|dream)\b|\?/i;

/** The clause around a mention: hedges elsewhere in the sentence ("…, who else will buy my grain?") do not soften it. */
function clauseOf(text: string, m: Mention): string {
  const start = Math.max(...[',', ';', ':', '—', '–'].map((c) => text.lastIndexOf(c, m.start)), 0);
  const ends = [',', ';', ':', '—', '–', '.'].map((c) => text.indexOf(c, m.end)).filter((i) => i >= 0);
  const end = ends.length ? Math.min(...ends) : text.length;
  const tail = text.slice(end, end + 1) === '.' || end === text.length ? text.slice(end).match(/^[^.!]*\?/)?.[0] ?? '' : '';
  return text.slice(start, end) + tail;
}

/** Factions named in the packet, as a pattern ("optimates", "populares"). */
function factionRe(factions: string[]): RegExp | null {
  const fs = [...new Set(factions.filter((f) => f && f.length > 3))];
  return fs.length ? new RegExp(`^\\s*,\\s*(?:the\\s+)?(?:[\\p{L}]+\\s+){0,4}(?:of|for)\\s+the\\s+(${fs.join('|')})\\b`, 'iu') : null;
}

/**
 * factionRe per name index (one per verification), made for its first sentence: it was made
 * again for every sentence of the scene (issue 18, twelfth pass). Not global or
 * sticky, so `match` keeps no state between sentences.
 */
const factionMemo = new WeakMap<PersonIndex, RegExp | null>();

function factionsOf(idx: PersonIndex): RegExp | null {
  let re = factionMemo.get(idx);
  if (re === undefined) factionMemo.set(idx, (re = factionRe([...idx.factions])));
  return re;
}

/**
 * What a sentence says about the life or party of the people it names: "X is dead", "X's widow",
 * "kills X", "X is alive", "X, darling of the populares". Hedged statements are kept as doubtful.
 */
export function canonStatements(text: string, mentions: readonly Mention[], idx: PersonIndex, genderOf: (id: string) => Gender | undefined = () => undefined): CanonStatement[] {
  const out: CanonStatement[] = [];
  const fre = factionsOf(idx);
  for (const m of mentions) {
    const hedged = HEDGE.test(clauseOf(text, m)) || (m.text === m.text.toUpperCase() && m.text.length > 2);
    const after = text.slice(m.end, m.end + 60);
    const before = text.slice(Math.max(0, m.start - 30), m.start);
    const others = mentions.filter((o) => o.id !== m.id).map((o) => ({ start: o.start, end: o.end, gender: genderOf(o.id) }));
    const at = { start: m.start, end: m.end, gender: genderOf(m.id) };
    if (DEAD_AFTER.test(after) || FELL_DYING.test(after) || DEAD_BEFORE.test(before) || (DEAD_POSSESSIVE.test(after) && !WISHED.test(before)) || KILLS.test(before) || saidDeadAt(text, at, others, before)) {
      out.push({ id: m.id, says: 'dead', hedged });
    }
    else if (ALIVE_AFTER.test(after) && !(/^(?:\s*,)?\s+was\b/i.test(after) && WHEN_BEFORE.test(before))) out.push({ id: m.id, says: 'alive', hedged });
    const f = fre ? after.match(fre) : null;
    if (f) out.push({ id: m.id, says: 'faction', faction: f[1].toLowerCase(), hedged });
  }
  return out;
}
