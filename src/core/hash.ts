import { createHash } from 'node:crypto';
import { canonicalCompact, compactInto } from './json.js';

export function sha256(text: string | Uint8Array): string {
  return createHash('sha256').update(typeof text === 'string' ? utf8(text) : text).digest('hex');
}

/**
 * A long string as UTF-8 bytes, for hashing: Hash#update(string) on a multi-megabyte string (the
 * loaded world's canonical text, 18 MB at 10,000 characters) is ~10× slower than encoding it first
 * (issue 18: 1.5 s of a plan). Short strings go as they are (the copy would cost more). Same digest.
 */
export function utf8(text: string): string | Buffer {
  return text.length > 1 << 16 ? Buffer.from(text, 'utf8') : text;
}

/** Hash of a value's canonical JSON. Used for state hashes and cache keys. */
export function hashValue(value: unknown): string {
  if (value === null || typeof value !== 'object') return sha256(canonicalCompact(value));
  // The text is fed to the digest in pieces of about 64 K characters (whole files of a loaded
  // world go alone): hashing a world no longer builds and re-encodes one 18 MB string (issue 18).
  const h = createHash('sha256');
  let pending: string[] = [];
  let size = 0;
  const flush = () => {
    if (pending.length) h.update(utf8(pending.join('')));
    pending = [];
    size = 0;
  };
  compactInto(value, {
    push(piece: string) {
      if (piece.length > 1 << 16) {
        flush();
        h.update(utf8(piece));
        return;
      }
      pending.push(piece);
      if ((size += piece.length) > 1 << 16) flush();
    },
  });
  flush();
  return h.digest('hex');
}

/** Short form for display and ids. */
export function shortHash(value: unknown, length = 12): string {
  return hashValue(value).slice(0, length);
}
