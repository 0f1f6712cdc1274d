import { createHash } from 'node:crypto';
import { markParsedCanonical } from '../../core/json.js';

/**
 * The name of one world as the derived index knows it: SHA-256 over the build id and, per world
 * file in load order, its path and the SHA-256 of its bytes. Content, not stat data: the loader has
 * read every byte anyway (the values are parsed from them), and hashing them costs ~17 ms at 10,000
 * characters (28 MB, SHA extensions), so no mtime granularity, clock skew or same-size edit can
 * make an entry describe files it did not see.
 */
export function worldKey(build: string, files: readonly { rel: string; bytes: Uint8Array }[]): string {
  const h = createHash('sha256').update(`${build}\n`);
  for (const f of files) h.update(`${f.rel}\0${createHash('sha256').update(f.bytes).digest('hex')}\n`);
  return h.digest('hex');
}

/**
 * A world file's value from bytes an index entry vouches for: the full load found them strict
 * UTF-8 and JSON with no duplicate or forbidden key (store/json-fast.ts), so JSON.parse alone
 * gives the value the full load gave, and its canonical mark (core/json.ts) is put back from the entry.
 */
export function parseVouched(bytes: Buffer, canonical: boolean): unknown {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const value: unknown = JSON.parse(bytes.toString('utf8', bom ? 3 : 0));
  if (canonical && value !== null && typeof value === 'object') markParsedCanonical(value);
  return value;
}
