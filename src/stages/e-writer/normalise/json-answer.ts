import type { FindingSpan, Normalisation } from '../../../domain/scene.js';
import { valueEnd } from '../../../core/json-scan.js';
import { keyName, parseOrRepair, SECTION_KEYS, slipIn } from './json.js';

/**
 * A whole answer written as one JSON object, the way an API with a JSON schema answers ({"scene_text":
 * "…", "claims": [], "scene_events": [ … ]}, fenced or bare, the fields in any order: held-out corpus 70,
 * bq05 and bq19). Its fields are the three sections, written back in the canonical form so that every
 * other reading of the parser applies to them. The scene text is a JSON string: its lines are not lines
 * of the raw file, so they are counted from the line of its key (the normalisation says so).
 */
const TEXT_KEYS = ['scene_text', 'scene', 'text', 'prose'];

/** The object's key for the first of `names` (in that order: "scene_text" before "scene") it holds, by keyName, and with `ok` values. */
function keyFor(o: Record<string, unknown>, names: string[], ok: (v: unknown) => boolean): string | undefined {
  const keys = Object.keys(o);
  for (const name of names) {
    const key = keys.find((k) => keyName(k) === name && ok(o[k]));
    if (key !== undefined) return key;
  }
  return undefined;
}

export interface JsonAnswer {
  /** The answer in the canonical three-section form. */
  canonical: string;
  /** The raw file's 1-based line of the scene text's key. */
  textLine: number;
  note: Normalisation;
  /** The parse error jsonrepair mended, when the object needed it (a soft AUR5003, as a section's JSON: json.ts), and where. */
  repaired?: string;
  repairedAt?: FindingSpan;
}

/** The answer as one JSON object with a scene-text string field and the two lists, or null. */
export function jsonAnswer(raw: string): JsonAnswer | null {
  const open = raw.indexOf('{');
  // Only an answer that is the object (a fence or a sentence around it at most), not a scene with JSON in it.
  if (open < 0 || /[^\s`a-z:.]/i.test(raw.slice(0, open).replace(/```\w*/g, ''))) return null;
  const end = valueEnd(raw, open);
  if (end < 0) return null;
  const read = parseOrRepair(raw.slice(open, end));
  if ('error' in read) return null;
  const { value, repaired, offset } = read;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  const textKey = keyFor(o, TEXT_KEYS, (v) => typeof v === 'string' && !!v.trim());
  const claimsKey = keyFor(o, SECTION_KEYS.CLAIMS, (v) => v !== undefined);
  const eventsKey = keyFor(o, SECTION_KEYS.SCENE_EVENTS, (v) => v !== undefined);
  if (!textKey || eventsKey === undefined) return null;
  const claims = claimsKey === undefined ? undefined : o[claimsKey];
  const events = o[eventsKey];
  const keyAt = raw.indexOf(`"${textKey}"`, open);
  const textLine = raw.slice(0, keyAt < 0 ? open : keyAt).split('\n').length;
  const text = (o[textKey] as string).replace(/\r\n?/g, '\n');
  return {
    canonical: `---SCENE_TEXT---\n${text}\n---CLAIMS---\n${JSON.stringify(claims ?? [], null, 2)}\n---SCENE_EVENTS---\n${JSON.stringify(events, null, 2)}\n`,
    textLine,
    note: {
      code: 'json_answer',
      what: `read the answer as one JSON object: "${textKey}" as the scene text (its lines counted from line ${textLine}, where the key is), its claims and events as those sections`,
      why: 'the model answered with one JSON object instead of three sections',
    },
    ...(repaired ? { repaired, repairedAt: slipIn(raw, open + offset, 1) } : {}),
  };
}
