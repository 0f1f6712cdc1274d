import { diag, type Diagnostic } from '../diagnostics/index.js';
import { WORLD_FILES } from '../domain/world.js';
import { isIndexKey, isParsedCanonical } from '../core/json.js';
import { isCanonicalLayout, layoutText, type JsonLayout } from '../core/json-layout.js';

/**
 * How a world file is stored besides what it says. JSON reads CR as white space and the strict
 * UTF-8 decoder drops a leading byte-order mark, so a file saved with CRLF line endings or a BOM
 * (a Windows editor, git's core.autocrlf) is read like any other, but aureus writes LF and no BOM
 * (write.ts): the next episode commit that changes it rewrites the whole file and its diff shows every line
 * changed. validate and a run's preflight say so beforehand (AUR1040, a warning).
 */

const COMMITTED = new Set<string>(Object.values(WORLD_FILES));

/** What the bytes hold that aureus's writer drops: CRLF (or bare CR) line endings, a UTF-8 BOM. */
export function foreignTextForm(bytes: Uint8Array): string[] {
  const found: string[] = [];
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) found.push('a byte-order mark');
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // One memchr pass for the usual clean file (every world file is read through here; 28 MB at
  // 10,000 characters); the second search only when a CR is there at all.
  const cr = b.indexOf(13);
  if (cr >= 0) found.push(b.indexOf('\r\n', cr) >= 0 ? 'CRLF line endings' : 'CR line endings');
  return found;
}

/** AUR1040 for a file an episode commit rewrites (WORLD_FILES), when it holds any of `found`. */
export function rewriteWarning(rel: string, found: readonly string[] | undefined): Diagnostic[] {
  if (!found?.length || !COMMITTED.has(rel)) return [];
  return [diag('AUR1040', { file: rel, found: found.join(' and ') }, { file: rel })];
}

/** The run prints these of validation's warnings: what its commit will do to the author's files. */
export const isRewriteWarning = (d: Diagnostic): boolean => d.code === 'AUR1040' || d.code === 'AUR1041';

/**
 * How a file's JSON is laid out (core/json-layout.ts): the indent of its first indented line (spaces
 * or tabs, at most 10: what JSON.stringify can write; else 2 spaces, and layoutWarning says the file
 * cannot be kept), '' for a file on one line; sorted keys (as the parser marked them, unless the caller
 * knows); a final line break.
 */
export function jsonLayout(bytes: Uint8Array, value: unknown, sorted = isParsedCanonical(value)): JsonLayout {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = b.length;
  while (end > 0 && (b[end - 1] === 10 || b[end - 1] === 13 || b[end - 1] === 32 || b[end - 1] === 9)) end--;
  const nl = b.indexOf(10);
  return { indent: nl < 0 || nl >= end ? '' : (indentAt(b, nl + 1) ?? '  '), sorted, finalNewline: b[b.length - 1] === 10 };
}

/** The run of one kind of blank at `at`, up to 10 long, or null (none, mixed, longer). */
function indentAt(b: Buffer, at: number): string | null {
  const c = b[at];
  if (c !== 32 && c !== 9) return null;
  let k = at;
  while (b[k] === c) k++;
  if (b[k] === 32 || b[k] === 9 || k - at > 10) return null;
  return (c === 9 ? '\t' : ' ').repeat(k - at);
}

/**
 * AUR1041 for a file an episode commit rewrites (WORLD_FILES) whose layout the writer cannot give
 * back line for line: the file in `layout` (its own indent and key order) is not the file as it is,
 * line endings and a byte-order mark aside (AUR1040 says those). Inline arrays, mixed indentation or a
 * number-like key (JavaScript lists it first, whatever the file says) would show in the next commit's
 * diff as lines it did not change: said once, here, at the first such line. A canonical file (sorted,
 * 2 spaces) is taken as aureus wrote it and not checked: that would write every large world out again per load.
 */
export function layoutWarning(rel: string, bytes: Uint8Array, value: unknown, layout: JsonLayout): Diagnostic[] {
  if (!COMMITTED.has(rel) || isCanonicalLayout(layout)) return [];
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8').replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const written = layoutText(value, layout);
  if (written === text) return [];
  const have = text.split('\n');
  const want = written.split('\n');
  let i = 0;
  while (i < have.length && have[i] === want[i]) i++;
  const key = numberLikeKey(value);
  const tool = layout.indent === '\t' ? 'jq --tab' : layout.indent === '' ? 'jq -c' : `jq --indent ${Math.min(7, layout.indent.length)}`;
  const fix = key !== undefined
    ? `JavaScript lists a number-like key ("${key}") first in its object, whatever the file says: rename it, or let the commit move it`
    : `aureus keeps a file's indentation and key order, one key or array element to a line; lay ${rel} out so, in a commit of its own (\`${tool} . ${rel}\` prints that layout)`;
  return [diag('AUR1041', { file: rel, line: i + 1, fix }, { file: rel, line: i + 1 })];
}

/** The first number-like key of an object in the value (depth first), or undefined. */
function numberLikeKey(v: unknown): string | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  for (const [k, x] of Object.entries(v)) {
    if (!Array.isArray(v) && isIndexKey(k)) return k;
    const inner = numberLikeKey(x);
    if (inner !== undefined) return inner;
  }
  return undefined;
}
