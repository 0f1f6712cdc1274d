import path from 'node:path';
import type { ChalkInstance } from 'chalk';
import type { Io } from './io.js';

/** What every command receives: the resolved world repository root and the output channel. */
export interface CommandContext {
  io: Io;
  /** Absolute path of the world repository (global -C <dir>, default cwd). */
  root: string;
  chalk: ChalkInstance;
  debug: boolean;
  /** Set exit.code for a normal finish with a non-zero status (e.g. validate found errors). */
  exit: { code: number };
}

export function resolveRoot(io: Io, dir: string | undefined): string {
  return path.resolve(io.cwd, dir ?? '.');
}
