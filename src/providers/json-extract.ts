import { jsonrepair } from 'jsonrepair';
import { valueEnd } from '../core/json-scan.js';

/**
 * Where the JSON is in a model's text. Real models wrap it: a preamble ("Here's the JSON you asked
 * for:", "Verdict [critic]:", a markdown heading, thinking-like prose), a code fence whose info
 * string is any of json, JSON, jsonc, javascript or none, several fences (a sketch, then the answer),
 * and a trailing note that may hold braces of its own ("(see {scene} above)"). So the text is read as
 * a list of candidates, each a bracketed value: the bodies of the fences first, in order, then the
 * whole text; within each, every `{` or `[` in order. A candidate is taken as it is when it parses,
 * or mended by jsonrepair when it looks like the start of JSON (truncated at max_tokens, a trailing
 * comma, single quotes). Bracketed prose (`[critic]`, `Scores [1-5]:`, `{scene}`) neither parses nor
 * looks like JSON: it is skipped, and the scan goes on inside and after it.
 */

export type JsonKind = 'object' | 'array';

export interface JsonCandidate {
  /** The candidate's text: a balanced value, or one that runs to the end of its body (unclosed). */
  raw: string;
  /** Its value, when it parsed or jsonrepair mended it. */
  value?: unknown;
  repaired: boolean;
  /** Why it did not parse, when it looks like JSON and not even jsonrepair could read it. */
  error?: string;
}

/** Code fences: ``` or ~~~ (three or more), any info string, closed by the same run or the end of the text. */
const FENCE = /(`{3,}|~{3,})[^\n`]*\n([\s\S]*?)(?:\1|$)/g;

/**
 * An opening bracket that starts JSON rather than prose: `{` before a key (quoted, single-quoted or
 * a bare identifier with its colon), a comment (a jsonc fence) or `}`; `[` before a value or `]`.
 * `{scene}` and `[critic]` do not.
 */
const JSON_START = /^(?:\{\s*(?:["'}]|\/[/*]|[A-Za-z_$][\w$]*\s*:|$)|\[\s*(?:["'{[\]\d-]|true\b|false\b|null\b|$))/;

/** Bracket starts scanned per body at most: an answer is never that far into a text (bounds the work on a long one). */
const MAX_STARTS = 400;

/** The candidates of a text, in the order they are preferred; each distinct text once. */
export function* jsonCandidates(text: string): Generator<JsonCandidate> {
  const seen = new Set<string>();
  const bodies = [...text.matchAll(FENCE)].map((m) => m[2]);
  for (const body of [...bodies, text]) {
    for (const c of bodyCandidates(body)) {
      if (seen.has(c.raw)) continue;
      seen.add(c.raw);
      yield c;
    }
  }
}

function* bodyCandidates(body: string): Generator<JsonCandidate> {
  const open = /[[{]/g;
  for (let starts = 0; starts < MAX_STARTS; starts++) {
    const m = open.exec(body);
    if (!m) return;
    const end = valueEnd(body, m.index, { lenient: true });
    const raw = (end < 0 ? body.slice(m.index) : body.slice(m.index, end)).trim();
    const c = candidate(raw);
    if (c.value !== undefined || c.error !== undefined) {
      // A value (or JSON too broken to mend): what is inside it is part of it, not another answer.
      yield c;
      if (end < 0) return;
      open.lastIndex = end;
    }
    // Prose in brackets: the scan goes on inside it (a stray quote may have swallowed the JSON).
  }
}

function candidate(raw: string): JsonCandidate {
  try {
    return { raw, value: JSON.parse(raw), repaired: false };
  } catch (e) {
    if (!JSON_START.test(raw)) return { raw, repaired: false };
    try {
      return { raw, value: JSON.parse(jsonrepair(raw)), repaired: true };
    } catch {
      return { raw, repaired: false, error: (e as Error).message };
    }
  }
}

type SchemaNode = { type?: unknown; $ref?: unknown; $defs?: Record<string, SchemaNode> };

/**
 * The top-level kind a schema asks for, when it names exactly one of object and array; a top-level
 * `$ref` into its own `$defs` (the proposals' character answer) is followed once.
 */
export function expectedKind(schema: object | undefined): JsonKind | undefined {
  const s = schema as SchemaNode | undefined;
  const ref = typeof s?.$ref === 'string' ? /^#\/\$defs\/([^/]+)$/.exec(s.$ref)?.[1] : undefined;
  const t = (ref !== undefined ? s?.$defs?.[ref] : s)?.type;
  return t === 'object' || t === 'array' ? t : undefined;
}

export function kindOf(value: unknown): JsonKind | undefined {
  if (Array.isArray(value)) return 'array';
  return value !== null && typeof value === 'object' ? 'object' : undefined;
}
