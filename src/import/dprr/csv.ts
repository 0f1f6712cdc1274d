/**
 * A small RFC 4180 CSV reader. The DPRR tables quote fields that contain commas, doubled quotes
 * and (rarely) line breaks, so a split on ',' is wrong; no CSV package is installed and the format
 * is small enough to parse exactly here. CRLF and LF line endings are both accepted.
 */
export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'CsvError';
  }
}

/** Parse CSV text into rows of fields. A final empty line does not make an empty row. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const n = text.length;
  // A leading byte-order mark is not part of the first header name.
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  let atFieldStart = true;
  while (i < n) {
    const ch = text[i];
    if (atFieldStart && ch === '"') {
      // Quoted field: runs to the next lone quote; "" is an escaped quote.
      i++;
      for (;;) {
        if (i >= n) throw new CsvError('unterminated quoted field', line, i - lineStart + 1);
        const c = text[i];
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (c === '\n') {
          line++;
          lineStart = i + 1;
        }
        field += c;
        i++;
      }
      atFieldStart = false;
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        throw new CsvError(`unexpected character ${JSON.stringify(next)} after a closing quote`, line, i - lineStart + 1);
      }
      continue;
    }
    if (ch === ',') {
      row.push(field);
      field = '';
      atFieldStart = true;
      i++;
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      atFieldStart = true;
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      lineStart = i;
      continue;
    }
    if (ch === '"') throw new CsvError('a quote inside an unquoted field', line, i - lineStart + 1);
    field += ch;
    atFieldStart = false;
    i++;
  }
  if (!atFieldStart || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/**
 * Rows as objects keyed by the header. Every required column must be present; every row must
 * have exactly as many fields as the header (a short or long row is a corrupt table).
 */
export function csvObjects<K extends string>(text: string, required: readonly K[]): { rows: Record<K, string>[]; header: string[] } {
  const all = parseCsv(text);
  if (all.length === 0) throw new CsvError('empty table (no header row)', 1, 1);
  const header = all[0];
  const missing = required.filter((k) => !header.includes(k));
  if (missing.length) throw new CsvError(`missing column(s): ${missing.join(', ')}`, 1, 1);
  const index = required.map((k) => header.indexOf(k));
  const rows: Record<K, string>[] = [];
  for (let r = 1; r < all.length; r++) {
    const fields = all[r];
    if (fields.length === 1 && fields[0] === '') continue; // blank line
    if (fields.length !== header.length) {
      throw new CsvError(`row has ${fields.length} fields, the header has ${header.length}`, r + 1, 1);
    }
    const o = Object.create(null) as Record<K, string>;
    required.forEach((k, j) => (o[k] = fields[index[j]]));
    rows.push(o);
  }
  return { rows, header };
}
