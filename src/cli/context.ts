import fs from 'node:fs';
import path from 'node:path';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/catalog.js';
import '../diagnostics/codes/cli.js';
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
  /** The folder aureus was started in, when -C moved io.cwd to the repository (init echoes paths from it). */
  shellCwd?: string;
}

/**
 * The world root for -C <dir>. A -C that names an existing non-directory is a usage error here,
 * before any command touches it (git would otherwise fail later with a confusing "git error").
 */
export function resolveRoot(io: Io, dir: string | undefined, opts: { mayCreate?: boolean } = {}): string {
  const root = path.resolve(io.cwd, dir ?? '.');
  if (dir !== undefined) {
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(root);
    } catch {
      st = undefined;
    }
    // A missing directory is a usage error too (not a later "git error"), except for the commands
    // that create their target (init, import).
    if (!st && !opts.mayCreate) {
      throw new AureusError(`-C ${dir}: no such directory`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7006', { dir: root, reason: 'no such directory' })] });
    }
    if (st && !st.isDirectory()) {
      throw new AureusError(`-C ${dir}: not a directory`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7006', { dir: root, reason: 'not a directory' })] });
    }
  }
  return root;
}
