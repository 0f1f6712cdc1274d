import type { Mention, PersonIndex } from './names.js';
import type { Gender } from '../../../domain/world.js';
import { DEAD_IDIOM, GRAVE_NOUN, pronounDied, saidDeadAt } from './death.js';
import { FELL_DYING } from './fell.js';
import { BYSTANDER } from './pronoun-doer.js';
import { possessiveAfter } from './names.js';
import type { ProseSentence } from './reader.js';

/** A statement the prose makes about a person's life or party. */
export interface CanonStatement {
  id: string;
  says: 'dead' | 'alive' | 'faction';
  faction?: string;
  /** Hedged (rumour, question, modal) or shouted on a wall: doubtful. */
  hedged: boolean;
}

const DEAD_AFTER = new RegExp(String.raw`^(?:\s*,)?\s+(?:is|was|has been|had been|lies|lay)\s+(?:already\s+)?(?:dead${DEAD_IDIOM}|murdered|killed|slain|executed|strangled|buried)\b|^(?:\s*,)?\s+(?:died|has died|is dying|was killed|was murdered|was executed|dead since|dead these)\b`, 'i');
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
 * With the sentence before (`prev`, sentenceBefore): a death told of "he" or "she" that can mean only
 * one person named there (pronounDeath).
 */
export function canonStatements(text: string, mentions: readonly Mention[], idx: PersonIndex, genderOf: (id: string) => Gender | undefined = () => undefined, prev: Before | null = null): CanonStatement[] {
  const out: CanonStatement[] = [];
  const died = prev ? pronounDeath(text, mentions, prev, genderOf) : null;
  if (died) out.push(died);
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

/** The sentence before one, as canonStatements reads it: its text (quotations blanked for narration) and names. */
export interface Before {
  text: string;
  mentions: readonly Mention[];
  /** The names of the sentences of the other kind between: a quotation's, or its narration's said-tag. */
  between: readonly Mention[];
}

/**
 * The sentence before `ss[i]` of the same kind (narration or speech), in its paragraph or ending the one before (a
 * blank line between), with the names of the sentences of the other kind between; or null: none, or a claim's or
 * event's text (line 0).
 */
export function sentenceBefore(ss: readonly ProseSentence[], i: number): Before | null {
  const s = ss[i]!;
  const between: Mention[] = [];
  let j = i - 1;
  for (; j >= 0 && ss[j]!.kind !== s.kind; j--) between.push(...ss[j]!.mentions);
  const p = j >= 0 ? ss[j]! : null;
  return p && p.line > 0 && s.line > 0 && s.line - p.line <= 2 ? { text: p.narr ?? p.text, mentions: p.mentions, between } : null;
}

/** A body or a bier: "he" after it may be the dead man it was ("Cato knelt by the body. He was dead."). */
const BODY = /\b(?:body|bodies|corpse|corpses|remains|bier|shroud)\b/i;

/**
 * "Cato left the Forum at dusk. By morning he was dead." (death.ts pronounDied): the pronoun means the one person of
 * its gender the sentence before names (not only as an owner, "Cato's horse"), when this sentence names nobody it fits
 * and neither tells of an unnamed man or woman (BYSTANDER: "his steward", "a slave") or a body it could mean. Two men
 * named before, a woman named before "he", or a man named between (a quotation's "Caesar is coming," between "Cato
 * said." and "By morning he was dead.") leave it unread. Hedged as a sentence is (a question, "if", rumour).
 */
function pronounDeath(text: string, mentions: readonly Mention[], prev: Before, genderOf: (id: string) => Gender | undefined): CanonStatement | null {
  const d = pronounDied(text);
  if (!d) return null;
  const want: Gender = d.pronoun === 'he' ? 'male' : 'female';
  const fits = (id: string) => (genderOf(id) ?? want) === want;
  if ([...mentions, ...prev.between].some((m) => fits(m.id))) return null;
  const before = text.slice(0, d.at);
  if ([before, prev.text].some((t) => BYSTANDER[want].test(t) || BODY.test(t))) return null;
  const named = prev.mentions.filter((m) => fits(m.id));
  const ids = new Set(named.map((m) => m.id));
  if (ids.size !== 1 || named.every((m) => possessiveAfter(prev.text.slice(m.end)))) return null;
  return { id: named[0]!.id, says: 'dead', hedged: HEDGE.test(text) };
}
