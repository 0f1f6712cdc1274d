import type { VerifyContext } from '../context.js';
import type { Narration } from './deeds.js';
import type { Mention } from './names.js';

/** A cast member who tells the scene, and the pronoun that stands for them in its narration. */
export interface CastNarrator {
  id: string;
  pronoun: RegExp;
  text: string;
}

/**
 * "I" of a scene told in the first person; "you" of one told in the second, where "you" is the viewpoint cast member
 * ("You pay off the note you signed in the spring … twenty thousand denarii": held-out corpus 113, dh19, Fulvia).
 */
const PERSONS = [
  { pronoun: /\bI\b/g, test: /\bI\b/, text: 'I' },
  { pronoun: /\byou\b/gi, test: /\byou\b/i, text: 'you' },
] as const;

/**
 * A scene told in the first person by one of its own cast (held-out corpus 109: "Two days before, I had stood in
 * Manlius' camp at Faesulae …", told by Cato), or in the second person as one of them (113). The readers of deeds,
 * whereabouts and payments follow names and "he" or "she"; the narrator's "I" or "you" is one more name for that cast
 * member. Read only when the telling is plainly in that person (at least three narration sentences, and a quarter of
 * them, say it outside quotations) and exactly one cast member is never named in the narration: the one who tells it
 * or is told. A witness who is not of the cast names the cast as they act, and leaves no one over; a narrator who
 * names themself is not read; a narrator who speaks to the reader ("You should know that Crassus never paid anyone on
 * time": 104) names every cast member as they act, so no one is left to be "you".
 */
export function castNarrator(narration: readonly Narration[], ctx: VerifyContext): CastNarrator | null {
  const told = narration.filter((n) => n.line > 0);
  for (const p of PERSONS) {
    const count = told.filter((n) => p.test.test(n.narr)).length;
    if (count < 3 || count * 4 < told.length) continue;
    const named = new Set(told.flatMap((n) => n.mentions.map((m) => m.id)));
    const left = ctx.packet.cast.filter((c) => !named.has(c.id));
    return left.length === 1 ? { id: left[0]!.id, pronoun: p.pronoun, text: p.text } : null;
  }
  return null;
}

/** Each narration sentence's narrator pronoun, outside quotations, as a mention of the narrator, in order with its names. */
export function withNarrator(narration: Narration[], narrator: CastNarrator): void {
  for (const n of narration) {
    const own: Mention[] = [...n.narr.matchAll(narrator.pronoun)].map((m) => ({ id: narrator.id, start: m.index!, end: m.index! + m[0].length, text: m[0] }));
    if (own.length) n.mentions = [...n.mentions, ...own].sort((a, b) => a.start - b.start);
  }
}
