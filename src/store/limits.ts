import { isAscii } from 'node:buffer';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { escapePointerSegment } from '../core/json-pointer.js';
import { unseenIn } from '../diagnostics/sanitize.js';

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

/**
 * The fields that name something, one line of visible text each: an id, a name, a title, a label, a
 * script cue and any `…_id`. They reach the terminal and the prompts, and a name is written into the
 * committed episode script as it is: a control character there (an ESC that recolours or moves the
 * cursor, a bidi override that reorders a line) would act on every reader. A description or a line of
 * text may hold line breaks; these may not.
 */
const NAMING = /^(?:id|name|title|label|cue|.+_id)$/;

/** AUR1055 for each naming field (NAMING) whose string holds a control or invisible format character; at most `limit`. */
export function checkNameCharacters(value: unknown, file: string, limit = 20): Diagnostic[] {
  const out: Diagnostic[] = [];
  const walk = (v: unknown, pointer: string, key: string | undefined) => {
    if (out.length >= limit) return;
    if (typeof v === 'string') {
      const found = key !== undefined && NAMING.test(key) ? unseenIn(v) : [];
      if (found.length) out.push(diag('AUR1055', { field: key!, chars: found.join(' ') }, { file, pointer }));
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${pointer}/${i}`, undefined));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${pointer}/${escapePointerSegment(k)}`, k);
  };
  walk(value, '', undefined);
  return out;
}

/**
 * The first byte of the UTF-8 form of every non-ASCII character a name may not hold (sanitize.ts
 * unseenIn: controls, format characters, the line and paragraph separators).
 * test/store/name-characters-bytes.test.ts derives the set again from that regex over every code point.
 */
export const UNSEEN_LEADS: readonly number[] = [0xc2, 0xd8, 0xdb, 0xdc, 0xe0, 0xe1, 0xe2, 0xef, 0xf0, 0xf3];
/** A JSON escape that writes a character, not a quote or a slash: \uXXXX, \b, \f, \n, \r, \t. */
const CHAR_ESCAPE = new Set([0x75, 0x62, 0x66, 0x6e, 0x72, 0x74]);

/**
 * Whether a JSON text may hold a string with a character a name may not: false proves that none does,
 * so checkNameCharacters' walk over every value (~120 ms of CPU on the 10,000-character world's files,
 * a cold load's whole budget for growth: issue 18) is skipped for the usual clean file. JSON allows no
 * raw control character in a string but DEL, so one is there only as an escape or a DEL; a non-ASCII
 * character only where a byte of UNSEEN_LEADS starts it, and each such character is decoded and tested.
 */
export function mayHoldUnseen(bytes: Buffer): boolean {
  if (bytes.indexOf(0x7f) >= 0) return true;
  // Escapes come in pairs: "\\n" is a backslash and an n, so the search resumes after each pair.
  for (let at = bytes.indexOf(0x5c); at >= 0; at = bytes.indexOf(0x5c, at + 2)) if (CHAR_ESCAPE.has(bytes[at + 1]!)) return true;
  if (isAscii(bytes)) return false;
  for (const lead of UNSEEN_LEADS) {
    for (let at = bytes.indexOf(lead); at >= 0; at = bytes.indexOf(lead, at + 1)) {
      const cp = bytes.toString('utf8', at, at + 4).codePointAt(0)!;
      if (unseenIn(String.fromCodePoint(cp)).length) return true;
    }
  }
  return false;
}
