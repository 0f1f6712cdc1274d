import { describe, expect, it } from 'vitest';
import { parseWriterOutput, extractJson } from '../../../src/stages/e-writer/parse.js';
import { verifySceneOutput } from '../../../src/stages/f-verifier/verify.js';
import { ctx, fixture } from './helpers.js';

describe('writer output parser', () => {
  it('splits the three sections of a clean answer', () => {
    const p = parseWriterOutput(fixture('clean.txt'));
    expect(p.parse_findings).toEqual([]);
    expect(p.scene_text.startsWith('## SC04 — INT. VILLA OF CRASSUS - NIGHT')).toBe(true);
    expect(p.scene_text.endsWith('I will come for the interest.')).toBe(true);
    expect(p.claims).toHaveLength(2);
    expect(p.events.map((e) => e.id)).toEqual(['e1', 'e2']);
  });

  it('tolerates CRLF, prose around the sections, bold markers, fences and trailing commas', () => {
    const raw = fixture('tolerant_crlf.txt');
    expect(raw).toContain('\r\n');
    const p = parseWriterOutput(raw);
    expect(p.claims).toHaveLength(2);
    expect(p.events).toHaveLength(2);
    expect(p.scene_text).not.toContain('\r');
    expect(p.scene_text).not.toContain('Sure!');
    expect(p.parse_findings.map((f) => f.code)).toEqual(['AUR5003']);
    const v = verifySceneOutput(raw, ctx());
    expect(v.findings.map((f) => [f.code, f.severity])).toEqual([['AUR5003', 'soft']]);
    expect(v.hard).toBe(false);
  });

  it('makes a missing or empty section a finding, never an exception', () => {
    expect(parseWriterOutput('').parse_findings.map((f) => f.code)).toEqual(['AUR5001', 'AUR5001', 'AUR5001']);
    const p = parseWriterOutput('---SCENE_TEXT---\n\n---CLAIMS---\n[]\n---SCENE_EVENTS---\nnothing happened');
    expect(p.parse_findings.map((f) => f.code)).toEqual(['AUR5005', 'AUR5002']);
    expect(p.events).toEqual([]);
  });

  it('repairs truncated JSON and reports the repair', () => {
    const p = parseWriterOutput('---SCENE_TEXT---\nx\n---CLAIMS---\n[{"id":"c1","kind":"object","text":"a ring"\n---SCENE_EVENTS---\n[]');
    expect(p.claims).toEqual([{ id: 'c1', kind: 'object', text: 'a ring' }]);
    expect(p.parse_findings.map((f) => f.code)).toEqual(['AUR5003']);
  });

  it('extracts JSON from fences and prose', () => {
    expect(extractJson('Here:\n```json\n[1, 2]\n```\nDone')).toBe('[1, 2]');
    expect(extractJson('The list is [1, [2]] as agreed')).toBe('[1, [2]]');
    expect(extractJson('no json here')).toBeNull();
  });
});
