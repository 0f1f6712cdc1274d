import type { VerifyContext } from '../context.js';
import type { Narration } from './deeds.js';
import type { Mention } from './names.js';

/**
 * A scene told in the first person by one of its own cast (held-out corpus 109: "Two days before, I had stood in
 * Manlius' camp at Faesulae …", told by Cato). The readers of deeds, whereabouts and payments follow names and "he"
 * or "she"; the narrator's "I" is one more name for that cast member. Read only when the telling is plainly in the
 * first person (at least three narration sentences, and a quarter of them, say "I" outside quotations) and exactly one
 * cast member is never named in the narration: the one who tells it. A witness who is not of the cast names the cast
 * as they act, and leaves no one over; a narrator who names themself is not read.
 */
export function firstPersonNarrator(narration: readonly Narration[], ctx: VerifyContext): string | null {
  const told = narration.filter((n) => n.line > 0);
  const first = told.filter((n) => /\bI\b/.test(n.narr)).length;
  if (first < 3 || first * 4 < told.length) return null;
  const named = new Set(told.flatMap((n) => n.mentions.map((m) => m.id)));
  const left = ctx.packet.cast.filter((c) => !named.has(c.id));
  return left.length === 1 ? left[0]!.id : null;
}

/** Each narration sentence's "I", outside quotations, as a mention of the narrator, in order with its names. */
export function withNarrator(narration: Narration[], id: string): void {
  for (const n of narration) {
    const own: Mention[] = [...n.narr.matchAll(/\bI\b/g)].map((m) => ({ id, start: m.index!, end: m.index! + 1, text: 'I' }));
    if (own.length) n.mentions = [...n.mentions, ...own].sort((a, b) => a.start - b.start);
  }
}
