import { parse } from 'csv-parse/sync';

/**
 * The DPRR tables are RFC 4180 CSV: fields quoted when they contain commas, doubled quotes or
 * (rarely) line breaks. They are read with csv-parse (a well-kept parser) rather than by hand;
 * this module only turns its errors into a line-carrying CsvError and rows into typed objects.
 * CRLF, LF and CR line endings are all accepted, a leading BOM is dropped, blank lines are skipped.
 */
export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
    /** 1-based column when known (a header problem is at 1:1); undefined for a record-level error. */
    readonly column?: number,
  ) {
    super(message);
    this.name = 'CsvError';
  }
}

interface CsvParseError extends Error {
  code?: string;
  lines?: number;
  column?: number | string;
}

const OPTIONS = { bom: true, record_delimiter: ['\r\n', '\n', '\r'], skip_empty_lines: true, relax_column_count: true };

/** csv-parse, with its errors as CsvError (its messages are already specific: "Invalid Closing Quote: got "z" at line 2 …"). */
function parseRecords(text: string): { record: string[]; line: number }[] {
  try {
    const out = parse(text, { ...OPTIONS, info: true }) as unknown as { record: string[]; info: { lines: number } }[];
    return out.map((r) => ({ record: r.record, line: r.info.lines }));
  } catch (e) {
    const err = e as CsvParseError;
    if (typeof err.code !== 'string') throw e;
    throw new CsvError(err.message, err.lines ?? 1);
  }
}

/** Parse CSV text into rows of fields. */
export function parseCsv(text: string): string[][] {
  return parseRecords(text).map((r) => r.record);
}

/**
 * Rows as objects keyed by the header. Every required column must be present; every row must
 * have exactly as many fields as the header (a short or long row is a corrupt table).
 */
export function csvObjects<K extends string>(text: string, required: readonly K[]): { rows: Record<K, string>[]; header: string[] } {
  const all = parseRecords(text);
  if (all.length === 0) throw new CsvError('empty table (no header row)', 1, 1);
  const header = all[0].record;
  const missing = required.filter((k) => !header.includes(k));
  if (missing.length) throw new CsvError(`missing column(s): ${missing.join(', ')}`, 1, 1);
  const index = required.map((k) => header.indexOf(k));
  const rows: Record<K, string>[] = [];
  for (const { record: fields, line } of all.slice(1)) {
    if (fields.length !== header.length) throw new CsvError(`row has ${fields.length} fields, the header has ${header.length}`, line);
    const o = Object.create(null) as Record<K, string>;
    required.forEach((k, j) => (o[k] = fields[index[j]]));
    rows.push(o);
  }
  return { rows, header };
}
