/**
 * Phrase pools for the offline writer. Placeholders: {name} {target} {place} {time} {atmo}.
 * Pools are large enough that a seeded pick rarely repeats inside an episode; every phrase is
 * period-safe (the writer still scrubs lexicon words as a last line of defence).
 *
 * The pools live by purpose under phrases/; this module is the one import for the writer.
 */
export * from './phrases/places.js';
export * from './phrases/voice.js';
export * from './phrases/reactions.js';
export * from './phrases/hooks.js';

/** Words a sentence may start with that are not names: only these lose their capital mid-sentence. */
const COMMON_LEADS = new Set(['the', 'a', 'an', 'his', 'her', 'their', 'its', 'it', 'there', 'this', 'that', 'these', 'those', 'one', 'some', 'every', 'no', 'all', 'most', 'half', 'two', 'three', 'several', 'someone', 'somebody', 'nobody', 'he', 'she', 'they', 'we', 'our', 'my', 'in', 'at', 'on', 'for', 'after', 'before', 'when', 'while']);

/**
 * Lower-cases the first letter of a text that will follow a colon or "that", but only when its
 * first word is a common word: "The vote-brokers …" → "the vote-brokers …", while "Murena's
 * vote-brokers …" keeps its capital.
 */
export function lowerLead(s: string): string {
  const m = /^(\p{L}+)/u.exec(s);
  if (!m || !COMMON_LEADS.has(m[1]!.toLowerCase())) return s;
  return s[0]!.toLowerCase() + s.slice(1);
}
