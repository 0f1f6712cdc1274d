import type { Finding } from '../../../domain/scene.js';
import type { ParsedWriterOutput } from '../../e-writer/parse.js';
import { finding, textLines, type VerifyContext } from '../context.js';
import { DEFAULT_MIN_SCENE_WORDS } from '../../../config/defaults.js';

export { DEFAULT_MIN_SCENE_WORDS };

/** A heading, the cast line or a title card: they frame the scene but are not the scene. */
const FRAME = /^\s*(?:#|\*\*Cast\b|Cast:|(?:\*\*)?(?:SUPER|TITLE|CAPTION|CARD|INTERTITLE)\b|(?:INT|EXT)\.)/i;

/** Words of the scene proper: every line but its frame lines. */
export function sceneWords(p: ParsedWriterOutput): number {
  return textLines(p)
    .filter((l) => !FRAME.test(l.text))
    .reduce((n, l) => n + (l.text.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu)?.length ?? 0), 0);
}

/**
 * Hard: a scene shorter than the configured minimum (issue 14), e.g. only its heading and cast line.
 * An empty SCENE_TEXT is already AUR5005; 0 turns the rule off (the play transcript, built turn by turn).
 */
export function lengthRule(p: ParsedWriterOutput, ctx: VerifyContext): Finding[] {
  const min = ctx.min_scene_words ?? DEFAULT_MIN_SCENE_WORDS;
  if (min <= 0 || !p.scene_text.trim()) return [];
  const words = sceneWords(p);
  if (words >= min) return [];
  const last = textLines(p).filter((l) => l.text.trim()).pop();
  return [finding('AUR5006', 'hard', ctx.packet.scene_id, 'format.too_short', { words, min }, last)];
}
