import { diag, type Diagnostic } from '../diagnostics/index.js';
import { escapePointerSegment } from '../core/json-pointer.js';

/**
 * No string in a world file is longer than this (the longest in the starter kit is ~240 characters:
 * a description). A 5 MB character name would otherwise pass validation and then reach every
 * prompt and packet, burning a minute of work before failing (issue 12).
 */
export const MAX_STRING_CHARS = 4000;


/** AUR1051 for each over-long string (value or key), with its JSON pointer; at most `limit` of them. */
export function checkStringLengths(value: unknown, file: string, limit = 5): Diagnostic[] {
  const out: Diagnostic[] = [];
  const walk = (v: unknown, pointer: string) => {
    if (out.length >= limit) return;
    if (typeof v === 'string') {
      if (v.length > MAX_STRING_CHARS) out.push(diag('AUR1051', { length: v.length, max: MAX_STRING_CHARS }, { file, pointer: pointer || '/' }));
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${pointer}/${i}`));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const p = `${pointer}/${escapePointerSegment(k.length > MAX_STRING_CHARS ? k.slice(0, 40) + '…' : k)}`;
        if (k.length > MAX_STRING_CHARS) out.push(diag('AUR1051', { length: k.length, max: MAX_STRING_CHARS }, { file, pointer: p }));
        walk(x, p);
      }
    }
  };
  walk(value, '');
  return out;
}
