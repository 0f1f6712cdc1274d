import fs from 'node:fs';
import { Chalk, type ChalkInstance } from 'chalk';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { capPerFile } from '../diagnostics/cap.js';
import { escapeControl, redactSecrets, secretsOf } from '../diagnostics/sanitize.js';

/**
 * Everything a command writes goes through an Io, so commands run in-process in tests
 * (capturing output) exactly as they run from the terminal.
 */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  isTTY: boolean;
}

export function processIo(): Io {
  return {
    stdout: writeStdout,
    stderr: (t) => void process.stderr.write(t),
    env: process.env,
    cwd: process.cwd(),
    isTTY: Boolean(process.stdout.isTTY),
  };
}

let stdoutFile: boolean | undefined;
let stdoutBroken = false;

/**
 * process.stdout.write, but whole when stdout is a regular file (`> st.json`). Node writes to a file
 * with one write(2) and ignores a short count: under `ulimit -f 4` (or a nearly full disk) the
 * output was cut at 4096 bytes and the command exited 0. Here the rest is written until it is all
 * out, so the limit shows as an error (EFBIG, ENOSPC), which is emitted on process.stdout for the
 * executable's handler (bin/aureus.js: AUR1053, exit 11), as a failed write to a pipe is.
 */
function writeStdout(text: string): void {
  if (stdoutFile === undefined) {
    try {
      stdoutFile = fs.fstatSync(1).isFile();
    } catch {
      stdoutFile = false;
    }
  }
  if (!stdoutFile) {
    process.stdout.write(text);
    return;
  }
  if (stdoutBroken) return; // said once; the rest of the output is lost anyway
  let rest = Buffer.from(text, 'utf8');
  try {
    while (rest.length) {
      const n = fs.writeSync(1, rest);
      if (n <= 0) throw Object.assign(new Error('short write: the file took no more bytes'), { code: 'EIO' });
      rest = rest.subarray(n);
    }
  } catch (e) {
    stdoutBroken = true;
    process.stdout.emit('error', e);
  }
}

/**
 * What bin/aureus.js does when the reader of stdout or stderr closes its pipe early (EPIPE), read
 * there through this global key (the executable is not part of the bundle). Unset (start-up, help,
 * a command whose whole job is its output): it exits at once with the code so far, as `status |
 * head` always did: the reader has what it wanted. 'keep-working': a command that does work (an
 * episode run, a commit, `play`, `init`…) goes on to its end with what it writes to the closed
 * stream dropped, and exits with the work's own code; before, it exited 0 mid-work, an episode run
 * uncommitted and a season cut short without a word (README "Exit codes").
 */
export const CLOSED_PIPE_KEY = Symbol.for('aureus.closedPipe');

/** The commands whose whole job is their output: closing their pipe early ends them (`export` only to stdout). */
const OUTPUT_ONLY = new Set(['status', 'recap', 'diff', 'query', 'cost', 'validate', 'export', 'session list', 'session show', 'episode review', 'scene verify']);

/** Called as a command's action starts: what a closed pipe does to it (CLOSED_PIPE_KEY). */
export function declareClosedPipePolicy(names: string[], opts: { output?: unknown; restore?: unknown }): void {
  const name = names.join(' ');
  // `export -o` writes a file and `episode review --restore` the staged files: work, not output.
  const outputOnly = OUTPUT_ONLY.has(name) && !(name === 'export' && opts.output !== undefined && opts.output !== '-') && !opts.restore;
  (process as unknown as Record<symbol, unknown>)[CLOSED_PIPE_KEY] = outputOnly ? undefined : 'keep-working';
}

/** Colours only on a TTY, never with NO_COLOR (https://no-color.org) or --no-color. */
export function makeChalk(io: Io, forceOff = false): ChalkInstance {
  const off = forceOff || 'NO_COLOR' in io.env || !io.isTTY;
  const forced = io.env.FORCE_COLOR && io.env.FORCE_COLOR !== '0';
  return new Chalk({ level: off && !forced ? 0 : 1 });
}

/**
 * An Io whose every write has the environment's secrets redacted (issue 12): whatever a command,
 * a provider or a server puts in a message, the API key never reaches the terminal or a pipe.
 */
export function redactingIo(io: Io): Io {
  const secrets = secretsOf(io.env);
  const clean = (t: string) => redactSecrets(t, secrets);
  return { ...io, stdout: (t) => io.stdout(clean(t)), stderr: (t) => io.stderr(clean(t)) };
}

export function formatDiagnostic(raw: Diagnostic, c: ChalkInstance): string {
  // Messages quote ids, names and server text: their control characters are shown, not obeyed.
  const e = (t: string | undefined) => (t === undefined ? undefined : escapeControl(t));
  const d: Diagnostic = { ...raw, message: e(raw.message)!, hint: e(raw.hint), file: e(raw.file), pointer: e(raw.pointer) };
  // A syntax error has line:col in its file; an expression diagnostic has a JSON pointer to the
  // expression string plus the column inside that string, shown as "/…/expr:7".
  // A schema or reference error has both: "world/characters.json:12:7 /characters/2/name".
  const col = d.column !== undefined ? `:${d.column}` : '';
  const lineCol = d.line !== undefined ? `:${d.line}:${d.column ?? 1}` : '';
  const pointer = d.pointer !== undefined ? ` ${d.pointer || '/'}${d.line === undefined ? col : ''}` : '';
  const where = lineCol + pointer;
  const sev = d.severity === 'error' ? c.red('error') : d.severity === 'warning' ? c.yellow('warning') : c.cyan('info');
  // Without a file (grouped under a file heading) the location still shows: "12:5: " or "/a/0/b: ".
  const loc = d.file ? c.bold(d.file) + where + ': ' : where ? where.replace(/^[ :]/, '') + ': ' : '';
  let s = `${loc}${sev} ${c.dim(d.code)} ${d.message}\n`;
  if (d.hint) s += `  ${c.dim('hint:')} ${d.hint}\n`;
  return s;
}

/**
 * Diagnostics grouped by file, files in name order, stable within a file; past the first
 * MAX_DIAGNOSTICS_PER_FILE of a file, one "… and N more problems" line (diagnostics/cap.ts).
 */
export function formatDiagnostics(ds: Diagnostic[], c: ChalkInstance): string {
  const groups = new Map<string, Diagnostic[]>();
  for (const d of capPerFile(ds)) {
    const k = d.file ?? '';
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(d);
  }
  let out = '';
  for (const file of [...groups.keys()].sort()) {
    if (file) out += `\n${c.underline(file)}\n`;
    for (const d of groups.get(file)!) out += formatDiagnostic({ ...d, file: undefined }, c).replace(/^/gm, '  ').replace(/^  $/gm, '');
  }
  return out;
}

/**
 * Every `--json` document a command prints on success (a failure's one-line `{"error": …}` is
 * error-json.ts's): two-space indented, one trailing newline, and keys in the order the command
 * builds its object: the order nineteen commands always printed. `validate`, `init` and `episode
 * plan` printed sorted keys until they came here (validate's and init's top-level keys are built in
 * their old order; nested objects and plan's keys now read in the order they are built). One
 * helper, so the commands cannot drift apart again.
 */
export function printJson(io: Io, value: unknown): void {
  io.stdout(JSON.stringify(value, null, 2) + '\n');
}
