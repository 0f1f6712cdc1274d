import type { Interface } from 'node:readline';
import { Transform, type Readable } from 'node:stream';
import { utf8BreakInLine, type Utf8Break } from '../store/read.js';
import { plural } from '../core/readable.js';
import { stripControl } from '../diagnostics/sanitize.js';

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
  text = stripped.replace(/\t/g, ' ').trim();
  const chars = [...text];
  let truncated = false;
  if (chars.length > max) {
    text = chars.slice(0, max).join('');
    truncated = true;
    notices.push(`your line was ${chars.length} characters; cut at the limit of ${max} (play.max_input in aureus.config.yaml, or --max-input)`);
  }
  return { text, truncated, notices };
}

/**
 * Piped input checked line by line before readline decodes it: readline turns a byte that breaks
 * UTF-8 into U+FFFD without a word, so the turn would go to the model (and the log) changed. The
 * bytes pass through unchanged (the turn is still played, as the CLI reads other text it is given);
 * `broken(n)` says where line n (1-based, split at LF as readline does) broke UTF-8, for a notice.
 */
export function utf8CheckedLines(input: Readable): { input: Readable; broken: (n: number) => Utf8Break | undefined } {
  const breaks = new Map<number, Utf8Break>();
  let pending: Buffer[] = [];
  let line = 1;
  const check = (bytes: Buffer) => {
    const x = utf8BreakInLine(bytes, line);
    if (x) breaks.set(line, x);
  };
  const checked = new Transform({
    transform(chunk: Buffer | string, _enc, done) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      let start = 0;
      for (let lf = b.indexOf(10); lf >= 0; lf = b.indexOf(10, start)) {
        check(Buffer.concat([...pending, b.subarray(start, lf)]));
        pending = [];
        line++;
        start = lf + 1;
      }
      if (start < b.length) pending.push(b.subarray(start));
      done(null, b);
    },
    flush(done) {
      if (pending.length) check(Buffer.concat(pending));
      done();
    },
  });
  input.pipe(checked);
  return { input: checked, broken: (n) => breaks.get(n) };
}

/** The notice for a line that broke UTF-8 (utf8CheckedLines). */
export const brokenUtf8Notice = (b: Utf8Break): string =>
  `line ${b.line} of the input is not valid UTF-8 (a bad byte at column ${b.column}): it was played with U+FFFD (�) in place of the bad bytes; send UTF-8 text`;

/**
 * readline's lines as a queue the turn loop pulls from. Why not `for await (… of rl)`: when the scene
 * ends, the lines a script piped after its last turn are already read (readline splits each chunk at
 * once) and were dropped without a word; here `pending()` counts them without reading further (a
 * peek at the input would wait on a pipe its writer keeps open).
 */
export function lineQueue(rl: Interface): { next: () => Promise<string | null>; pending: () => string[] } {
  const queue: string[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  rl.on('line', (line) => {
    queue.push(line);
    // A long file piped in is read as it is played, not held whole in memory.
    if (queue.length === HIGH_WATER) rl.pause();
    wake?.();
  });
  rl.on('close', () => {
    ended = true;
    wake?.();
  });
  const next = async (): Promise<string | null> => {
    while (!queue.length && !ended) await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
    if (queue.length === HIGH_WATER) rl.resume();
    return queue.shift() ?? null;
  };
  return { next, pending: () => [...queue] };
}

const HIGH_WATER = 256;

/** The notice for input lines left unplayed when the scene ended (blank lines not counted). */
export function unplayedNotice(lines: readonly string[]): string | null {
  const n = lines.filter((l) => l.trim()).length;
  return n ? `the scene ended before ${n} more ${plural(n, 'line')} of your input: ${plural(n, 'it was', 'they were')} not played` : null;
}
