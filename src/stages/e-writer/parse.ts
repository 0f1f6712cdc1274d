import { jsonrepair } from 'jsonrepair';
import type { Claim, ParsedSceneOutput, SceneEvent } from '../../domain/scene.js';

/**
 * Parses a writer answer into its three sections. Tolerates what real models do: CRLF, prose
 * before/after the sections, markdown fences or bold around markers and JSON, trailing commas.
 * Never throws: problems are parse_findings with AUR5xxx codes.
 */
export interface ParsedWriterOutput extends ParsedSceneOutput {
  /** 1-based line of the raw output where the scene text starts, so spans quote raw-file lines. */
  text_first_line: number;
  /** Sections actually found, for the verifier's schema pass. */
  found: { text: boolean; claims: boolean; events: boolean };
  /** Raw JSON values (before schema validation); undefined when missing or unparseable. */
  claims_raw: unknown;
  events_raw: unknown;
}

type SectionName = 'SCENE_TEXT' | 'CLAIMS' | 'SCENE_EVENTS';

// A marker line: optional bold/heading decoration, 2+ dashes, the name (space or underscore), 2+ dashes.
const MARKER = /^[ \t]*(?:\*\*|#{1,6}[ \t]*|`)?[ \t]*-{2,}[ \t]*(SCENE[ _]TEXT|CLAIMS|SCENE[ _]EVENTS)[ \t]*-{2,}[ \t]*(?:\*\*|`)?[ \t]*:?[ \t]*$/i;

function normalizeName(s: string): SectionName {
  const u = s.toUpperCase().replace(' ', '_');
  return u as SectionName;
}

export function parseWriterOutput(raw: string): ParsedWriterOutput {
  const text = raw.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const lines = text.split('\n');
  const starts: { name: SectionName; line: number }[] = [];
  lines.forEach((l, i) => {
    const m = MARKER.exec(l);
    if (m) starts.push({ name: normalizeName(m[1]), line: i });
  });
  const body = (name: SectionName): { text: string; first: number } | null => {
    const idx = starts.findIndex((s) => s.name === name);
    if (idx < 0) return null;
    const from = starts[idx].line + 1;
    // A section ends at the next marker of any kind.
    const next = starts.find((s) => s.line > starts[idx].line);
    const to = next ? next.line : lines.length;
    return { text: lines.slice(from, to).join('\n'), first: from + 1 };
  };
  const parse_findings: ParsedSceneOutput['parse_findings'] = [];

  const t = body('SCENE_TEXT');
  let scene_text = '';
  let text_first_line = 1;
  if (t) {
    const trimmed = trimSceneText(t.text);
    scene_text = trimmed.text;
    text_first_line = t.first + trimmed.skipped;
    if (!scene_text.trim()) parse_findings.push({ code: 'AUR5005', message: 'the SCENE_TEXT section is empty' });
  } else {
    parse_findings.push({ code: 'AUR5001', message: 'the SCENE_TEXT section is missing from the writer output' });
  }

  const claims = parseJsonSection('CLAIMS', body('CLAIMS'), parse_findings);
  const events = parseJsonSection('SCENE_EVENTS', body('SCENE_EVENTS'), parse_findings);
  return {
    scene_text,
    text_first_line,
    claims: Array.isArray(claims) ? (claims as Claim[]) : [],
    events: Array.isArray(events) ? (events as SceneEvent[]) : [],
    parse_findings,
    found: { text: t !== null, claims: claims !== MISSING, events: events !== MISSING },
    claims_raw: claims === MISSING || claims === BROKEN ? undefined : claims,
    events_raw: events === MISSING || events === BROKEN ? undefined : events,
  };
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

const MISSING = Symbol('missing');
const BROKEN = Symbol('broken');

function parseJsonSection(
  name: 'CLAIMS' | 'SCENE_EVENTS',
  sec: { text: string } | null,
  findings: ParsedSceneOutput['parse_findings'],
): unknown {
  if (!sec) {
    findings.push({ code: 'AUR5001', message: `the ${name} section is missing from the writer output` });
    return MISSING;
  }
  const candidate = extractJson(sec.text);
  if (candidate === null) {
    findings.push({ code: 'AUR5002', message: `the ${name} section is not JSON: no JSON array or object found` });
    return BROKEN;
  }
  try {
    return JSON.parse(candidate);
  } catch (e) {
    const first = (e as Error).message;
    try {
      const repaired = JSON.parse(jsonrepair(candidate));
      findings.push({ code: 'AUR5003', message: `the ${name} JSON needed repair (${first})` });
      return repaired;
    } catch {
      findings.push({ code: 'AUR5002', message: `the ${name} section is not JSON: ${first}` });
      return BROKEN;
    }
  }
}

/**
 * Finds the JSON value in a section: inside a ```json fence if there is one, else from the first
 * '[' or '{' to the last matching closer, so prose around it is ignored.
 */
export function extractJson(s: string): string | null {
  const fence = /```[a-zA-Z]*[ \t]*\n([\s\S]*?)(?:\n[ \t]*```|$)/.exec(s);
  const src = fence ? fence[1] : s;
  const open = src.search(/[[{]/);
  if (open < 0) return null;
  const closer = src[open] === '[' ? ']' : '}';
  const close = src.lastIndexOf(closer);
  // A truncated value (no closer) is still handed to jsonrepair.
  return close > open ? src.slice(open, close + 1) : src.slice(open);
}
