import { diag, type Diagnostic } from '../diagnostics/index.js';
import { AureusError, ExitCode } from '../errors.js';
import { validatorFor } from '../schemas/validators.js';
import { formatAndSchemaDiagnostics, withLocation } from '../store/load.js';
import { PACKET_SCHEMA } from '../stages/f-verifier/load.js';
import { decodeStrictUtf8, parseJsonTextSafe, utf8BreakDiagnostic, utf8Breaks } from '../store/read.js';
import { schemaDiagnostics } from '../store/schema.js';
import type { TurnRecord } from './types.js';

/**
 * Reading a session log (turns.jsonl) into records: each line as strict JSON, then against the turn
 * record schema (src/schemas/turn-record.ts), then the log must begin with its start record. The
 * replay (state.ts) trusts what this returns; everything else is an AureusError (exit 3) whose
 * diagnostics name the file, the line:column, the JSON pointer, what was expected and a hint.
 */

/** What the schema diagnostics' hints point to for the records' shapes. */
const RECORD_DOC = 'the session records of docs/play.md';

/** At most this many problems are listed (a log of garbage could have thousands of lines). */
const MAX_PROBLEMS = 20;

export function parseTurnLog(text: string, id: string, rel: string): TurnRecord[] {
  const records: TurnRecord[] = [];
  const problems: Diagnostic[] = [];
  let badLines = 0;
  let firstLine = 0;
  let firstText = '';
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const r = readLine(line, rel, i + 1);
    if (Array.isArray(r)) {
      badLines++;
      problems.push(...r.slice(0, MAX_PROBLEMS - problems.length));
      return;
    }
    if (!records.length) [firstLine, firstText] = [i + 1, line];
    records.push(r);
  });
  if (badLines) throw unreadable(id, rel, `${badLines} line${badLines === 1 ? ' is' : 's are'} not a turn record`, problems);
  const first = records[0];
  if (!first) throw unreadable(id, rel, 'its log is empty', [diag('AUR6202', { id }, { file: rel })]);
  if (first.type !== 'start') throw unreadable(id, rel, 'its log does not begin with a start record', [diag('AUR6203', { type: first.type }, { file: rel, line: firstLine, column: 1 })]);
  const located = locator(firstText, rel, firstLine);
  // The folder is the session: a start record naming another (a folder copied or renamed by hand)
  // would resume, lock and tag that other session, and write into its log.
  if (first.session !== id) throw unreadable(id, rel, `its start record names session ${first.session}`, [located(diag('AUR6207', { id, named: first.session }, { file: rel, pointer: '/session' }))]);
  const pinned = pinnedPacketProblems(first, rel);
  if (pinned.length) throw unreadable(id, rel, 'the scene packet its start record pinned is not valid', pinned.map(located));
  return records;
}

/**
 * Diagnostics on the log's `index`-th record (0: the start record), each at its pointer's
 * line:column: for what is found wrong with a readable log later, against the world (run.ts).
 */
export function recordLocator(text: string, index: number, rel: string): (d: Diagnostic) => Diagnostic {
  const lines = text.split('\n');
  const at = lines.map((l, i) => [l, i] as const).filter(([l]) => l.trim() !== '')[index];
  return at ? locator(at[0], rel, at[1] + 1) : (d) => d;
}

/** A diagnostic on the start line, at its pointer's line:column (the line itself when the pointer is not found). */
function locator(line: string, rel: string, lineNo: number): (d: Diagnostic) => Diagnostic {
  const r = parseJsonTextSafe(line, rel);
  return (d) => {
    const at = r.ok && d.pointer !== undefined ? r.locate?.(d.pointer) : undefined;
    return { ...d, line: lineNo, column: at?.column ?? 1 };
  };
}

/**
 * The packet a planned scene's session pinned at its start (a resume plays it, so it is read as
 * `scene verify` reads a packet file: its own schema), and it must be that scene's.
 */
function pinnedPacketProblems(start: Extract<TurnRecord, { type: 'start' }>, rel: string): Diagnostic[] {
  if (start.packet === undefined) return [];
  const problems = formatAndSchemaDiagnostics(start.packet, undefined, PACKET_SCHEMA, rel).map((d) => ({ ...d, pointer: `/packet${d.pointer ?? ''}` }));
  if (problems.length) return problems;
  const { scene_id, episode_id } = start.packet;
  if (scene_id === start.setup.scene && episode_id === start.setup.episode) return [];
  return [diag('AUR6208', { packet: `${episode_id}/${scene_id}`, scene: `${start.setup.episode ?? 'play'}/${start.setup.scene}` }, { file: rel, pointer: '/packet/scene_id' })];
}

/** One non-blank line: its record, or its problems located at `lineNo` (and the column inside it). */
function readLine(line: string, rel: string, lineNo: number): TurnRecord | Diagnostic[] {
  const onLine = (d: Diagnostic): Diagnostic => ({ ...d, line: lineNo, column: d.column ?? 1 });
  const r = parseJsonTextSafe(line, rel);
  if (!r.ok) return r.diagnostics.map(onLine);
  const problems = schemaDiagnostics(validatorFor('play/turn_record'), r.value, rel, RECORD_DOC);
  return problems.length ? problems.map((d) => onLine(withLocation(d, r.locate))) : (r.value as TurnRecord);
}

/**
 * The log's bytes as text, decoded as strictly as a world file: a byte that breaks UTF-8 (a disk
 * error, a hand edit in another encoding) is the session's error with each such line's line:column
 * (AUR1003), not a U+FFFD that the replay would carry on with silently.
 */
export function decodeTurnLog(bytes: Uint8Array, id: string, rel: string): string {
  const text = decodeStrictUtf8(bytes);
  if (text !== null) return text;
  const breaks = utf8Breaks(bytes);
  const problems = breaks.slice(0, MAX_PROBLEMS).map((b) => utf8BreakDiagnostic(b, rel));
  throw unreadable(id, rel, `${breaks.length} line${breaks.length === 1 ? ' is' : 's are'} not UTF-8`, problems);
}

/** The error of a session whose log cannot be read: AUR6201 naming it and the detail, then each problem. */
export function unreadable(id: string, rel: string, detail: string, problems: Diagnostic[]): AureusError {
  return new AureusError(`session ${id} cannot be read`, { exitCode: ExitCode.INVALID_WORLD, diagnostics: [diag('AUR6201', { id, detail }, { file: rel }), ...problems] });
}
