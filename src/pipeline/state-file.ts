import fs from 'node:fs';
import path from 'node:path';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import '../diagnostics/codes/safety.js';
import { AureusError, ExitCode } from '../errors.js';
import { validatorFor } from '../schemas/validators.js';
import { withLocation } from '../store/load.js';
import { decodeStrictUtf8, parseJsonTextSafe, utf8BreakDiagnostic, utf8Breaks } from '../store/read.js';
import { schemaDiagnostics } from '../store/schema.js';

/**
 * Reading one of Aureus's own state files against its schema: a run folder's commit journal, call
 * journal entries and checkpoints (schemas/run-files.ts), and the review record (review-file.ts).
 * Their readers index fields freely, so a file of another shape (a hand edit, a disk error, an older
 * aureus) must be told apart from a good one here, or it is an internal error later. What a damaged
 * file means is the caller's: a cache is ignored and its work redone, the commit journal and the
 * review record are refused.
 *
 * A file this user may not read is neither: it is the user's environment (AUR1053, exit 11), since
 * the run must read and rewrite its run folder; ignoring it would redo (and, with a paid provider,
 * pay for) work that is on disk.
 */
export type StateProblem = 'folder' | 'unreadable' | 'not-utf8' | 'empty' | 'syntax' | 'shape';
export type StateRead<T> =
  | { ok: true; value: T }
  | { ok: false; missing: true }
  | { ok: false; missing: false; problem: StateProblem; detail: string; diagnostics: Diagnostic[] };

/** What the schema diagnostics' hints point to, unless the caller names it. */
const DOC = 'the run folder of docs/workflow.md';

/** At most this many problems are listed (a file of garbage could have many). */
const MAX_PROBLEMS = 20;

export interface StateReadOptions {
  /** What the schema diagnostics' hints point to. */
  doc?: string;
  /**
   * A file this user may not read: AUR1053 thrown (the default: a run folder's file, which the run
   * must read and rewrite), or reported as a problem of the file (the review record's own error).
   */
  unreadable?: 'throw' | 'report';
}

/**
 * `abs`'s value if it is UTF-8 JSON of the shape of validator `key` (schemas/specs.ts; null: any
 * JSON); `rel` names it in diagnostics. A missing file (or a missing folder on its path) is `missing`;
 * anything else that is not such a value is a problem, with its diagnostics (line:column, pointer).
 * Valid files (the common case) cost one decode, one JSON.parse and one precompiled validation; only
 * a bad one is parsed again for the place of each problem.
 */
export function readStateFile<T>(abs: string, rel: string, key: string | null, opts: StateReadOptions = {}): StateRead<T> {
  const bad = (problem: StateProblem, detail: string, diagnostics: Diagnostic[] = []): StateRead<T> => ({ ok: false, missing: false, problem, detail, diagnostics: diagnostics.slice(0, MAX_PROBLEMS) });
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, missing: true };
    if ((code === 'EACCES' || code === 'EPERM') && opts.unreadable !== 'report') throw unreadableState(abs, e);
    return code === 'EISDIR' ? bad('folder', 'it is a folder, not a file') : bad('unreadable', `it cannot be read (${code ?? (e as Error).message})`);
  }
  const text = decodeStrictUtf8(bytes);
  if (text === null) return bad('not-utf8', 'it is not UTF-8 text', utf8Breaks(bytes).map((b) => utf8BreakDiagnostic(b, rel)));
  const validate = key === null ? null : validatorFor(key);
  try {
    const value = JSON.parse(text) as unknown;
    if (!validate || validate(value)) return { ok: true, value: value as T };
  } catch {
    /* located below */
  }
  const parsed = parseJsonTextSafe(text, rel);
  if (!parsed.ok) return bad(text.trim() === '' ? 'empty' : 'syntax', describe(parsed.diagnostics[0]), parsed.diagnostics);
  const problems = validate ? schemaDiagnostics(validate, parsed.value, rel, opts.doc ?? DOC).map((d) => withLocation(d, parsed.locate)) : [];
  return bad('shape', describe(problems[0]), problems);
}

/** One problem in a line: where (line:col, pointer) and what. */
function describe(d: Diagnostic | undefined): string {
  if (!d) return 'not of its shape';
  const at = [d.line !== undefined ? `${d.line}:${d.column ?? 1}` : '', d.pointer ? `at ${d.pointer}` : ''].filter(Boolean).join(' ');
  return at ? `${at}: ${d.message}` : d.message;
}

/** AUR1053 (exit 11) for a run folder's file this user may not read, naming it and the fix. */
export function unreadableState(abs: string, cause: unknown): AureusError {
  const reason = 'permission denied: this user may not read it, and the run reads and rewrites its run folder';
  const hint = `make it readable and writable by this user (\`chmod u+rw ${abs}\`; \`ls -l ${path.dirname(abs)}\` shows its owner and mode), or run as the user who owns the world`;
  return new AureusError(`cannot read ${abs}`, { exitCode: ExitCode.FILESYSTEM, diagnostics: [diag('AUR1053', { file: abs, reason }, { hint })], cause });
}
