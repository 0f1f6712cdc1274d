import type { Claim, SceneEvent } from '../../../domain/scene.js';
import type { ParsedWriterOutput } from '../parse.js';
import { normaliseClaims } from './claims.js';
import { normaliseEvents } from './events.js';
import { stripAnswerControls } from './hygiene.js';
import { resolver, type NormaliseContext } from './ids.js';

export type { NormaliseContext } from './ids.js';
export { isBookkeeping } from './events.js';

/**
 * The normalisation step between the model's answer and the verifier (issue 13). parseWriterOutput
 * has already read the form (sections, fences, JSON); this reads the content's spelling against the
 * scene: ids, operators, kinds, keys and signs. The raw values stay untouched on disk (drafts/);
 * every change is appended to `normalisations`, and none adds story content.
 */
export function normaliseParsed(parsed: ParsedWriterOutput, ctx: NormaliseContext): ParsedWriterOutput {
  const notes = [...parsed.normalisations];
  const parse_findings = [...parsed.parse_findings];
  // First: what is committed from the answer holds no control or bidi characters (hygiene.ts).
  const clean = stripAnswerControls(parsed, parse_findings, notes);
  const r = resolver(ctx);
  const claims_raw = clean.claims_raw === undefined ? undefined : normaliseClaims(clean.claims_raw, r, ctx, notes);
  const events_raw = clean.events_raw === undefined ? undefined : normaliseEvents(clean.events_raw, r, ctx, notes);
  return {
    ...parsed,
    scene_text: clean.scene_text,
    parse_findings,
    claims_raw,
    events_raw,
    claims: Array.isArray(claims_raw) ? (claims_raw as Claim[]) : parsed.claims,
    events: Array.isArray(events_raw) ? (events_raw as SceneEvent[]) : parsed.events,
    normalisations: notes,
  };
}
