import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../../diagnostics/index.js';
import { AUREUS_DIR } from '../../paths.js';

/**
 * One entry of the derived world index (docs/world-index-proposal.md, first step): what a full load
 * of one exact set of world files by one exact build found, kept under .aureus/index/<key>.json so
 * the next run of the same files need not find it again. The key is a digest of the build id and of
 * every world file's bytes (key.ts), so an entry can only ever describe the files it names: a hand
 * edit, a checkout or a commit changes the key, and the next load checks in full.
 *
 * Only a world that passed every world check gets an entry (its warnings are kept, to be reported
 * again); an invalid world is checked in full, with every diagnostic, on every run until fixed.
 * The entry is derived data: anything wrong with it (truncated, another format, a shape this code
 * does not know) makes it a miss, never an error, and deleting .aureus/index/ at any time is safe.
 */
export const INDEX_DIR = path.posix.join(AUREUS_DIR, 'index');
export const INDEX_FORMAT = 'aureus-world-index/1';
/** Entries kept (the newest by modification time): a few branches or checkouts of one repository. */
const KEEP = 8;
/** A temp file this old is no write in progress (an entry is written in milliseconds). */
const STALE_TEMP_MS = 10 * 60 * 1000;
/** An entry is a few KB on the starter world and ~60 KB at 10,000 characters: anything far larger is not one. */
const MAX_ENTRY_BYTES = 16 * 1024 * 1024;

export interface IndexEntry {
  format: typeof INDEX_FORMAT;
  build: string;
  key: string;
  /** Per world file, in the order key.ts hashed them: whether its parsed value is canonical throughout (core/json.ts). */
  canonical: boolean[];
  /** The warnings of the world checks, by check, in the order the full load reports them (store/validate.ts). */
  diagnostics: { load: Diagnostic[]; expressions: Diagnostic[]; constraints: Diagnostic[] };
  /** The world's flat hash and the chunk digests of its lists (core/state-hash.ts), when a run has taken them. */
  hashes?: { flat: string; lists: { path: string[]; digests: string[] }[] };
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Whether the index may be used at all: AUREUS_INDEX=off (or 0) turns it off for one command. */
export function indexEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = (env.AUREUS_INDEX ?? '').trim().toLowerCase();
  return v !== 'off' && v !== '0' && v !== 'false';
}

/** The entry for `key` written by `build`, or null (none, unreadable, or not an entry this code wrote). */
export function readEntry(root: string, key: string, build: string): IndexEntry | null {
  const file = path.join(root, INDEX_DIR, `${key}.json`);
  try {
    const st = lstatSync(file, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > MAX_ENTRY_BYTES) return null;
    const v: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isEntry(v) && v.key === key && v.build === build ? v : null;
  } catch {
    return null;
  }
}

/**
 * Write an entry (temp file + rename: a reader sees the old entry or the new one), then drop all but
 * the newest KEEP. Never throws: a read-only repository, a full disk or a .aureus that is a link or
 * a file leave the index as it was, and the run goes on (the index only saves time).
 */
export function writeEntry(root: string, entry: IndexEntry): boolean {
  const dir = path.join(root, INDEX_DIR);
  if (!realFolder(path.join(root, AUREUS_DIR)) || !realFolder(dir)) return false;
  const file = path.join(dir, `${entry.key}.json`);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(entry) + '\n', { flag: 'wx' });
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
  prune(dir);
  return true;
}

/** A folder that is not a link (made when missing): the index is never written through a link out of the repository. */
function realFolder(dir: string): boolean {
  try {
    const st = lstatSync(dir, { throwIfNoEntry: false });
    if (!st) mkdirSync(dir);
    else if (!st.isDirectory()) return false;
    return true;
  } catch {
    return false;
  }
}

/**
 * Keep the KEEP newest entries, and remove the temp files of writes a kill cut short (Ctrl-C, SIGKILL
 * between write and rename) once they are older than any write in progress could be.
 */
function prune(dir: string): void {
  try {
    const names = readdirSync(dir);
    const entries = names
      .filter((n) => /^[0-9a-f]{64}\.json$/.test(n))
      .map((n) => ({ n, t: lstatSync(path.join(dir, n)).mtimeMs }))
      .sort((a, b) => b.t - a.t || (a.n < b.n ? -1 : 1));
    for (const e of entries.slice(KEEP)) rmSync(path.join(dir, e.n), { force: true });
    const stale = Date.now() - STALE_TEMP_MS;
    for (const n of names) if (/^[0-9a-f]{64}\.json\.\d+\.tmp$/.test(n) && lstatSync(path.join(dir, n)).mtimeMs < stale) rmSync(path.join(dir, n), { force: true });
  } catch {
    // Another process pruned first, or the folder went: nothing to keep tidy.
  }
}

function isEntry(v: unknown): v is IndexEntry {
  if (!isRecord(v) || v.format !== INDEX_FORMAT || typeof v.build !== 'string' || typeof v.key !== 'string' || !HEX64.test(v.key)) return false;
  if (!Array.isArray(v.canonical) || !v.canonical.every((x) => typeof x === 'boolean')) return false;
  const d = v.diagnostics;
  if (!isRecord(d) || !(['load', 'expressions', 'constraints'] as const).every((k) => Array.isArray(d[k]) && (d[k] as unknown[]).every(isWarning))) return false;
  return v.hashes === undefined || isHashes(v.hashes);
}

function isHashes(h: unknown): boolean {
  if (!isRecord(h) || typeof h.flat !== 'string' || !HEX64.test(h.flat) || !Array.isArray(h.lists)) return false;
  return h.lists.every((l) => isRecord(l) && Array.isArray(l.path) && l.path.every((k) => typeof k === 'string') && Array.isArray(l.digests) && l.digests.every((x) => typeof x === 'string' && HEX64.test(x)));
}

/** A diagnostic as the checks make them, and not an error (an entry is only written for a valid world). */
function isWarning(d: unknown): d is Diagnostic {
  if (!isRecord(d) || typeof d.code !== 'string' || !/^AUR\d{4}$/.test(d.code) || typeof d.message !== 'string') return false;
  if (d.severity !== 'warning' && d.severity !== 'info') return false;
  const optional: [string, string][] = [['file', 'string'], ['pointer', 'string'], ['hint', 'string'], ['line', 'number'], ['column', 'number']];
  return optional.every(([k, t]) => d[k] === undefined || typeof d[k] === t);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
