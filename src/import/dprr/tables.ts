import { stat } from 'node:fs/promises';
import path from 'node:path';
import { diag } from '../../diagnostics/index.js';
import { AureusError, ExitCode } from '../../errors.js';
import { decodeStrictUtf8, utf8Breaks } from '../../store/read.js';
import { readRegularFileBytesSync, RegularFileError } from '../../store/regular-file.js';
import { csvObjects, CsvError } from './csv.js';

/** One DPRR person (dprr_persons.csv), typed. Years are integers, negative = BC. */
export interface DprrPerson {
  person_id: number;
  dprr_id: string;
  praenomen: string;
  nomen: string;
  cognomen: string;
  other_names: string;
  sex: 'Male' | 'Female' | string;
  highest_office: string;
  era_from: number;
  era_to: number;
  is_patrician: boolean;
  is_nobilis: boolean;
  is_novus: boolean;
  origin: string;
}

/** One office held (dprr_post_assertions.csv). */
export interface DprrPost {
  person_id: number;
  office_name: string;
  date_start: number;
  date_end: number;
  is_uncertain: boolean;
  province: string;
}

/** One directed relationship (dprr_relationship_assertions.csv): person `relationship` related. */
export interface DprrRelation {
  person_id: number;
  relationship: string;
  related_person_id: number;
  is_uncertain: boolean;
}

export interface DprrTables {
  persons: DprrPerson[];
  posts: DprrPost[];
  relations: DprrRelation[];
}

export const DPRR_FILES = {
  persons: 'dprr_persons.csv',
  posts: 'dprr_post_assertions.csv',
  relations: 'dprr_relationship_assertions.csv',
} as const;

const PERSON_COLS = ['person_id', 'dprr_id', 'praenomen', 'nomen', 'cognomen', 'other_names', 'sex', 'highest_office', 'era_from', 'era_to', 'is_patrician', 'is_nobilis', 'is_novus', 'origin'] as const;
const POST_COLS = ['person_id', 'office_name', 'date_start', 'date_end', 'is_uncertain', 'province_original'] as const;
const REL_COLS = ['person_id', 'relationship', 'related_person_id', 'is_uncertain'] as const;

/**
 * Nothing larger is read as a table (the shipped tables are under 1 MB each; the whole DPRR dump
 * is a few): a table is read whole into one string, and /dev/zero or a runaway file must not be.
 */
const MAX_TABLE_BYTES = 64 * 1024 * 1024;

/**
 * One table as text: a regular file (a FIFO is refused, never waited on), of bounded size, and
 * strict UTF-8 (a bad byte, which a lenient read turns into U+FFFD in a character's name, is an
 * error at its line:column, as for world files).
 */
function readTable(dir: string, file: string): string {
  const abs = path.join(dir, file);
  let bytes: Buffer;
  try {
    bytes = readRegularFileBytesSync(abs, MAX_TABLE_BYTES);
  } catch (e) {
    const reason = e instanceof RegularFileError ? (e.code === 'ENOENT' ? 'file not found' : e.reason) : (e as Error).message;
    throw new AureusError(`cannot read the DPRR tables in ${dir}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7901', { table: file, reason }, { file: abs })] });
  }
  const text = decodeStrictUtf8(bytes);
  if (text !== null) return text;
  const at = utf8Breaks(bytes)[0]!;
  const reason = `byte 0x${bytes[at.offset]!.toString(16).toUpperCase().padStart(2, '0')} is not UTF-8 (the tables are UTF-8 text)`;
  throw new AureusError(`the DPRR table ${file} is not UTF-8`, { exitCode: ExitCode.INVALID_WORLD, diagnostics: [diag('AUR7902', { reason }, { file: abs, line: at.line, column: at.column })] });
}

function parse<K extends string>(text: string, file: string, dir: string, cols: readonly K[]): Record<K, string>[] {
  try {
    return csvObjects(text, cols).rows;
  } catch (e) {
    if (e instanceof CsvError) {
      throw new AureusError(`the DPRR table ${file} is not valid CSV`, {
        exitCode: ExitCode.INVALID_WORLD,
        diagnostics: [diag('AUR7902', { reason: e.message }, { file: path.join(dir, file), line: e.line, column: e.column })],
      });
    }
    throw e;
  }
}

/** Integer or error with the row's location: a corrupt number must not silently become 0. */
function int(v: string, file: string, dir: string, row: number, col: string): number {
  const t = v.trim();
  if (!/^-?\d+$/.test(t)) {
    throw new AureusError(`the DPRR table ${file} has a non-integer ${col}`, {
      exitCode: ExitCode.INVALID_WORLD,
      diagnostics: [diag('AUR7907', { reason: `${col} is ${JSON.stringify(v)}, not an integer` }, { file: path.join(dir, file), line: row + 2, column: 1 })],
    });
  }
  return Number(t);
}

const bool = (v: string) => v.trim().toLowerCase() === 'true';

/** Read and type the three DPRR tables from `dir`. */
/** The data folder itself first: a clone without data/dprr gets one clear error, not three "file not found". */
async function requireDataDir(dir: string): Promise<void> {
  const isDir = await stat(dir).then((s) => s.isDirectory(), () => false);
  if (!isDir) {
    throw new AureusError(`the DPRR data folder ${dir} does not exist`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7908', { dir }, { file: dir })] });
  }
}

export async function loadDprrTables(dir: string): Promise<DprrTables> {
  await requireDataDir(dir);
  const pText = readTable(dir, DPRR_FILES.persons);
  const oText = readTable(dir, DPRR_FILES.posts);
  const rText = readTable(dir, DPRR_FILES.relations);
  const pf = DPRR_FILES.persons;
  const persons = parse(pText, pf, dir, PERSON_COLS).map((r, i) => ({
    person_id: int(r.person_id, pf, dir, i, 'person_id'),
    dprr_id: r.dprr_id.trim(),
    praenomen: r.praenomen.trim(),
    nomen: r.nomen.trim(),
    cognomen: r.cognomen.trim(),
    other_names: r.other_names.trim(),
    sex: r.sex.trim(),
    highest_office: r.highest_office.trim(),
    era_from: int(r.era_from, pf, dir, i, 'era_from'),
    era_to: int(r.era_to, pf, dir, i, 'era_to'),
    is_patrician: bool(r.is_patrician),
    is_nobilis: bool(r.is_nobilis),
    is_novus: bool(r.is_novus),
    origin: r.origin.trim(),
  }));
  const of = DPRR_FILES.posts;
  const posts = parse(oText, of, dir, POST_COLS).map((r, i) => ({
    person_id: int(r.person_id, of, dir, i, 'person_id'),
    office_name: r.office_name.trim(),
    date_start: int(r.date_start, of, dir, i, 'date_start'),
    date_end: r.date_end.trim() === '' ? int(r.date_start, of, dir, i, 'date_start') : int(r.date_end, of, dir, i, 'date_end'),
    is_uncertain: bool(r.is_uncertain),
    province: r.province_original.trim(),
  }));
  const rf = DPRR_FILES.relations;
  const relations = parse(rText, rf, dir, REL_COLS).map((r, i) => ({
    person_id: int(r.person_id, rf, dir, i, 'person_id'),
    relationship: r.relationship.trim(),
    related_person_id: int(r.related_person_id, rf, dir, i, 'related_person_id'),
    is_uncertain: bool(r.is_uncertain),
  }));
  return { persons, posts, relations };
}
