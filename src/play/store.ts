import fs from 'node:fs';
import path from 'node:path';
import { writeAtomicSync } from '../store/atomic-write.js';
import { maxFileBytes } from '../store/file-cap.js';
import { readRegularFileBytesSync, RegularFileError } from '../store/regular-file.js';
import { AUREUS_DIR } from '../paths.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { decodeTurnLog, parseTurnLog, unreadable } from './records.js';
import type { TurnRecord } from './types.js';

/**
 * The session store port (seed 004: turns are an append-only narrative log and never write canon)
 * and its one adapter, `.aureus/sessions/<id>/turns.jsonl`.
 *
 * Each append rewrites the whole log atomically (store/atomic-write.ts: temp file written whole, then
 * renamed), so a kill, a full disk or a file-size limit at any moment leaves either the log before
 * the record or the log with it — never half a line, never a log cut short. Logs
 * are a few hundred lines, so the rewrite costs nothing measurable.
 */
export interface SessionStore {
  create(id: string): void;
  append(id: string, record: TurnRecord): void;
  /** Append several records in one atomic write: all of them or none. */
  appendMany(id: string, records: TurnRecord[]): void;
  /**
   * The session's records, each checked (records.ts); a log that cannot be read whole is an
   * AureusError (exit 3) with its diagnostics, never a partial list.
   */
  read(id: string): TurnRecord[];
  /** read(), with the log's text the records came from: to place diagnostics at their line:column without reading the file again. */
  readLog(id: string): { records: TurnRecord[]; text: string };
  list(): string[];
  exists(id: string): boolean;
}

export const SESSIONS_DIR = path.posix.join(AUREUS_DIR, 'sessions');
/** The log's path relative to the world root, as diagnostics name it. */
export const sessionLogRel = (id: string): string => `${SESSIONS_DIR}/${id}/turns.jsonl`;
const ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/**
 * AUR7106's hint, by what the id is for: a new session is named with `play --session`; an id to read
 * (`session show`, `play --resume`) names no session, and those commands take no --session.
 */
const ID_FIX = { name: 'e.g. --session cicero-forum', read: 'no session can have that id: `aureus session list` names them' } as const;

/** A session id, or AUR7106 (exit 2) with the hint for what it is for: naming a new session, or reading one. */
export function checkSessionId(id: string, use: keyof typeof ID_FIX = 'name'): string {
  if (!ID.test(id)) throw new AureusError(`session id "${id}" is not valid (lower-case letters, digits, - and _)`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7106', { id: id.slice(0, 80), fix: ID_FIX[use] })] });
  return id;
}

export function fileSessionStore(root: string): SessionStore {
  const dir = (id: string, use: keyof typeof ID_FIX = 'name') => path.join(root, SESSIONS_DIR, checkSessionId(id, use));
  const file = (id: string, use: keyof typeof ID_FIX = 'name') => path.join(dir(id, use), 'turns.jsonl');
  // Bytes, not text: an append keeps what is there byte for byte, and read() decodes strictly.
  // Read without ever waiting (store/regular-file.ts): a FIFO, a device or a directory in the log's
  // place is refused as not a regular file — fs.readFileSync blocked in open() on a FIFO, and
  // `session list`, `session show` and `play --resume` hung there past SIGINT and SIGTERM. The
  // append reads through this too, so it never writes a log it could not read (nor into a FIFO).
  const raw = (id: string, use: keyof typeof ID_FIX = 'name'): Buffer => {
    try {
      return readRegularFileBytesSync(file(id, use), maxFileBytes());
    } catch (e) {
      if (!(e instanceof RegularFileError)) throw e;
      if (e.code === 'ENOENT') return Buffer.alloc(0);
      const rel = sessionLogRel(id);
      throw unreadable(id, rel, e.reason, [diag('AUR1008', { file: rel, reason: e.reason }, { file: rel })]);
    }
  };
  const readLog = (id: string): { records: TurnRecord[]; text: string } => {
    if (!fs.existsSync(file(id, 'read'))) throw new AureusError(`no session ${id}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7108', { id })] });
    const rel = sessionLogRel(id);
    const text = decodeTurnLog(raw(id, 'read'), id, rel);
    return { records: parseTurnLog(text, id, rel), text };
  };
  return {
    create(id) {
      if (fs.existsSync(file(id))) throw new AureusError(`session ${id} already exists`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7107', { id })] });
      fs.mkdirSync(dir(id), { recursive: true });
      writeAtomicSync(file(id), '');
    },
    append(id, record) {
      this.appendMany(id, [record]);
    },
    appendMany(id, records) {
      if (records.length) writeAtomicSync(file(id), Buffer.concat([raw(id), Buffer.from(records.map((r) => JSON.stringify(r) + '\n').join(''))]));
    },
    read: (id) => readLog(id).records,
    readLog,
    list() {
      try {
        return fs.readdirSync(path.join(root, SESSIONS_DIR)).filter((n) => ID.test(n) && fs.existsSync(file(n))).sort();
      } catch {
        return [];
      }
    },
    exists(id) {
      return fs.existsSync(file(id));
    },
  };
}
