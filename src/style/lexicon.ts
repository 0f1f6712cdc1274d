// The index registers every catalog range, so diag() knows the AUR18xx codes.
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { escapeRegExp } from '../core/regex.js';

/**
 * style/lexicon.md: the forbidden anachronisms and their Roman replacements (spec §3.1, §6.3).
 *
 * The file is ordinary markdown so a showrunner can edit it in any editor; the machine-readable
 * part is every table whose header row is exactly `forbidden | replacement | note`
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

/** Split a markdown table row into trimmed cells; `\|` is a literal pipe. Null when not a row. */
function splitRow(line: string): string[] | null {
  const t = line.trim();
  if (!t.startsWith('|')) return null;
  const cells: string[] = [];
  let cur = '';
  for (let i = 1; i < t.length; i++) {
    const ch = t[i]!;
    if (ch === '\\' && t[i + 1] === '|') {
      cur += '|';
      i++;
    } else if (ch === '|') {
      cells.push(cur.trim());
      cur = '';
    } else {
      cur += ch;
    }
  }
  // A row normally ends with '|'; text after the last pipe is a (malformed) final cell.
  if (cur.trim() !== '') cells.push(cur.trim());
  return cells;
}

const isSeparator = (cells: string[]): boolean => cells.length > 0 && cells.every((c) => /^:?-{3,}:?$/.test(c));
const isHeader = (cells: string[]): boolean =>
  cells.length === HEADER.length && cells.every((c, i) => c.toLowerCase() === HEADER[i]);

/** Forbidden entries must begin and end with a letter or digit so whole-word matching is defined. */
const WORD_EDGES = /^[\p{L}\p{N}].*[\p{L}\p{N}]$|^[\p{L}\p{N}]$/u;

/** Normalise for duplicate detection and matching: lower case, single spaces, straight apostrophes. */
const normal = (s: string): string => s.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim();

export function parseLexicon(markdown: string, file: string = LEXICON_FILE): LexiconParse {
  const entries: LexiconEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Map<string, number>();
  const lines = markdown.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  let tables = 0;
  let i = 0;
  while (i < lines.length) {
    const head = splitRow(lines[i]!);
    if (!head || !isHeader(head)) {
      i++;
      continue;
    }
    tables++;
    const headerLine = i + 1;
    const sep = i + 1 < lines.length ? splitRow(lines[i + 1]!) : null;
    if (!sep || !isSeparator(sep)) {
      diagnostics.push(diag('AUR1805', {}, { file, line: headerLine, column: 1 }));
      i++;
      continue;
    }
    i += 2;
    // Rows run until the first line that is not a table row (a blank line ends the table).
    for (; i < lines.length; i++) {
      const cells = splitRow(lines[i]!);
      if (!cells) break;
      const line = i + 1;
      if (cells.length !== 3) {
        diagnostics.push(diag('AUR1802', { count: cells.length }, { file, line, column: 1 }));
        continue;
      }
      const [forbidden, replacement, note] = cells as [string, string, string];
      if (forbidden === '' || replacement === '') {
        diagnostics.push(diag('AUR1803', { column: forbidden === '' ? 'forbidden' : 'replacement' }, { file, line, column: 1 }));
        continue;
      }
      if (!WORD_EDGES.test(forbidden)) {
        diagnostics.push(diag('AUR1806', { word: forbidden }, { file, line, column: 1 }));
        continue;
      }
      const key = normal(forbidden);
      const first = seen.get(key);
      if (first !== undefined) {
        diagnostics.push(diag('AUR1804', { word: forbidden, first }, { file, line, column: 1 }));
        continue;
      }
      seen.set(key, line);
      entries.push({ forbidden, replacement, note, line });
    }
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
  const scanner = order.length ? { re: new RegExp(`${BEFORE}(?:${order.map((i) => `(${entryPattern(entries[i]!.forbidden)})`).join('|')})${AFTER}`, 'giu'), order } : null;
  compiled.set(entries, scanner);
  return scanner;
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
  for (let m = re.exec(text); m; m = re.exec(text)) {
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
