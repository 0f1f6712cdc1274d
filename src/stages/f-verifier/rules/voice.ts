import type { Claim, Finding } from '../../../domain/scene.js';
import type { ParsedWriterOutput } from '../../e-writer/parse.js';
import { findAnachronisms } from '../../../style/lexicon.js';
import { finding, textLines, type VerifyContext } from '../context.js';

/**
 * Anachronisms through the lexicon's own matcher (src/style/lexicon.ts: whole word or phrase,
 * case-insensitive, plurals of single words, longest match wins), quoted with the replacement.
 */
export function anachronismRules(p: ParsedWriterOutput, ctx: VerifyContext): Finding[] {
  if (!p.scene_text || !ctx.lexicon.length) return [];
  const lines = p.scene_text.split('\n');
  return findAnachronisms(p.scene_text, ctx.lexicon).map((h) =>
    finding('AUR5050', 'hard', ctx.packet.scene_id, 'voice.anachronism', { word: h.word, replacement: quoteAlternatives(h.replacement) }, { line: p.text_first_line + h.line - 1, text: lines[h.line - 1] }),
  );
}

/**
 * Anachronisms in the claims: a claim may become canon, so its words are held to the lexicon like
 * the scene's. The span quotes the line of the CLAIMS section that holds the word.
 */
export function claimAnachronismRules(p: ParsedWriterOutput, claims: Claim[], ctx: VerifyContext): Finding[] {
  if (!ctx.lexicon.length) return [];
  const lines = p.claims_section.text.split('\n');
  const out: Finding[] = [];
  for (const c of claims) {
    for (const h of findAnachronisms(c.text, ctx.lexicon)) {
      const i = p.claims_section.first ? lines.findIndex((l) => l.toLowerCase().includes(h.word.toLowerCase())) : -1;
      const span = i >= 0 ? { line: p.claims_section.first + i, text: lines[i] } : undefined;
      const f = finding('AUR5050', 'hard', ctx.packet.scene_id, 'voice.anachronism', { word: h.word, replacement: quoteAlternatives(h.replacement) }, span);
      // The claim is named: it is the claim, not a line of the scene, that must change.
      out.push({ ...f, message: `${f.message} in claim ${c.id}` });
    }
  }
  return out;
}

/** "very well; so be it" -> "very well" or "so be it" */
export function quoteAlternatives(replacement: string): string {
  return replacement
    .split(';')
    .map((x) => x.trim())
    .filter(Boolean)
    .map((x) => `"${x}"`)
    .join(' or ');
}

/** Longest final line that still reads as a button: one beat, not a summary paragraph. */
export const HOOK_MAX_WORDS = 30;

/**
 * Soft: the scene must end on a hook or button line, i.e. a last line that is dialogue or a short
 * action line ending in terminal punctuation, not a heading, a cast line or a summary paragraph.
 */
export function hookRule(p: ParsedWriterOutput, ctx: VerifyContext): Finding[] {
  const lines = textLines(p).filter((l) => l.text.trim());
  if (!lines.length) return [];
  const last = lines[lines.length - 1];
  const t = last.text.trim().replace(/^>\s*/, '');
  const wordsN = t.split(/\s+/).length;
  const isHeading = /^#/.test(t) || /^\*\*Cast/i.test(t);
  const terminal = /[.!?…—–"'’”)*]$/.test(t);
  if (!isHeading && terminal && wordsN <= HOOK_MAX_WORDS && lines.length > 2) return [];
  return [finding('AUR5060', 'soft', ctx.packet.scene_id, 'quality.no_hook', { hook: ctx.packet.constraints.hook_requirement }, last)];
}
