// The index registers every catalog range, so diag() knows the AUR18xx codes.
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { escapeRegExp } from '../core/regex.js';
import { AureusError, ExitCode } from '../errors.js';
import { marked, type Tokens } from 'marked';

/**
 * style/lexicon.md: the forbidden anachronisms and their Roman replacements (spec §3.1, §6.3).
 *
 * The file is ordinary markdown so a showrunner can edit it in any editor; the machine-readable
 * part is every (GFM) table whose header row is exactly `forbidden | replacement | note`
 * (case-insensitive). Headings, prose and other tables are ignored, so entries can be grouped
 * by theme. A literal pipe inside a cell is written `\|`.
 */

export interface LexiconEntry {
  forbidden: string;
  replacement: string;
  note: string;
  /** 1-based line of the row in the markdown file. */
  line: number;
}

export interface LexiconParse {
  entries: LexiconEntry[];
  diagnostics: Diagnostic[];
}

export interface AnachronismHit {
  /** The text exactly as it appears in the scanned text (e.g. "Okay", "stock  market"). */
  word: string;
  /** The lexicon entry that matched (its `forbidden` cell). */
  forbidden: string;
  replacement: string;
  /** 0-based offset of the hit in the scanned text (UTF-16 code units, as String indices). */
  index: number;
  /** 1-based line and column of the hit. */
  line: number;
  column: number;
}

export const LEXICON_FILE = 'style/lexicon.md';
const HEADER = ['forbidden', 'replacement', 'note'];

/**
 * How many cells a raw table row has, split as GFM (and marked) split it: one leading and one
 * trailing pipe are optional, a pipe after an odd number of backslashes is literal. Marked pads a
 * short row and cuts a long one to the header's width, so a row of the wrong width is seen here.
 */
function rawCellCount(row: string): number {
  let t = row.trim();
  if (t.startsWith('|')) t = t.slice(1);
  let count = 1;
  for (let i = 0; i < t.length; i++) {
    if (t[i] !== '|') continue;
    let slashes = 0;
    for (let k = i - 1; k >= 0 && t[k] === '\\'; k--) slashes++;
    if (slashes % 2 === 1) continue;
    // A final unescaped pipe closes the row; it does not open a cell.
    if (t.slice(i + 1).trim() === '') break;
    count++;
  }
  return count;
}

const isHeader = (cells: string[]): boolean =>
  cells.length === HEADER.length && cells.every((c, i) => c.trim().toLowerCase() === HEADER[i]);

/** A line that reads as the lexicon header row (for a header marked could not make a table of). */
function isHeaderLine(line: string): boolean {
  if (!line.includes('|') || rawCellCount(line) !== HEADER.length) return false;
  const t = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return isHeader(t.split('|'));
}

/** Forbidden entries must begin and end with a letter or digit so whole-word matching is defined. */
const WORD_EDGES = /^[\p{L}\p{N}].*[\p{L}\p{N}]$|^[\p{L}\p{N}]$/u;

/** Normalise for duplicate detection and matching: lower case, single spaces, straight apostrophes. */
const normal = (s: string): string => s.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim();

/**
 * Limits of one entry and of the lexicon. The scanner compiles every entry into one regular
 * expression: an entry of 3,000 words made V8's regex parser overflow its stack in the middle of
 * `episode run` (exit 1) after `validate` had passed it, and past 32,766 entries V8 refuses the
 * capture groups. The longest shipped entry has two words and 14 characters.
 */
export const MAX_FORBIDDEN_WORDS = 12;
export const MAX_FORBIDDEN_CHARS = 100;
export const MAX_LEXICON_ENTRIES = 10_000;

/** How `forbidden` is over the limits of one entry ("3000 words"), or null when it is within them. */
export function forbiddenTooLong(forbidden: string): string | null {
  const words = normal(forbidden).split(' ').length;
  if (words > MAX_FORBIDDEN_WORDS) return `${words} words`;
  return forbidden.length > MAX_FORBIDDEN_CHARS ? `${forbidden.length} characters` : null;
}

/** A long entry quoted in a message by its start. */
const quoted = (s: string): string => (s.length > 40 ? `${s.slice(0, 40)}…` : s);

/** What one row adds: an entry, or the diagnostic that refuses it. */
type RowVerdict = { entry: LexiconEntry } | { problem: Diagnostic };

function readRow(raw: string, cells: string[], line: number, file: string, seen: Map<string, number>): RowVerdict {
  const at = { file, line, column: 1 };
  const count = rawCellCount(raw);
  if (count !== HEADER.length) return { problem: diag('AUR1802', { count }, at) };
  const [forbidden, replacement, note] = cells as [string, string, string];
  if (forbidden === '' || replacement === '') return { problem: diag('AUR1803', { column: forbidden === '' ? 'forbidden' : 'replacement' }, at) };
  if (!WORD_EDGES.test(forbidden)) return { problem: diag('AUR1806', { word: quoted(forbidden) }, at) };
  const size = forbiddenTooLong(forbidden);
  if (size) return { problem: diag('AUR1811', { word: quoted(forbidden), size, maxWords: MAX_FORBIDDEN_WORDS, maxChars: MAX_FORBIDDEN_CHARS }, at) };
  const first = seen.get(normal(forbidden));
  if (first !== undefined) return { problem: diag('AUR1804', { word: forbidden, first }, at) };
  seen.set(normal(forbidden), line);
  return { entry: { forbidden, replacement, note, line } };
}

/**
 * The lexicon tables of a markdown file, read from marked's GFM tokens (outer pipes optional,
 * alignment colons, `\|` in a cell), with each row's 1-based line in the file. Top-level tokens'
 * raw texts add up to the whole (line-ending normalised) file, which is how lines are counted. A
 * header row marked could not make a table of (no separator under it) stays in a paragraph.
 */
export function parseLexicon(markdown: string, file: string = LEXICON_FILE): LexiconParse {
  const entries: LexiconEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Map<string, number>();
  const text = markdown.replace(/^\uFEFF/, '').replace(/\r\n|\r/g, '\n');
  let tables = 0;
  let line = 1;
  let tooMany = false;
  for (const token of marked.lexer(text, { gfm: true })) {
    const rawLines = token.raw.split('\n');
    if (token.type === 'table' && isHeader((token as Tokens.Table).header.map((c) => c.text))) {
      tables++;
      (token as Tokens.Table).rows.forEach((cells, r) => {
        const verdict = readRow(rawLines[r + 2]!, cells.map((c) => c.text), line + r + 2, file, seen);
        if (!('entry' in verdict)) diagnostics.push(verdict.problem);
        else if (entries.length < MAX_LEXICON_ENTRIES) entries.push(verdict.entry);
        else if (!tooMany) (tooMany = true), diagnostics.push(diag('AUR1812', { max: MAX_LEXICON_ENTRIES }, { file, line: verdict.entry.line, column: 1 }));
      });
    } else if (token.type === 'paragraph') {
      rawLines.forEach((l, k) => {
        if (!isHeaderLine(l)) return;
        tables++;
        diagnostics.push(diag('AUR1805', {}, { file, line: line + k, column: 1 }));
      });
    }
    line += rawLines.length - 1;
  }
  if (tables === 0) diagnostics.push(diag('AUR1801', {}, { file, line: 1, column: 1 }));
  return { entries, diagnostics };
}

/**
 * The pattern for one entry (case-insensitive through the scanner's flags): any run of
 * whitespace between the words of a phrase, either apostrophe, and a final letter may take a
 * plural -s / -es, so "dollar" also catches "dollars". Word boundaries are added by the scanner.
 */
function entryPattern(forbidden: string): string {
  const words = normal(forbidden).split(' ').map((w) => escapeRegExp(w).replace(/'/g, "['’]"));
  const plural = /\p{L}$/u.test(forbidden) ? '(?:e?s)?' : '';
  return `${words.join('\\s+')}${plural}`;
}

/** No letter, digit or underscore may touch a match on either side (whole words only). */
const BEFORE = '(?<![\\p{L}\\p{N}_])';
const AFTER = '(?![\\p{L}\\p{N}_])';

/**
 * One alternation over every entry, longest first, so a single left-to-right scan finds them all.
 * The whole-word look-ahead follows the alternation once instead of ending each entry: by the
 * regex's backtracking order `(?:(a)|(b))X` tries exactly what `(?:(aX)|(bX))` tries, and X is
 * zero-width, so matches and groups are the same — but V8 compiles one copy of the Unicode
 * classes instead of one per entry (~250 ms to ~10 ms for the starter lexicon, per process).
 */
const compiled = new WeakMap<readonly Pick<LexiconEntry, 'forbidden' | 'replacement'>[], { re: RegExp; order: number[] } | null>();

function scannerFor(entries: readonly Pick<LexiconEntry, 'forbidden' | 'replacement'>[]): { re: RegExp; order: number[] } | null {
  if (compiled.has(entries)) return compiled.get(entries)!;
  // Longer entries first: at one position "stock market" wins over "stock", "o'clock" over "o".
  const order = entries.map((_, i) => i).sort((a, b) => entries[b]!.forbidden.length - entries[a]!.forbidden.length || a - b);
  const scanner = order.length ? { re: compile(`${BEFORE}(?:${order.map((i) => `(${entryPattern(entries[i]!.forbidden)})`).join('|')})${AFTER}`, entries, order[0]!), order } : null;
  compiled.set(entries, scanner);
  return scanner;
}

/**
 * The scanner's expression, or exit 3 naming the lexicon's longest entry: parseLexicon refuses
 * what is known to break it (AUR1811, AUR1812), but entries can come from elsewhere (a packet),
 * and V8's limits depend on the stack left. Its message quotes the whole expression (16 KB for
 * one long entry): only its reason is kept.
 */
function compile(source: string, entries: readonly Pick<LexiconEntry, 'forbidden'>[], longest: number): RegExp {
  try {
    return new RegExp(source, 'giu');
  } catch (e) {
    throw unusable(e, entries, longest);
  }
}

function unusable(e: unknown, entries: readonly Pick<LexiconEntry, 'forbidden'>[], longest: number): AureusError {
  const reason = e instanceof Error ? e.message.replace(/^Invalid regular expression: \/[\s\S]*\/[a-z]*: /, '') : String(e);
  const entry = entries[longest] as Partial<LexiconEntry> & { forbidden: string };
  const at = entry.line !== undefined ? ` (line ${entry.line})` : '';
  const detail = `its ${entries.length} entries make a pattern the scanner cannot compile (${reason}); the longest, "${quoted(entry.forbidden)}"${at}, has ${normal(entry.forbidden).split(' ').length} words`;
  const d = diag('AUR5082', { file: LEXICON_FILE, detail }, { file: LEXICON_FILE, ...(entry.line !== undefined ? { line: entry.line, column: 1 } : {}) });
  return new AureusError(`lexicon ${LEXICON_FILE} cannot be used`, { exitCode: ExitCode.INVALID_WORLD, diagnostics: [d] });
}

/**
 * Every forbidden word or phrase in `text`, in text order. The scan is leftmost-longest and
 * never reports overlapping spans: in "o'clock" only the "o'clock" entry is reported, not "clock".
 */
export function findAnachronisms(text: string, entries: readonly Pick<LexiconEntry, 'forbidden' | 'replacement'>[]): AnachronismHit[] {
  const scanner = scannerFor(entries);
  if (!scanner) return [];
  // Line starts, to turn offsets into line:column without rescanning the text per hit.
  const lineStarts = [0];
  for (let k = 0; k < text.length; k++) if (text[k] === '\n') lineStarts.push(k + 1);
  const hits: AnachronismHit[] = [];
  const re = new RegExp(scanner.re.source, scanner.re.flags);
  // V8 compiles an expression when it first runs (again for a text with characters beyond Latin-1):
  // that can fail too, as the construction can.
  const next = (): RegExpExecArray | null => {
    try {
      return re.exec(text);
    } catch (e) {
      throw unusable(e, entries, scanner.order[0]!);
    }
  };
  for (let m = next(); m; m = next()) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    const group = m.findIndex((g, i) => i > 0 && g !== undefined);
    const e = entries[scanner.order[group - 1]!]!;
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= m.index) lo = mid;
      else hi = mid - 1;
    }
    hits.push({ word: m[0], forbidden: e.forbidden, replacement: e.replacement, index: m.index, line: lo + 1, column: m.index - lineStarts[lo]! + 1 });
  }
  return hits;
}
