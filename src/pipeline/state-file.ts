import fs from 'node:fs';
import path from 'node:path';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import '../diagnostics/codes/safety.js';
import { AureusError, ExitCode } from '../errors.js';
import { validatorFor } from '../schemas/validators.js';
import { withLocation } from '../store/load.js';
import { parseJsonTextSafe } from '../store/read.js';
import { schemaDiagnostics } from '../store/schema.js';

/**
 * Reading one of a run folder's own JSON files (the commit journal, a call journal entry, a
 * checkpoint) against its schema (schemas/run-files.ts): the readers index their fields freely, so
 * a file of another shape (a hand edit, a disk error, an older aureus) must be told apart from a
 * good one here, or it is an internal error later. What a damaged file means is the caller's: a
 * cache is ignored and its work redone, the commit journal is refused.
 *
 * A file this user may not read is neither: it is the user's environment (AUR1053, exit 11), since
 * the run must read and rewrite its run folder; ignoring it would redo (and, with a paid provider,
 * pay for) work that is on disk.
 */
export type StateRead<T> = { ok: true; value: T } | { ok: false; missing: true } | { ok: false; missing: false; detail: string; diagnostics: Diagnostic[] };

/** What the schema diagnostics' hints point to. */
const DOC = 'the run folder of docs/workflow.md';

/**
 * `abs`'s value if it is JSON of the shape `run/<schema>` (any JSON: null); `rel` names it in diagnostics.
 * Valid files (the common case) cost one JSON.parse and one precompiled validation; only a bad
 * one is parsed again for the line:column of each problem.
 */
export function readStateFile<T>(abs: string, rel: string, schema: string | null): StateRead<T> {
  let text: string;
  try {
    text = fs.readFileSync(abs, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, missing: true };
    if (code === 'EACCES' || code === 'EPERM') throw unreadableState(abs, e);
    const detail = code === 'EISDIR' ? 'it is a folder' : `it cannot be read (${code ?? (e as Error).message})`;
    return { ok: false, missing: false, detail, diagnostics: [] };
  }
  const validate = schema === null ? null : validatorFor(`run/${schema}`);
  try {
    const value = JSON.parse(text) as unknown;
    if (!validate || validate(value)) return { ok: true, value: value as T };
  } catch {
    /* located below */
  }
  const parsed = parseJsonTextSafe(text, rel);
  const diagnostics = parsed.ok && validate ? schemaDiagnostics(validate, parsed.value, rel, DOC).map((d) => withLocation(d, parsed.locate)) : parsed.diagnostics;
  return { ok: false, missing: false, detail: describe(diagnostics[0]), diagnostics };
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
