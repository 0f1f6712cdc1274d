import { createHash } from 'node:crypto';
import { canonicalCompact } from './json.js';

export function sha256(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Hash of a value's canonical JSON. Used for state hashes and cache keys. */
export function hashValue(value: unknown): string {
  return sha256(canonicalCompact(value));
}

/** Short form for display and ids. */
export function shortHash(value: unknown, length = 12): string {
  return hashValue(value).slice(0, length);
}
