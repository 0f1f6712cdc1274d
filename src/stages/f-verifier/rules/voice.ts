import type { Finding } from '../../../domain/scene.js';
import type { ParsedWriterOutput } from '../../e-writer/parse.js';
import type { LexiconEntry } from '../../e-writer/types.js';
import { finding, textLines, type VerifyContext } from '../context.js';

export interface AnachronismHit {
  word: string;
  replacement: string;
  line: number;
  column: number;
  text: string;
}

/** Whole word or phrase, case-insensitive, Unicode letters as word characters. */
export function lexiconPattern(word: string): RegExp {
  const body = word.trim().split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${body}(?![\\p{L}\\p{N}_])`, 'giu');
}

export function scanAnachronisms(lines: { line: number; text: string }[], lexicon: LexiconEntry[]): AnachronismHit[] {
  const hits: AnachronismHit[] = [];
  for (const e of lexicon) {
    const re = lexiconPattern(e.word);
    for (const l of lines) {
      re.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = re.exec(l.text))) hits.push({ word: m[0], replacement: e.replacement, line: l.line, column: m.index + 1, text: l.text });
    }
  }
  return hits.sort((a, b) => a.line - b.line || a.column - b.column);
}

export function anachronismRules(p: ParsedWriterOutput, ctx: VerifyContext): Finding[] {
  return scanAnachronisms(textLines(p), ctx.lexicon).map((h) =>
    finding('AUR5050', 'hard', ctx.packet.scene_id, 'voice.anachronism', { word: h.word, replacement: `"${h.replacement}"` }, { line: h.line, text: h.text }),
  );
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
