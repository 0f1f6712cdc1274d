import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';

/** Shared by the CLI tests: real temp worlds, the CLI run in-process, tree hashes. */

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = path.join(REPO, 'test/fixtures/worlds');

/** The starter kit's world files (relative to the repo root), as `aureus init` copies them. */
const KIT_PARTS = ['world', 'operators', 'style', 'seasons/season_01/season_goals.json'];

/**
 * The world the bad-input scenarios start from: the repository's starter kit when it is there,
 * else the minimal fixture world (which follows the same types).
 */
export function baseWorldDir(): { dir: string; parts: string[]; name: string } {
  if (fs.existsSync(path.join(REPO, 'world/world.json'))) return { dir: REPO, parts: KIT_PARTS, name: 'starter kit' };
  return { dir: path.join(FIXTURES, 'minimal'), parts: KIT_PARTS, name: 'minimal fixture' };
}

export function tempDir(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `aureus-${label}-`));
}

/**
 * Temp directories removed after each test of the file that calls this: `temp(label)` makes one,
 * `keep(dir)` hands over one made otherwise (a packageCopy) and returns it.
 */
export function tempDirsPerTest(): { temp: (label: string) => string; keep: (dir: string) => string } {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  const keep = (dir: string): string => {
    dirs.push(dir);
    return dir;
  };
  return { temp: (label) => keep(tempDir(label)), keep };
}

/** The parts of the built package a CLI run reads (bin, dist, the starter kit, package.json). */
const PACKAGE_PARTS = ['bin', 'dist', 'schemas', 'world', 'operators', 'style', 'seasons', 'data', 'aureus.config.yaml', 'package.json'];

/**
 * A copy of the built package in a temp directory (node_modules linked), to change its dist/
 * without touching the repo's. `preserveTimestamps`: keep the files' mtimes (bin/aureus.js picks the
 * bundle and its code cache by them). The caller removes the directory.
 */
export function packageCopy(label: string, opts: { preserveTimestamps?: boolean } = {}): string {
  const root = tempDir(label);
  for (const part of PACKAGE_PARTS) {
    if (fs.existsSync(path.join(REPO, part))) fs.cpSync(path.join(REPO, part), path.join(root, part), { recursive: true, preserveTimestamps: opts.preserveTimestamps === true });
  }
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
  return root;
}

/** A fresh copy of the base world in a temp directory. */
export function copyBaseWorld(label = 'world'): string {
  const base = baseWorldDir();
  const dir = tempDir(label);
  for (const part of base.parts) fs.cpSync(path.join(base.dir, part), path.join(dir, part), { recursive: true });
  return dir;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the CLI in-process, exactly as bin/aureus.js does, capturing output (no colours). */
export async function runCli(argv: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env: { NO_COLOR: '1', ...opts.env },
    cwd: opts.cwd ?? os.tmpdir(),
    isTTY: false,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** Hash of every path and byte under dir (directories included), to prove nothing was written. */
export function hashTree(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const abs = path.join(d, e.name);
      const rel = path.relative(dir, abs);
      if (e.isDirectory()) {
        h.update(`d ${rel}\0`);
        walk(abs);
      } else {
        h.update(`f ${rel}\0`);
        h.update(fs.readFileSync(abs));
        h.update('\0');
      }
    }
  };
  walk(dir);
  return h.digest('hex');
}

/** A stack trace line ("    at fn (file.js:1:2)") or the internal-error banner. */
export const STACK_TRACE = /^\s+at .+(:\d+:\d+\)?|\(native\))$|internal error/m;
