import type { Interface } from 'node:readline';
import type { Readable } from 'node:stream';
import { utf8BreakInLine, type Utf8Break } from '../store/read.js';
import { plural } from '../core/readable.js';
import { stripControl } from '../diagnostics/sanitize.js';
import { cutCodePoints } from '../core/code-points.js';

/**
 * What a user line may carry: ANSI escapes, control characters and bidi overrides/isolates are
 * removed (a terminal paste or a stray Ctrl-key must not reach the model or the log, and a line's
 * claim is committed to canon.json, where a bidi override would disguise it in a diff), and a line
 * over the limit is cut with a notice rather than refused, so nothing the user typed silently disappears.
 */
export const DEFAULT_MAX_INPUT = 2000;

export interface CleanInput {
  text: string;
  truncated: boolean;
  notices: string[];
}

export function cleanInput(raw: string, max: number = DEFAULT_MAX_INPUT): CleanInput {
  const notices: string[] = [];
  let text = raw.replace(/\r$/, '');
  const stripped = stripControl(text).text;
  if (stripped !== text) notices.push(`removed ${[...text].length - [...stripped].length} control or bidi character(s) from your line`);
  const cut = cutCodePoints(stripped.replace(/\t/g, ' ').trim(), max);
  if (cut.cut) notices.push(`your line was ${cut.length} characters; cut at the limit of ${max} (play.max_input in aureus.config.yaml, or --max-input)`);
  return { text: cut.text, truncated: cut.cut, notices };
}

/** One input line: its text, and for piped input where its bytes broke UTF-8 (for a notice). */
export interface InputLine {
  text: string;
  broken?: Utf8Break;
}

/**
 * The turn loop's lines, pulled one at a time. `pending()` are the lines already read and not yet
 * taken (the script's lines after the scene's end, for the notice that says they were not played):
 * counted without reading further, since a peek at the input would wait on a pipe its writer keeps
 * open. `close()` stops reading (an interrupt): what is queued stays for `pending()`.
 */
export interface LineSource {
  next: () => Promise<InputLine | null>;
  pending: () => string[];
  close: () => void;
}

/** Lines are read ahead at most this far: a long file piped in is read as it is played, not held whole in memory. */
const HIGH_WATER = 256;

/** The waiting half of a line source: a queue, an end, and a wake-up for the reader waiting on them. */
function queueOf(pause: () => void, resume: () => void) {
  const queue: InputLine[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  return {
    push(line: InputLine) {
      queue.push(line);
      if (queue.length === HIGH_WATER) pause();
      wake?.();
    },
    end() {
      ended = true;
      wake?.();
    },
    ended: () => ended,
    async next(): Promise<InputLine | null> {
      while (!queue.length && !ended) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      if (queue.length === HIGH_WATER && !ended) resume();
      return queue.shift() ?? null;
    },
    pending: () => queue.map((l) => l.text),
  };
}

/**
 * Piped input, one turn per line: split at LF and only there. Not readline, which also ends a line
 * at a lone CR (a stray CR inside a line made two turns of it) and numbered lines its own way,
 * while the UTF-8 check counted LFs, so a bad byte's notice came with the wrong turn. Here one
 * split gives both: a CR before the LF is the line's CRLF ending and dropped; a CR inside a line
 * stays in it, for cleanInput to remove with its control-character notice. Each line's bytes are
 * checked for UTF-8 before they are decoded (a bad byte becomes U+FFFD, as the CLI reads other
 * text it is given; the line is still played) and `broken` says where, for brokenUtf8Notice.
 */
export function pipedLines(input: Readable): LineSource {
  const q = queueOf(
    () => input.pause(),
    () => input.resume(),
  );
  let partial: Buffer[] = [];
  let lineNo = 0;
  const line = (bytes: Buffer) => {
    lineNo++;
    const body = bytes.length && bytes[bytes.length - 1] === 13 ? bytes.subarray(0, -1) : bytes;
    const broken = utf8BreakInLine(body, lineNo);
    q.push({ text: body.toString('utf8'), ...(broken ? { broken } : {}) });
  };
  const data = (chunk: Buffer | string) => {
    if (q.ended()) return;
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let lf = b.indexOf(10); lf >= 0; lf = b.indexOf(10, start)) {
      line(partial.length ? Buffer.concat([...partial, b.subarray(start, lf)]) : b.subarray(start, lf));
      partial = [];
      start = lf + 1;
    }
    if (start < b.length) partial.push(b.subarray(start));
  };
  const detach = () => {
    input.off('data', data);
    input.off('end', end);
    input.off('error', end);
  };
  // The last line needs no LF; an input that fails (a read error) ends as one that closes.
  const end = () => {
    if (q.ended()) return;
    if (partial.length) line(Buffer.concat(partial));
    partial = [];
    detach();
    q.end();
  };
  input.on('data', data);
  input.on('end', end);
  input.on('error', end);
  return {
    next: () => q.next(),
    pending: q.pending,
    close() {
      if (q.ended()) return;
      detach();
      // Stop reading: the process may exit while a writer still holds the pipe open.
      input.pause();
      partial = [];
      q.end();
    },
  };
}

/** The notice for a line that broke UTF-8 (utf8CheckedLines). */
export const brokenUtf8Notice = (b: Utf8Break): string =>
  `line ${b.line} of the input is not valid UTF-8 (a bad byte at column ${b.column}): it was played with U+FFFD (�) in place of the bad bytes; send UTF-8 text`;

/** A terminal's lines, as readline reads them (its keys come decoded: nothing to check). */
export function terminalLines(rl: Interface): LineSource {
  const q = queueOf(
    () => rl.pause(),
    () => rl.resume(),
  );
  rl.on('line', (text) => q.push({ text }));
  rl.on('close', () => q.end());
  return { next: () => q.next(), pending: q.pending, close: () => rl.close() };
}

/** The notice for input lines left unplayed when the scene ended (blank lines not counted). */
export function unplayedNotice(lines: readonly string[]): string | null {
  const n = lines.filter((l) => l.trim()).length;
  return n ? `the scene ended before ${n} more ${plural(n, 'line')} of your input: ${plural(n, 'it was', 'they were')} not played` : null;
}
