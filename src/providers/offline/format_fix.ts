import type { LlmRequest } from '../../ports/llm.js';
import { parseWriterOutput } from '../../stages/e-writer/parse.js';
import { SECTION } from '../../stages/e-writer/types.js';
import type { FormatFixPayload } from '../../stages/g-repair/format-fix.js';
import type { OfflineRealizer } from './index.js';

/**
 * The offline realizer of the `format_fix` role: the draft re-dressed in the three canonical
 * sections, deterministically. The prose is copied as the tolerant parser reads it (or, with no
 * marker at all, the text before the first JSON); a JSON section that cannot be read becomes []
 * — content is never invented, so a lost SCENE_EVENTS still fails the plan checks afterwards.
 */
export function offlineFormatFix(request: LlmRequest): { text: string } {
  const p = request.payload as FormatFixPayload | undefined;
  if (!p || p.task !== 'format_fix' || typeof p.draft !== 'string') throw new Error('offline format fix: request has no format_fix payload');
  const parsed = parseWriterOutput(p.draft);
  const text = parsed.scene_text.trim() ? parsed.scene_text : (p.draft.replace(/\r\n?/g, '\n').split(/\n\s*(?:```|\[|\{)/)[0] ?? '').trim();
  const list = (v: unknown) => JSON.stringify(Array.isArray(v) ? v : []);
  return { text: `${SECTION.text}\n${text}\n\n${SECTION.claims}\n${list(parsed.claims_raw)}\n\n${SECTION.events}\n${list(parsed.events_raw)}\n` };
}

/** Registry entry point (offline/index.ts loads `realize` from ./format_fix.js). */
export const realize: OfflineRealizer = (req) => offlineFormatFix(req);
