import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { parseJson, type JsonPosition } from './json-parse.js';
import { describeNonRegular, NONBLOCKING_READ } from './regular-file.js';
import { foreignTextForm } from './text-form.js';
import { MAX_FILE_BYTES, maxFileBytes } from './file-cap.js';

// The cap lives in file-cap.ts (the CLI reads it at start-up without this module's JSON reader).
export { MAX_FILE_BYTES, maxFileBytes };

export interface SafeJson {
  /** The parsed value when `ok`; undefined otherwise. */
  value: unknown;
  ok: boolean;
  diagnostics: Diagnostic[];
  /** When `ok`: the line:column of a JSON pointer in the text (for schema and reference errors). */
  locate?: (pointer: string) => JsonPosition | null;
  /** When `ok`: no string of the value (key or value) is longer than this (json-parse.ts TextCounts). */
  longestString?: number;
  /** When `ok`: what the bytes hold that aureus's writer drops (text-form.ts), e.g. "CRLF line endings". */
  foreignForm?: string[];
}

/** Offset of the first byte that breaks UTF-8, for the diagnostic. */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bytes as strict UTF-8 text (a leading BOM is dropped), or null when a byte breaks UTF-8
 * (firstInvalidUtf8Offset says where): the decoding of every file aureus reads as text it trusts.
 */
export function decodeStrictUtf8(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/** Where a line breaks UTF-8: its number (1-based), the column of the bad byte (UTF-16 units, as json-parse.ts) and its offset in the bytes. */
export interface Utf8Break {
  line: number;
  column: number;
  offset: number;
}

/** The first byte that breaks UTF-8 in one line of text (no LF in it), located; null when the line is UTF-8. */
export function utf8BreakInLine(line: Uint8Array, lineNo: number, lineStart = 0): Utf8Break | null {
  const at = firstInvalidUtf8Offset(line);
  if (at < 0) return null;
  // The bytes before it are valid UTF-8: their length in UTF-16 units is the column before it.
  return { line: lineNo, column: Buffer.from(line.buffer, line.byteOffset, at).toString('utf8').length + 1, offset: lineStart + at };
}

/** Every line (split at LF) that holds a byte breaking UTF-8, with where its first bad byte is. */
export function utf8Breaks(bytes: Uint8Array): Utf8Break[] {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Utf8Break[] = [];
  for (let start = 0, n = 1; start <= b.length; n++) {
    const lf = b.indexOf(10, start);
    const end = lf < 0 ? b.length : lf;
    const x = utf8BreakInLine(b.subarray(start, end), n, start);
    if (x) out.push(x);
    start = end + 1;
  }
  return out;
}

/**
 * AUR1003's hint for bytes that start with a UTF-16 byte order mark: Windows editors often save
 * "Unicode" as UTF-16; say so instead of a bare byte offset. Undefined for any other bytes.
 */
export function utf16Hint(bytes: Uint8Array): string | undefined {
  const utf16 = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  return utf16 ? 'the file is UTF-16 (it starts with a UTF-16 byte order mark); re-save it as UTF-8' : undefined;
}

/** AUR1003 for one place where bytes break UTF-8, located (file, line:column, byte offset). */
export function utf8BreakDiagnostic(at: Utf8Break, file: string, hint?: string): Diagnostic {
  return diag('AUR1003', { offset: at.offset }, { file, line: at.line, column: at.column, ...(hint ? { hint } : {}) });
}

/**
 * AUR1003 for bytes decodeStrictUtf8 refused: at the line:column of their first bad byte, with the
 * UTF-16 hint when they look like UTF-16. The one way every reader of trusted text says it.
 */
export function notUtf8Diagnostic(bytes: Uint8Array, file: string): Diagnostic {
  const hint = utf16Hint(bytes);
  const at = utf8Breaks(bytes)[0];
  return at ? utf8BreakDiagnostic(at, file, hint) : diag('AUR1003', { offset: Math.max(0, firstInvalidUtf8Offset(bytes)) }, { file, ...(hint ? { hint } : {}) });
}

/**
 * Decode bytes as strict UTF-8 (a leading BOM is dropped) and parse them as JSON, turning every
 * problem into a catalog diagnostic on `rel`: not UTF-8, empty, syntax error at line:col,
 * forbidden or duplicate keys. Usable on any JSON input (packets, model answers saved to disk).
 */
export function parseJsonBytesSafe(bytes: Uint8Array, rel: string): SafeJson {
  const text = decodeStrictUtf8(bytes);
  if (text === null) return fail([notUtf8Diagnostic(bytes, rel)]);
  const r = parseJsonTextSafe(text, rel);
  return r.ok ? { ...r, foreignForm: foreignTextForm(bytes) } : r;
}

/** As parseJsonBytesSafe, for text already in memory. */
export function parseJsonTextSafe(text: string, rel: string): SafeJson {
  if (text.trim() === '') return fail([diag('AUR1004', {}, { file: rel })]);
  const r = parseJson(text);
  const diagnostics: Diagnostic[] = [];
  if (!r.ok) diagnostics.push(diag('AUR1005', { detail: r.error.message }, { file: rel, line: r.error.line, column: r.error.column, ...syntaxHint(text, r.error.line, r.error.column) }));
  for (const k of r.keys) {
    const code = k.kind === 'forbidden' ? 'AUR1006' : 'AUR1009';
    diagnostics.push(diag(code, { key: k.key }, { file: rel, pointer: k.pointer, line: k.line, column: k.column }));
  }
  if (!r.ok || diagnostics.length) return fail(diagnostics);
  return { ok: true, value: r.value, diagnostics: [], locate: r.locate, longestString: r.longestString };
}

/**
 * The hint for the two hand-edit mistakes a syntax error rarely is a trailing comma for: a file left
 * with git's merge-conflict markers (both sides of a merge, one after the other), and a comment
 * (JSON has none). Otherwise the catalog's hint (a trailing comma or a missing quote).
 */
function syntaxHint(text: string, line: number, column: number): { hint?: string } {
  const marker = /^(?:<{7}|>{7})(?: .*)?$/m.exec(text);
  if (marker) {
    const at = text.slice(0, marker.index).split('\n').length;
    return { hint: `the file holds git merge-conflict markers (line ${at}: "${marker[0].trim()}"): keep the side you want between "<<<<<<<", "=======" and ">>>>>>>", delete the marker lines, then \`git add\` the file` };
  }
  const here = text.split('\n')[line - 1]?.slice(column - 1) ?? '';
  if (/^\/[/*]/.test(here)) return { hint: 'JSON has no comments: delete the comment (a note can go in a field such as "description")' };
  return {};
}

/**
 * Read a JSON file safely: missing file, not a regular file, over MAX_FILE_BYTES (checked on the
 * open descriptor before reading a byte), then everything parseJsonBytesSafe checks.
 * `rel` is the name the diagnostics carry (relative to the world root).
 * Synchronous, one read(2) per file (issue 18): the promise API read a 4.7 MB file in 512 KB
 * thread-pool trips, and on the DPRR world the main thread sat idle between them for ~60 ms of
 * the plan's wall time; the world loader reads its files one after the other anyway.
 */
export function readJsonFileSafe(absPath: string, rel: string, opts: { maxBytes?: number } = {}): SafeJson {
  const r = readFileBytesSafe(absPath, rel, opts);
  return r.ok ? parseJsonBytesSafe(r.bytes, rel) : fail(r.diagnostics);
}

/** A file's bytes as readJsonFileSafe reads them (its checks before parsing), or the diagnostics of why not. */
export type SafeBytes = { ok: true; bytes: Buffer } | { ok: false; diagnostics: Diagnostic[] };

/**
 * The reading half of readJsonFileSafe: missing, not a regular file, empty or over the size cap
 * are diagnostics on `rel`. The world loader reads every file first, so that the derived index
 * (store/derived-index) can name the whole world by its bytes before anything is parsed.
 */
export function readFileBytesSafe(absPath: string, rel: string, opts: { maxBytes?: number } = {}): SafeBytes {
  const limit = opts.maxBytes ?? maxFileBytes();
  const no = (d: Diagnostic): SafeBytes => ({ ok: false, diagnostics: [d] });
  let fd: number;
  try {
    // Non-blocking: a FIFO must not hang `validate` waiting for a writer (the type is checked below).
    fd = openSync(absPath, NONBLOCKING_READ);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return no(diag('AUR1001', { file: rel }, { file: rel }));
    return no(diag('AUR1008', { file: rel, reason: errnoReason(e) }, { file: rel }));
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return no(diag('AUR1008', { file: rel, reason: describeNonRegular(st) }, { file: rel }));
    if (st.size > limit) return no(diag('AUR1002', { size: st.size, limit }, { file: rel }));
    if (st.size === 0) return no(diag('AUR1004', {}, { file: rel }));
    const bytes = readToEnd(fd, st.size);
    // The file may have grown between stat and read; the limit holds for what was read too.
    if (bytes.length > limit) return no(diag('AUR1002', { size: bytes.length, limit }, { file: rel }));
    return { ok: true, bytes };
  } catch (e) {
    return no(diag('AUR1008', { file: rel, reason: errnoReason(e) }, { file: rel }));
  } finally {
    closeSync(fd);
  }
}

/** Every byte up to end of file: `size` (fstat's) in one read, more only if the file grew since. */
function readToEnd(fd: number, size: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (let want = size + 1; ; want = 64 * 1024) {
    const buf = Buffer.allocUnsafe(want);
    let n = 0;
    for (let r = 1; r > 0 && n < want; n += r) r = readSync(fd, buf, n, want - n, null);
    chunks.push(n === want ? buf : buf.subarray(0, n));
    total += n;
    if (n < want) break;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

function errnoReason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'EACCES' || err.code === 'EPERM') return 'permission denied';
  if (err.code === 'EISDIR') return 'it is a directory';
  return err.code ?? (err instanceof Error ? err.message : String(e));
}

function fail(diagnostics: Diagnostic[]): SafeJson {
  return { ok: false, value: undefined, diagnostics };
}
