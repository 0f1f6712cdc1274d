import type { Finding } from '../../../domain/scene.js';
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
    else if (pf.code === 'AUR5003') out.push(finding('AUR5003', 'soft', scene, 'format.json_repaired', { section, detail }));
    else if (pf.code === 'AUR5005') out.push(finding('AUR5005', 'hard', scene, 'format.text_empty', {}));
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

/** True when the JSON sections can be trusted by the semantic rules. */
export function sectionsUsable(p: ParsedWriterOutput): { claims: boolean; events: boolean } {
  const v = validators();
  return {
    claims: p.claims_raw !== undefined && v.claims(p.claims_raw),
    events: p.events_raw !== undefined && v.events(p.events_raw),
  };
}
