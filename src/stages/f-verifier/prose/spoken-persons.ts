import type { VerifyContext } from '../context.js';
import type { ProseSentence, Reading } from './reader.js';
import { fits, speakerOf } from './speaker.js';

/**
 * A line of speech with its persons put back by name, so a fact told in the first person is read as told: Crassus,
 * looking at Clodius, says "His crews in the Subura are paid with my money" and has told that Clodius' crews are paid
 * with Crassus' money. In speech "I", "me" and "my" are the speaker (speaker.ts: a cue, a said-tag, or the one subject
 * of its paragraph), and "he", "him" and "his" the one other man the narration of its paragraph names before the
 * quotation (the one looked at, pointed to, spoken of); "she" and "her" likewise a woman (whom the speaker speaks to
 * is "you"). Two such people, or none: the pronoun is left as it is.
 */

const FIRST = /\b(?:I|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself)\b/g;
/** "he", "him", "his" and "she", "her": the person pointed at, by the pronoun's gender. */
const THIRD: Record<'he' | 'she', RegExp> = { he: /\b(?:he|him|his|himself)\b/gi, she: /\b(?:she|her|hers|herself)\b/gi };

/** The one other person the narration of the quotation's paragraph names before it that `pronoun` can mean. */
function personPointedAt(r: Reading, k: number, speaker: string | null, pronoun: 'he' | 'she', ctx: VerifyContext): string | null {
  const s = r.sentences[k]!;
  const named = r.sentences
    .slice(0, k)
    .filter((t) => t.line === s.line && t.kind === 'narration')
    .flatMap((t) => t.mentions.map((m) => m.id))
    .filter((id) => id !== speaker && fits(id, pronoun, r, ctx));
  const ids = [...new Set(named)];
  return ids.length === 1 ? ids[0]! : null;
}

const nameOf = (id: string, r: Reading, ctx: VerifyContext): string | undefined =>
  r.index.byId.get(id)?.name ?? [...ctx.packet.cast, ...ctx.packet.dead].find((c) => c.id === id)?.name;

/**
 * The speech sentence `s` with its first- and third-person pronouns named where the scene says whom they mean
 * (`first`: the speaker's own too; without it, only the person pointed at); narration as it is.
 */
export function withSpeakersNamed(r: Reading, s: ProseSentence, ctx: VerifyContext | undefined, first = true): string {
  if (!ctx || s.kind !== 'speech') return s.text;
  const k = r.sentences.indexOf(s);
  if (k < 0) return s.text;
  const speaker = speakerOf(r, k, ctx, true)?.id ?? null;
  const me = speaker && first ? nameOf(speaker, r, ctx) : undefined;
  let text = s.text;
  if (me) text = text.replace(FIRST, (w) => (/^(?:my|mine)$/i.test(w) ? `${me}'s` : me));
  for (const p of ['he', 'she'] as const) {
    if (!new RegExp(THIRD[p].source, 'i').test(text)) continue;
    const id = personPointedAt(r, k, speaker, p, ctx);
    const name = id ? nameOf(id, r, ctx) : undefined;
    if (name) text = text.replace(THIRD[p], (w) => (/^(?:his|hers)$/i.test(w) ? `${name}'s` : name));
  }
  return text;
}
