import type { ScenePacket } from '../../domain/packet.js';
import type { LlmRequest } from '../../ports/llm.js';
import { SECTION } from '../e-writer/types.js';

/**
 * The format-fix call (issue 13): when only the form of a writer answer is broken (a section
 * cannot be found, its JSON cannot be read), one cheap call on the `format_fix` role (a small
 * model) rewrites the form and nothing else, before a regeneration is spent. The prose must come
 * back unchanged; `proseUnchanged` checks it, so a fixer that "improves" the scene is discarded.
 */
export const FORMAT_FIX_SYSTEM = `You repair the FORM of a screenwriter's answer. You never change its story or its words.
Return the same answer in exactly this form, nothing before or after it:
${SECTION.text}
<the scene prose, copied character for character>

${SECTION.claims}
<one JSON array: {"id","kind","text","subject"?} per claim; [] if there are none>

${SECTION.events}
<one JSON array: {"id","type","application_id","operator_id","actor","target","deltas":[...],"text"} per event>

Rules: copy the prose exactly: add, drop or reword nothing. Claims or events written as lists, tables,
prose or one combined object become JSON arrays with the same content, fields and values. A missing or
empty section is []. No code fences, no comments, no notes.`;

/** The task behind a format-fix prompt; the offline provider answers from it (providers/offline/format_fix.ts). */
export interface FormatFixPayload {
  task: 'format_fix';
  /** The writer's answer as it came back. */
  draft: string;
  /** What could not be read in it, in words (the verifier's form errors). */
  form_errors: string[];
}

export function buildFormatFixRequest(packet: ScenePacket, draft: string, formErrors: string[], attempt: number, signal?: AbortSignal): LlmRequest {
  const payload: FormatFixPayload = { task: 'format_fix', draft, form_errors: formErrors };
  const req: LlmRequest = {
    role: 'format_fix',
    system: FORMAT_FIX_SYSTEM,
    messages: [{ role: 'user', content: `PARSE_ERRORS:\n${formErrors.map((e) => `- ${e}`).join('\n')}\n\nANSWER:\n${draft}` }],
    payload,
    meta: { episode: packet.episode_id, scene: packet.scene_id, attempt, label: 'format_fix' },
  };
  if (signal) req.signal = signal;
  return req;
}

/**
 * Prose compared for "unchanged": typography and layout a form repair may touch are ignored
 * (smart quotes and dashes, markdown emphasis, quote markers, headings' hashes, whitespace),
 * words, names, punctuation and their order are not.
 */
export function proseKey(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201A\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u2033]/g, '"')
    .replace(/[\u2013\u2014\u2212]/g, '-')
    .replace(/\u2026/g, '...')
    .replace(/```[\w-]*/g, ' ')
    .replace(/[*_`>#]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * True when the fixed answer's prose is the draft's. When the draft's scene text could be read,
 * the two must match exactly (after proseKey); when it could not (no marker at all), the fixed
 * prose must be a verbatim stretch of the draft that covers the text before its first JSON.
 */
export function proseUnchanged(draftRaw: string, draftText: string, fixedText: string): boolean {
  const fixed = proseKey(fixedText);
  if (!fixed) return false;
  if (draftText.trim()) return fixed === proseKey(draftText);
  const raw = proseKey(draftRaw);
  if (!raw.includes(fixed)) return false;
  const beforeJson = draftRaw.split(/\n\s*(?:```|\[|\{)/)[0] ?? '';
  return fixed.length >= Math.floor(proseKey(beforeJson).length * 0.8);
}
