import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';

/** Real temp world repositories for the pipeline and season tests (issue 7). */
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(REPO, 'bin/aureus.js');

const made: string[] = [];
export function cleanup(): void {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

export function tempDir(label: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `aureus-${label}-`));
  made.push(d);
  return d;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI in-process with a non-TTY Io (plain progress lines), offline (no API key in env). */
export async function cli(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: Io = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: { NO_COLOR: '1', ...env }, cwd, isTTY: false };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

export { git } from '../support/git-repo.js';

/** A fresh world repository made by `aureus init` (starter kit, first commit). */
export async function makeWorld(label: string): Promise<string> {
  const parent = tempDir(label);
  const r = await cli(['init', 'w'], parent);
  if (r.code !== 0) throw new Error(`aureus init failed: ${r.stderr}`);
  return path.join(parent, 'w');
}

/** Edit a JSON file of a repository in place (read, change, write back pretty-printed): a hand edit. */
export function editJson(root: string, rel: string, fn: (v: any) => void): void {
  const file = path.join(root, rel);
  const v = JSON.parse(fs.readFileSync(file, 'utf8'));
  fn(v);
  fs.writeFileSync(file, JSON.stringify(v, null, 2) + '\n');
}

/** A full copy of a repository (working tree, .git, .aureus). */
export function copyRepo(src: string, label: string): string {
  const dst = path.join(tempDir(label), 'w');
  fs.cpSync(src, dst, { recursive: true });
  return dst;
}

/**
 * Run the built CLI as a child process (needs `npm run build`), resolving with exit code or signal.
 * An ANTHROPIC_API_KEY of the test's own environment is not passed on (`auto` would pick a real
 * provider); one in `env` is (a test's fake Messages API server).
 */
export function spawnCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, onSpawn?: (pid: number) => void): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete childEnv.ANTHROPIC_API_KEY;
    Object.assign(childEnv, env);
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    if (child.pid) onSpawn?.(child.pid);
  });
}

export const builtCli = (): boolean => fs.existsSync(path.join(REPO, 'dist/cli/main.js'));
