import type { Claim, Normalisation, ParsedSceneOutput, SceneEvent } from '../../domain/scene.js';
import { clip, findSections } from './normalise/sections.js';
import { BROKEN, MISSING, readJsonSection, repairReport } from './normalise/json.js';
import { jsonAnswer } from './normalise/json-answer.js';
import { dropClosingNote } from './normalise/closing-note.js';

export { extractJson } from './normalise/json.js';

/**
 * Parses a writer answer into its three sections. Tolerates what real models do (issue 13): CRLF,
 * prose before/after the sections, markers in other cases and decorations, the whole answer in a
 * fence, fenced JSON, trailing notes, `None` for an empty list, trailing commas. Never throws:
 * problems are parse_findings with AUR5xxx codes; every tolerance used is a normalisation.
 */
export interface ParsedWriterOutput extends ParsedSceneOutput {
  /** 1-based line of the raw output where the scene text starts, so spans quote raw-file lines. */
  text_first_line: number;
  /** The CLAIMS section as written, and the 1-based raw-file line its body starts on (0: none). */
  claims_section: { text: string; first: number };
  /** Sections actually found, for the verifier's schema pass. */
  found: { text: boolean; claims: boolean; events: boolean };
  /** Raw JSON values (before schema validation); undefined when missing or unparseable. */
  claims_raw: unknown;
  events_raw: unknown;
  /** What was read differently from the canonical form, and why (never silent). */
  normalisations: Normalisation[];
}

export function parseWriterOutput(raw: string): ParsedWriterOutput {
  const { bodies, notes } = findSections(raw);
  // No section marker at all, and the answer is one JSON object: read its fields as the sections (json-answer.ts).
  const asJson = !bodies.SCENE_TEXT && !bodies.CLAIMS && !bodies.SCENE_EVENTS ? jsonAnswer(raw) : null;
  if (asJson) {
    const p = parseWriterOutput(asJson.canonical);
    // A repair is never silent: the soft finding and the note a section's repaired JSON gets (json.ts repairReport).
    const repair = asJson.repaired && asJson.repairedAt ? repairReport(`the answer's JSON object`, asJson.repaired, asJson.repairedAt) : null;
    return {
      ...p,
      text_first_line: asJson.textLine,
      claims_section: { text: p.claims_section.text, first: 0 },
      parse_findings: [...(repair ? [repair.finding] : []), ...p.parse_findings],
      normalisations: [asJson.note, ...(repair ? [repair.note] : []), ...p.normalisations],
    };
  }
  const parse_findings: ParsedSceneOutput['parse_findings'] = [];

  const t = bodies.SCENE_TEXT;
  let scene_text = '';
  let text_first_line = 1;
  if (t) {
    const trimmed = trimSceneText(t.text);
    scene_text = withoutClosingNote(trimmed.text, notes);
    text_first_line = t.first + trimmed.skipped;
    if (!scene_text.trim()) parse_findings.push({ code: 'AUR5005', message: 'the SCENE_TEXT section is empty' });
  } else {
    parse_findings.push({ code: 'AUR5001', message: 'the SCENE_TEXT section is missing from the writer output' });
  }

  const claims = readJsonSection('CLAIMS', bodies.CLAIMS, parse_findings, notes);
  const events = readJsonSection('SCENE_EVENTS', bodies.SCENE_EVENTS, parse_findings, notes);
  return {
    scene_text,
    text_first_line,
    claims_section: bodies.CLAIMS ?? { text: '', first: 0 },
    claims: Array.isArray(claims) ? (claims as Claim[]) : [],
    events: Array.isArray(events) ? (events as SceneEvent[]) : [],
    parse_findings,
    found: { text: t !== undefined, claims: claims !== MISSING, events: events !== MISSING },
    claims_raw: claims === MISSING || claims === BROKEN ? undefined : claims,
    events_raw: events === MISSING || events === BROKEN ? undefined : events,
    normalisations: notes,
  };
}

/**
 * The parse problems a cheap format-fix call can address (issue 13): a section that still cannot be
 * found, or JSON that cannot be read even after repair. Empty when the form was readable.
 */
export function formErrors(p: Pick<ParsedSceneOutput, 'parse_findings'>): string[] {
  return p.parse_findings.filter((f) => f.code === 'AUR5001' || f.code === 'AUR5002').map((f) => f.message);
}

/** The scene text without a writer's closing note at its tail (normalise/closing-note.ts), the drop on the record. */
function withoutClosingNote(text: string, notes: Normalisation[]): string {
  const note = dropClosingNote(text);
  if (!note) return text;
  notes.push({
    code: 'closing_note',
    what: `ignored ${note.dropped} line(s) at the end of SCENE_TEXT ("${clip(note.quote)}")`,
    why: "a note to the reader after the scene (a note label, a word count, an offer to revise) is about the writing, not part of the scene",
  });
  return note.text;
}

/** Drops leading/trailing blank lines and stray code fences around the prose; counts lines skipped at the top. */
function trimSceneText(s: string): { text: string; skipped: number } {
  const ls = s.split('\n');
  let a = 0;
  let b = ls.length;
  while (a < b && (!ls[a].trim() || /^\s*```[\w-]*\s*$/.test(ls[a]))) a++;
  while (b > a && (!ls[b - 1].trim() || /^\s*```\s*$/.test(ls[b - 1]))) b--;
  return { text: ls.slice(a, b).map((l) => l.replace(/[ \t]+$/, '')).join('\n'), skipped: a };
}
