import type { Finding, SceneEvent } from '../../../domain/scene.js';
import type { ParsedWriterOutput } from '../../e-writer/parse.js';
import { finding } from '../context.js';
import { describeAjvError, validators } from '../schemas.js';

const SECTION_OF: Record<string, string> = { CLAIMS: 'CLAIMS', SCENE_EVENTS: 'SCENE_EVENTS', SCENE_TEXT: 'SCENE_TEXT' };

/** Format rules: missing sections, unparseable or repaired JSON, schema mismatches. */
export function formatRules(p: ParsedWriterOutput, scene: string): Finding[] {
  const out: Finding[] = [];
  for (const pf of p.parse_findings) {
    const section = Object.keys(SECTION_OF).find((s) => pf.message.includes(` ${s} `)) ?? 'SCENE_TEXT';
    const detail = pf.message.replace(/^.*?(?:JSON: |repair \()/, '').replace(/\)$/, '');
    if (pf.code === 'AUR5001') out.push(finding('AUR5001', 'hard', scene, 'format.section_missing', { section }));
    else if (pf.code === 'AUR5002') out.push(finding('AUR5002', 'hard', scene, 'format.json_invalid', { section, detail }));
    // At the slip: its line of the answer and its offset in the quoted stretch (json.ts slipIn), found again in the file the author edits.
    else if (pf.code === 'AUR5003') out.push(finding('AUR5003', 'soft', scene, 'format.json_repaired', { section, detail }, pf.span));
    else if (pf.code === 'AUR5005') out.push(finding('AUR5005', 'hard', scene, 'format.text_empty', {}));
    // Soft: the characters are already gone (e-writer/normalise/hygiene.ts); the answer stands.
    else if (pf.code === 'AUR5007') out.push(finding('AUR5007', 'soft', scene, 'format.control_chars', { field: pf.args?.field ?? 'SCENE_TEXT', removed: pf.args?.removed ?? '?' }));
  }
  const v = validators();
  const check = (section: 'CLAIMS' | 'SCENE_EVENTS', value: unknown, fn: typeof v.claims, expected: string) => {
    if (value === undefined) return;
    if (fn(value)) return;
    const e = fn.errors![0];
    out.push(
      finding('AUR5004', 'hard', scene, 'format.schema', {
        section,
        pointer: e.instancePath || '',
        detail: describeAjvError(e),
        expected,
      }),
    );
  };
  check('CLAIMS', p.claims_raw, v.claims, 'an array of {id, kind, text, subject?}');
  check('SCENE_EVENTS', p.events_raw, v.events, 'an array of {id, type, application_id?, operator_id?, actor?, target?, deltas, text}');
  return out;
}

/**
 * What the semantic rules may judge. Claims: the section when it matches its schema. Events: each
 * event whose changes can be read (its deltas and ids match the schema), even when another field of
 * it does not (a missing text after a max_tokens cut, an unknown type): that field is already a hard
 * AUR5004, and judging the readable changes names what the scene really lacks.
 */
export function sectionsUsable(p: ParsedWriterOutput): { claims: boolean; events: boolean; judged_events: SceneEvent[] } {
  const v = validators();
  const raw = p.events_raw;
  const judged = Array.isArray(raw) ? raw.flatMap((e) => readableChanges(e, v.events)) : [];
  return {
    claims: p.claims_raw !== undefined && v.claims(p.claims_raw),
    events: Array.isArray(raw),
    judged_events: judged,
  };
}

/**
 * An event's changes checked by the events schema itself, with its id, type and text set aside; a
 * participant or operator id that does not match the schema is left out of what is judged (the
 * AUR5004 already names it), so it cascades into no other finding.
 */
function readableChanges(e: unknown, fn: (x: unknown) => boolean): SceneEvent[] {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return [];
  const o = e as Record<string, unknown>;
  if (typeof o.id !== 'string') return [];
  const core = { id: o.id, type: 'action', text: '', deltas: o.deltas, ...('application_id' in o ? { application_id: o.application_id } : {}) };
  if (!fn([core])) return [];
  const out = { ...o } as Record<string, unknown>;
  for (const k of ['operator_id', 'actor', 'target']) if (k in o && !fn([{ ...core, [k]: o[k] }])) delete out[k];
  return [out as unknown as SceneEvent];
}
