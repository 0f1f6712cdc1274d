import { AureusError, ExitCode, isAureusError } from '../errors.js';
import { diag } from './catalog.js';
// AUR6008's entry, for a caller that loads this module without the whole catalog (index.ts).
import './codes/commit.js';

/**
 * The one error of an interrupted command (Ctrl-C, SIGTERM, or a git the Ctrl-C stopped): exit 130,
 * AUR6008 "interrupted during <where>". `hint` says what the command left and how to go on, in its
 * own words; without it the catalog's ("nothing was committed; re-run the same command").
 */
export function interruptedDuring(where: string, o: { hint?: string; cause?: unknown } = {}): AureusError {
  return new AureusError(`interrupted during ${where}`, { exitCode: ExitCode.INTERRUPTED, diagnostics: [diag('AUR6008', { where }, o.hint ? { hint: o.hint } : {})], cause: o.cause });
}

/** Whether `e` is that error (a git the Ctrl-C stopped says so too): a command may then say it again with its own hint. */
export function isInterruptedDuring(e: unknown): e is AureusError {
  return isAureusError(e) && e.diagnostics[0]?.code === 'AUR6008';
}
