import { diag, type Diagnostic } from '../diagnostics/index.js';
import { WORLD_FILES } from '../domain/world.js';

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
export const isRewriteWarning = (d: Diagnostic): boolean => d.code === 'AUR1040';
