import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWriterOutput, extractJson, formErrors } from '../../../src/stages/e-writer/parse.js';
import { verifySceneOutput } from '../../../src/stages/f-verifier/verify.js';
import { ctx, fixture } from './helpers.js';

const corpus = path.join(import.meta.dirname, '../../fixtures/writer-corpus');

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

  it('reads a markdown underline under a section heading as part of the heading: "None" under an underlined CLAIMS is an empty list (held-out corpus 6, v11)', () => {
    // Written for this test: every heading underlined, "=" and "-", with and without a blank line after.
    const raw = 'SCENE_TEXT\n==========\n\nCato waits by the door.\n\nCLAIMS\n======\n\nNone\n\nSCENE_EVENTS\n------------\n[]\n';
    const p = parseWriterOutput(raw);
    expect(p.parse_findings).toEqual([]);
    expect(p.claims).toEqual([]);
    expect(p.events).toEqual([]);
    expect(p.scene_text.trim()).toBe('Cato waits by the door.');
    // A rule further down a section stays where it is (a scene break in the prose).
    expect(parseWriterOutput('---SCENE_TEXT---\nCato waits.\n\n---\n\nLater.\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n[]\n').scene_text).toContain('---');
  });

  it('makes a missing or empty section a finding, never an exception', () => {
    expect(parseWriterOutput('').parse_findings.map((f) => f.code)).toEqual(['AUR5001', 'AUR5001', 'AUR5001']);
    const p = parseWriterOutput('---SCENE_TEXT---\n\n---CLAIMS---\n[]\n---SCENE_EVENTS---\nnothing happened');
    expect(p.parse_findings.map((f) => f.code)).toEqual(['AUR5005', 'AUR5002']);
    expect(p.events).toEqual([]);
  });

  it('ends the scene text at a heading that names claims and events together (the w50 form): no JSON in the prose, the form left to the format fix', () => {
    const raw = fs.readFileSync(path.join(corpus, 'w50_sc21_combined_json.txt'), 'utf8');
    const p = parseWriterOutput(raw);
    expect(p.scene_text).not.toMatch(/CLAIMS|scene_events|```/);
    expect(p.scene_text.split('\n').at(-1)!.trim()).not.toBe('');
    expect(raw.slice(0, raw.indexOf('### CLAIMS & SCENE_EVENTS')).trimEnd().endsWith(p.scene_text.split('\n').at(-1)!)).toBe(true);
    expect(formErrors(p)).toEqual(['the CLAIMS section is missing from the writer output', 'the SCENE_EVENTS section is missing from the writer output']);
    expect(p.normalisations.map((n) => n.what).join(' ')).toMatch(/"### CLAIMS & SCENE_EVENTS" \(line \d+\) as the end of the section before it/);
    // A prose line that only mentions claims and events is prose.
    const prose = parseWriterOutput('---SCENE_TEXT---\nClaims and events crowd the forum.\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n[]');
    expect(prose.scene_text).toBe('Claims and events crowd the forum.');
  });

  it('reads a heading that names the scene alone as the SCENE_TEXT marker when the other sections follow it (held-out corpus 4, z07)', () => {
    const body = 'Rain drums on the roof tiles.\n\nMarcus waits by the brazier and says nothing.';
    const tail = '\n\n## Claims\n\nNone.\n\n## Scene Events\n\n[]\n';
    for (const head of ['## Scene', '### The scene', '**Scene**', '# Scene:', '## The Scene Text', '### **Scene**']) {
      const p = parseWriterOutput(`${head}\n\n${body}${tail}`);
      expect(p.scene_text.trim(), head).toBe(body);
      expect(formErrors(p), head).toEqual([]);
      expect(p.normalisations.map((n) => n.what).join(' '), head).toContain(`"${head}" (line 1) as ---SCENE_TEXT---`);
    }
    // After a preamble, the first such heading opens the scene, and a second one inside it stays text.
    const twice = parseWriterOutput(`Here is the scene.\n\n## Scene\n\n${body}\n\n## Scene\n\nThe lamp gutters.${tail}`);
    expect(twice.scene_text.trim()).toBe(`${body}\n\n## Scene\n\nThe lamp gutters.`);
  });

  it('reads a SCENE_TEXT heading or bold label with a title after a dash, colon or quotation mark: the title is the scene\'s first line (held-out corpus 62, bi07)', () => {
    const body = 'Rain drums on the roof tiles.\n\nMarcus waits by the brazier and says nothing.';
    const tail = '\n\n## Claims\n\nNone.\n\n## Scene Events\n\n[]\n';
    for (const [head, title] of [
      ['## SCENE TEXT — "What Caesar Did Not Say"', '"What Caesar Did Not Say"'],
      ['## Scene Text: The Price of a Name', 'The Price of a Name'],
      ['### Scene text - "The Empty Hand"', '"The Empty Hand"'],
      ['**SCENE TEXT — Night at the House of Crassus**', 'Night at the House of Crassus'],
      ['**Scene text:** INT. HOUSE OF CRASSUS - NIGHT', 'INT. HOUSE OF CRASSUS - NIGHT'],
    ]) {
      const p = parseWriterOutput(`${head}\n\n${body}${tail}`);
      expect(formErrors(p), head).toEqual([]);
      expect(p.scene_text.trim(), head).toBe(`${title}\n\n${body}`);
      expect(p.normalisations.map((n) => n.what).join(' '), head).toContain(`"${head}" (line 1) as ---SCENE_TEXT---`);
    }
    // Undecorated, or going on without a dash, colon or quotation mark, the line is no marker: the section is missing.
    for (const head of ['SCENE TEXT: INT. VILLA - NIGHT', 'Scene text — a title', '## Scene text and the notes after it']) {
      expect(formErrors(parseWriterOutput(`${head}\n\n${body}${tail}`)), head).toEqual(['the SCENE_TEXT section is missing from the writer output']);
    }
  });

  it('never reads a scene title, a heading under another marker or one with no sections after it as the SCENE_TEXT marker', () => {
    const body = 'Rain drums on the roof tiles.';
    const tail = '\n\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n[]\n';
    // A title that says more than "scene" is not a marker: the section stays missing.
    for (const head of ['## Scene 12: The Forum', '## Scene One', '### A scene at the baths', '## Scene — night']) {
      expect(formErrors(parseWriterOutput(`${head}\n\n${body}${tail}`)), head).toEqual(['the SCENE_TEXT section is missing from the writer output']);
    }
    // Under a SCENE_TEXT marker it is a line of the scene.
    expect(parseWriterOutput(`---SCENE_TEXT---\n## Scene\n${body}${tail}`).scene_text.trim()).toBe(`## Scene\n${body}`);
    // Only before the other sections: one after the claims is inside them.
    expect(formErrors(parseWriterOutput(`---CLAIMS---\n[]\n## Scene\n${body}\n---SCENE_EVENTS---\n[]\n`))).toContain('the SCENE_TEXT section is missing from the writer output');
    // No section after it: no answer structure to be a part of.
    expect(formErrors(parseWriterOutput(`## Scene\n\n${body}\n`))).toHaveLength(3);
  });

  it('reads "Part 1 — SCENE_EVENTS" and the like as section markers, in any order (held-out corpus 70, bq10)', () => {
    const raw = 'Part 1 — SCENE_EVENTS\n\n```json\n[]\n```\n\nPart 2 — CLAIMS\n\nNone.\n\nPart 3 — SCENE_TEXT\n\nCicero rises in the Curia.\n';
    const p = parseWriterOutput(raw);
    expect(p.parse_findings).toEqual([]);
    expect(p.scene_text).toBe('Cicero rises in the Curia.');
    expect(p.found).toEqual({ text: true, claims: true, events: true });
  });

  it('reads an answer written as one JSON object, fenced or bare, its fields as the three sections, and says so (held-out corpus 70, bq05, bq19)', () => {
    const obj = { scene_events: [{ id: 'e1', application_id: 'a12', text: 'x', deltas: [] }], claims: [], scene_text: 'Cicero rises.\n\n"Enough," he says.' };
    for (const raw of [JSON.stringify(obj, null, 2), `Here is the scene as JSON.\n\n\`\`\`json\n${JSON.stringify(obj, null, 2)}\n\`\`\`\n`]) {
      const p = parseWriterOutput(raw);
      expect(p.parse_findings, raw.slice(0, 30)).toEqual([]);
      expect(p.scene_text).toBe('Cicero rises.\n\n"Enough," he says.');
      expect(p.events).toHaveLength(1);
      expect(p.claims).toEqual([]);
      expect(p.normalisations.map((n) => n.code)).toContain('json_answer');
      // Its lines are counted from the raw line of the "scene_text" key.
      expect(p.text_first_line).toBe(raw.split('\n').findIndex((l) => l.includes('"scene_text"')) + 1);
    }
    // A slip mended by jsonrepair is said, as a section's is: the soft AUR5003 and the note.
    const slipped = parseWriterOutput('{"scene_text": "Cicero rises.", "claims": [], "scene_events": [],}');
    expect(slipped.scene_text).toBe('Cicero rises.');
    expect(slipped.parse_findings.map((f) => f.code)).toEqual(['AUR5003']);
    expect(slipped.normalisations.map((n) => n.code)).toEqual(expect.arrayContaining(['json_answer', 'json_repaired']));
    // A scene that merely holds a JSON object in its prose is no such answer.
    expect(parseWriterOutput('Cicero rises. {"scene_text": "x"}').normalisations.map((n) => n.code)).not.toContain('json_answer');
  });

  it('reads a whole-answer object whatever the spelling of its keys, and "scene_text" before a "scene" that names the scene', () => {
    for (const [text, claims, events] of [['sceneText', 'Claims', 'sceneEvents'], ['SCENE_TEXT', 'CLAIMS', 'SCENE_EVENTS'], ['Scene Text', 'claims', 'scene-events']]) {
      const raw = JSON.stringify({ scene: 'SC12', [text]: 'Cicero rises.', [claims]: [], [events]: [{ id: 'e1', application_id: 'a12', text: 'x', deltas: [] }] });
      const p = parseWriterOutput(raw);
      expect(p.parse_findings, text).toEqual([]);
      expect(p.scene_text, text).toBe('Cicero rises.');
      expect(p.events, text).toHaveLength(1);
    }
    // A wrapped section list is read by the same names: {"sceneEvents": [...]} under the marker.
    const wrapped = parseWriterOutput('---SCENE_TEXT---\nCicero rises.\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n{"sceneEvents": []}\n');
    expect(wrapped.normalisations.map((n) => n.code)).toContain('list_unwrapped');
  });

  it('places a repaired slip at its line and column of the answer, never at a character offset (AUR5003)', () => {
    // A trailing comma in the events, on line 10 of the answer: in a bare section, in a fence, after an inline marker.
    const events = '  {"id":"e1","type":"action","deltas":[],"text":"Cato waits."},\n]';
    for (const [raw, line] of [
      [`---SCENE_TEXT---\nCato waits by the door.\n\n---CLAIMS---\n[]\n\n---SCENE_EVENTS---\n[\n${events}\n`, 10],
      [`---SCENE_TEXT---\nCato waits by the door.\n\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n\`\`\`json\n[\n${events}\n\`\`\`\n`, 10],
      [`---SCENE_TEXT---\nCato waits by the door.\n\n---CLAIMS---\n[]\n\n\nSCENE_EVENTS: [\n${events}\n`, 10],
    ] as const) {
      const v = verifySceneOutput(raw, ctx());
      const f = v.findings.find((x) => x.code === 'AUR5003')!;
      expect(f.message, raw).toBe('the SCENE_EVENTS JSON needed repair (unexpected "]", expected a value (a trailing comma?))');
      expect(f.span, raw).toEqual({ line, text: ']', at: 0 });
      expect(raw.split('\n')[line - 1], raw).toBe(']');
      expect(v.normalisations.find((n) => n.code === 'json_repaired')!.what).not.toMatch(/position/);
    }
    // On a long line (a whole event list on one line) the quote is a stretch of it that starts a little before the slip.
    const long = `[${Array.from({ length: 6 }, (_, i) => `{"id":"e${i}","type":"action","deltas":[],"text":"Cato waits, and waits."}`).join(',')},]`;
    const raw = `---SCENE_TEXT---\nCato waits by the door.\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n${long}\n`;
    const f = verifySceneOutput(raw, ctx()).findings.find((x) => x.code === 'AUR5003')!;
    const at = long.length - 1;
    expect(f.span!.line).toBe(6);
    expect(long.indexOf(f.span!.text) + f.span!.at!).toBe(at);
    expect(f.span!.text.length).toBeLessThan(long.length);
    // A whole answer given as one JSON object: the slip's line and column in the raw answer.
    const obj = '{\n  "scene_text": "Cicero rises.",\n  "claims": [],\n  "scene_events": [],\n}';
    const o = verifySceneOutput(obj, ctx()).findings.find((x) => x.code === 'AUR5003')!;
    expect(o.span).toEqual({ line: 5, text: '}', at: 0 });
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
