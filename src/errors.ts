import type { Diagnostic } from './diagnostics/diagnostic.js';

/**
 * Exit codes (documented in README). Each expected failure maps to one; 1 is reserved for bugs.
 */
export const ExitCode = {
  OK: 0,
  INTERNAL: 1,
  USAGE: 2,
  INVALID_WORLD: 3,
  VERIFY_FAILED: 4,
  BUDGET_EXHAUSTED: 5,
  PLAN_INFEASIBLE: 6,
  PROVIDER: 7,
  DIRTY_WORLD: 8,
  LOCKED: 9,
  GIT: 10,
  /** The file system refused a write (permission, read-only, full, a file where a folder must be), or stdout could not be written. */
  FILESYSTEM: 11,
  INTERRUPTED: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * An expected failure: carries the exit code and the diagnostics to print. The CLI's single
 * error boundary prints these without a stack trace; anything else is an internal error.
 */
export class AureusError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly diagnostics: Diagnostic[];
  readonly hint?: string;
  constructor(message: string, opts: { exitCode: ExitCodeValue; diagnostics?: Diagnostic[]; hint?: string; cause?: unknown }) {
    super(message, opts.cause !== undefined ? { cause: opts.cause } : undefined);
    this.name = 'AureusError';
    this.exitCode = opts.exitCode;
    this.diagnostics = opts.diagnostics ?? [];
    this.hint = opts.hint;
  }
}

export function isAureusError(e: unknown): e is AureusError {
  return e instanceof AureusError;
}
