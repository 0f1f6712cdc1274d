import type { Normalisation, ParsedSceneOutput } from '../../../domain/scene.js';
import { escapeControl, stripControl, stripControlIn } from '../../../diagnostics/sanitize.js';

/**
 * The writer answer's text made safe to commit: control characters, terminal escapes and bidi
 * overrides/isolates are removed from the scene text and from every string of the CLAIMS and
 * SCENE_EVENTS values (after JSON parsing, so a `\u001b` the model escaped inside JSON is found
 * too). They would reach canon.json, the episode script and the report as they are: unreadable in
 * a diff, and a bidi override can make a reviewer's `git diff` show other text than the file
 * holds ("Trojan Source"). Newlines and tabs stay, so the scene keeps its lines (spans quote
 * raw-file lines). The answer is not refused for it: each field is a soft AUR5007 and a note.
 * What the form reader already noted quotes the raw answer (a preamble line, a marker, a JSON
 * slip): those quotes are messages, so their control characters are shown escaped (`\x00`).
 */
export interface CleanedText {
  scene_text: string;
  claims_raw: unknown;
  events_raw: unknown;
}

export function stripAnswerControls(
  p: { scene_text: string; claims_raw: unknown; events_raw: unknown },
  findings: ParsedSceneOutput['parse_findings'],
  notes: Normalisation[],
): CleanedText {
  for (const [i, n] of notes.entries()) notes[i] = { ...n, what: escapeControl(n.what) };
  for (const [i, f] of findings.entries()) findings[i] = { ...f, message: escapeControl(f.message) };
  const report = (field: string, removed: string[]) => {
    const chars = removed.join(' ');
    findings.push({ code: 'AUR5007', message: `${field} carried control or bidi characters (${chars}); they were removed`, args: { field, removed: chars } });
    notes.push({ code: 'control_chars', what: `${field}: removed ${chars}`, why: 'control characters, terminal escapes and bidi overrides are not text; committed, they would hide or disguise it in a diff' });
  };
  const text = stripControl(p.scene_text);
  if (text.removed.length) report('SCENE_TEXT', text.removed);
  return {
    scene_text: text.text,
    claims_raw: stripControlIn(p.claims_raw, 'CLAIMS', report),
    events_raw: stripControlIn(p.events_raw, 'SCENE_EVENTS', report),
  };
}
