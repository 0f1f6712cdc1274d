import { valueEnd } from '../../../core/json-scan.js';
import { jsonrepair } from 'jsonrepair';
import type { FindingSpan, Normalisation, ParsedSceneOutput } from '../../../domain/scene.js';
import { parseJson } from '../../../store/json-parse.js';
import { clip } from './sections.js';

/**
 * Reading the JSON of a CLAIMS or SCENE_EVENTS section the way models write it (issue 13): inside a
 * ```json fence or bare, with a sentence before it or a `Note:` paragraph (brackets and all) after
 * it, `None` / `[]` / nothing for an empty list; smart quotes as delimiters, trailing commas or a
 * value cut off at max_tokens are jsonrepair's. Never throws: what cannot be read is a parse finding.
 */
export const MISSING = Symbol('missing');
export const BROKEN = Symbol('broken');
export type JsonRead = unknown | typeof MISSING | typeof BROKEN;

type Findings = ParsedSceneOutput['parse_findings'];

/** Words a model writes for "no claims": an empty list, said in prose. */
const NONE_SENTENCE = /^(?:none|nothing|no new|no claims|no events|n\/a)\b/i;
const NOTHING = /^(?:none|null|nil|n\/a|empty|no (?:new )?(?:claims|facts|inventions|events)|nothing(?: new)?)[.!]?$/i;
/** One line of text with a markdown list marker or emphasis around it taken off ("- None.", "*None.*", "- **None**"). */
function unwrapMarkdown(line: string): string {
  if (line.includes('\n')) return line;
  const item = line.replace(/^(?:[-*+•]|\d+[.)])\s+/, '');
  const m = /^([*_]{1,2})(.+?)\1([.!]?)$/.exec(item);
  return (m ? m[2]! + m[3]! : item).trim();
}

/**
 * The JSON text of a section: the first fence holding a JSON value, else the value from the first
 * '[' or '{' to its matching closer (so a trailing note, brackets and all, is left out). A value that
 * never closes (truncated) runs to the end and is left to jsonrepair. Null when there is no value.
 */
export function extractJson(s: string): string | null {
  return locateJson(s)?.json ?? null;
}

/** The JSON value of a section, the text around it, and where it starts in the section (`at`, an offset into `s`). */
function locateJson(s: string): { json: string; at: number; before: string; after: string; fenced: boolean } | null {
  const fences = [...s.matchAll(/```[a-zA-Z]*[ \t]*\n([\s\S]*?)(?:\n[ \t]*```|$)/g)];
  const fence = fences.find((f) => /[[{]/.test(f[1]));
  const src = fence ? fence[1] : s;
  const open = src.search(/[[{]/);
  if (open < 0) return null;
  // The fence's body starts after its opening line.
  const at = (fence ? fence.index! + fence[0].indexOf('\n') + 1 : 0) + open;
  const end = valueEnd(src, open);
  const before = fence ? s.slice(0, fence.index) : src.slice(0, open);
  if (end < 0) return { json: src.slice(open), at, before, after: '', fenced: !!fence };
  const after = fence ? s.slice(fence.index + fence[0].length) : src.slice(end);
  return { json: src.slice(open, end), at, before, after: fence ? `${src.slice(end)}\n${after}` : after, fenced: !!fence };
}

export function readJsonSection(name: 'CLAIMS' | 'SCENE_EVENTS', sec: { text: string; first: number } | undefined, findings: Findings, notes: Normalisation[]): JsonRead {
  if (!sec) {
    findings.push({ code: 'AUR5001', message: `the ${name} section is missing from the writer output` });
    return MISSING;
  }
  const body = sec.text.replace(/^\s*```[\w-]*\s*$/gm, '').trim();
  // "None"; for claims also a sentence saying so ("None — nothing new is introduced."), with no JSON in it.
  // Markdown around it is packaging: a list item ("- None."), emphasis ("*None.*", "**None**").
  const plain = unwrapMarkdown(body);
  if (!body || NOTHING.test(plain) || (name === 'CLAIMS' && NONE_SENTENCE.test(plain) && !/[[{]/.test(body))) {
    notes.push({ code: 'empty_section', what: `read the ${name} section ${body ? `"${clip(body)}"` : '(empty)'} as []`, why: 'an empty section or a word for "none" means an empty list' });
    return [];
  }
  const loc = locateJson(sec.text);
  if (loc === null) {
    findings.push({ code: 'AUR5002', message: `the ${name} section is not JSON: no JSON array or object found` });
    return BROKEN;
  }
  if (loc.fenced) notes.push({ code: 'json_fence', what: `read the ${name} JSON from inside a code fence`, why: 'the fence is markdown packaging around the JSON value' });
  if (loc.before.replace(/```[\w-]*/g, '').trim()) notes.push({ code: 'text_around_json', what: `ignored "${clip(loc.before)}" before the ${name} JSON`, why: 'prose before the JSON value is a note, not data' });
  if (loc.after.replace(/```/g, '').trim()) notes.push({ code: 'text_around_json', what: `ignored "${clip(loc.after)}" after the ${name} JSON`, why: 'prose after the JSON value (a note, even with brackets in it) is not data' });
  const read = parseOrRepair(loc.json);
  if ('error' in read) {
    findings.push({ code: 'AUR5002', message: `the ${name} section is not JSON: ${read.error}` });
    return BROKEN;
  }
  if (read.repaired) {
    const { finding, note } = repairReport(`the ${name} JSON`, read.repaired, slipIn(sec.text, loc.at + read.offset, sec.first));
    findings.push(finding);
    notes.push(note);
  }
  return asList(name, read.value, notes);
}

/**
 * A JSON text parsed, else mended by jsonrepair, else the strict parse's error. A mended text says what
 * was wrong and where (`repaired`, `offset` into `json`), read by the store's parser (store/json-parse.ts,
 * which explains a slip: "unexpected "}", expected a value (a trailing comma?)"); JSON.parse's own message
 * gives only a character offset, or none.
 */
export function parseOrRepair(json: string): { value: unknown; repaired?: string; offset: number } | { error: string } {
  try {
    return { value: JSON.parse(json), offset: 0 };
  } catch (e) {
    const error = (e as Error).message;
    try {
      const value: unknown = JSON.parse(jsonrepair(json));
      const strict = parseJson(json);
      if (!strict.ok) return { value, repaired: strict.error.message, offset: strict.error.offset };
      const at = /\bat position (\d+)/.exec(error);
      return { value, repaired: error.replace(/\s*\bin JSON at position \d+(?:\s*\(line \d+ column \d+\))?/, ''), offset: at ? Number(at[1]) : 0 };
    } catch {
      return { error };
    }
  }
}

/** How much of a long line (a whole event list on one line) is quoted, and how far before the slip the quote starts. */
const QUOTE = 100;
const QUOTE_BEFORE = 40;

/**
 * The slip at `offset` of `text`, whose first line is the raw file's line `first`. The quote is what a
 * reader finds again in the file they edit (pipeline/finding-place.ts finds a finding's line by its quoted
 * text): the line trimmed, or, for a long one, a stretch that starts a little before the slip.
 */
export function slipIn(text: string, offset: number, first: number): FindingSpan {
  const before = text.slice(0, offset);
  const k = before.split('\n').length - 1;
  const line = (text.split('\n')[k] ?? '').replace(/\r$/, '');
  const col = offset - (before.lastIndexOf('\n') + 1);
  const lead = line.length - line.trimStart().length;
  const start = line.length - lead <= QUOTE ? lead : Math.max(lead, Math.min(col - QUOTE_BEFORE, line.length - QUOTE));
  return { line: first + k, text: line.slice(start, start + QUOTE).trimEnd(), at: Math.max(0, col - start) };
}

/**
 * A repair is never silent: the soft AUR5003, at the slip (its line and column, `at`), and its normalisation
 * note, for a section's JSON or a whole answer's object.
 */
export function repairReport(subject: string, error: string, at: FindingSpan): { finding: ParsedSceneOutput['parse_findings'][number]; note: Normalisation } {
  return {
    finding: { code: 'AUR5003', message: `${subject} needed repair (${error})`, span: at },
    note: { code: 'json_repaired', what: `repaired ${subject} with jsonrepair (${error})`, why: 'a syntax slip (smart quotes as delimiters, a trailing comma, a cut-off value) with the data still readable; also the soft finding AUR5003' },
  };
}

/**
 * The names a model gives a section's list as a JSON key: wrapping the list (`{"events": [...]}`,
 * `{"claims": [...]}`) or as a field of a whole-answer object (json-answer.ts). Compared by keyName.
 */
export const SECTION_KEYS: Record<'CLAIMS' | 'SCENE_EVENTS', string[]> = { CLAIMS: ['claims'], SCENE_EVENTS: ['scene_events', 'events'] };

/** A JSON key in one spelling: "sceneEvents", "SCENE_EVENTS", "scene-events" and "Scene Events" are all "scene_events". */
export const keyName = (key: string): string => key.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase().replace(/[\s-]/g, '_');

/**
 * The section's list from the shapes around it a model writes: the list wrapped in an object under
 * the section's own name, or one item given without the list. Anything else is left for the schema.
 */
function asList(name: 'CLAIMS' | 'SCENE_EVENTS', v: unknown, notes: Normalisation[]): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  const key = keys.length === 1 ? keys[0] : undefined;
  if (key && SECTION_KEYS[name].includes(keyName(key)) && Array.isArray(o[key])) {
    notes.push({ code: 'list_unwrapped', what: `read the ${name} list from inside {"${key}": [...]}`, why: 'the list was wrapped in an object named after its own section' });
    return o[key];
  }
  if (typeof o.id === 'string' && ('text' in o || 'deltas' in o)) {
    notes.push({ code: 'list_unwrapped', what: `read the single ${name === 'CLAIMS' ? 'claim' : 'event'} ${o.id} as a list of one`, why: 'one item was given without the list around it' });
    return [o];
  }
  return v;
}
