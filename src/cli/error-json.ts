import { isAureusError } from '../errors.js';
import { capPerFile } from '../diagnostics/cap.js';
import type { Io } from './io.js';

/**
 * A failed command's error as JSON, for `--json`: what failed, its exit code and the codes of its
 * diagnostics. The diagnostics themselves still go to stderr, as without --json; this is what a CI
 * job reading stdout gets instead of nothing. Kept apart from the commands so the CLI's error
 * boundary (main.ts) can print it without loading any command module.
 */
export function errorJson(e: unknown): { message: string; exit_code: number; codes: string[] } {
  // The codes of the diagnostics stderr lists: past a file's first 50, its AUR7009 line (diagnostics/cap.ts).
  if (isAureusError(e)) return { message: e.message, exit_code: e.exitCode, codes: capPerFile(e.diagnostics).map((d) => d.code) };
  return { message: e instanceof Error ? e.message : String(e), exit_code: 1, codes: [] };
}

/**
 * With --json, a failed command still answers on stdout: `{error, ...fields}` (errorJson), on one
 * line: valid JSON for a reader of one document (and for play's JSON Lines when it fails before
 * its first event).
 */
export function printErrorJson(io: Pick<Io, 'stdout'>, e: unknown, fields: Record<string, unknown> = {}): void {
  io.stdout(JSON.stringify({ error: errorJson(e), ...fields }) + '\n');
}

/**
 * `play --json` failed after it wrote events: the failure as the stream's last event,
 * `{"type": "error", ...errorJson}` (the same fields as the document above), so a reader of the
 * JSON Lines sees why the session stopped instead of only a missing `done`; `fields` adds what
 * the command knows beside it (play: the session's id).
 */
export function printErrorEvent(io: Pick<Io, 'stdout'>, e: unknown, fields: Record<string, unknown> = {}): void {
  io.stdout(JSON.stringify({ type: 'error', ...errorJson(e), ...fields }) + '\n');
}
