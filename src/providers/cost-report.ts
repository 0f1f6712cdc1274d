import fs from 'node:fs';
import path from 'node:path';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { episodeIdIfAny } from '../season/episode-id.js';
import { RUNS_DIR, episodeRelDir } from '../paths.js';
import { readRunLog, summarizeRunLog, type RunLogSummary } from './run-log.js';
import { compareText } from '../core/text-order.js';

/**
 * Finding and totalling an episode's run_log.jsonl for `aureus cost`. The target is:
 *   - nothing: the latest committed episode that has a run log, else the latest run folder;
 *   - `s01e03`: that episode's folder, else its newest run folder under .aureus/runs/;
 *   - a folder or a run_log.jsonl file inside the world repository.
 * Paths that leave the repository are refused (usage error).
 */
export interface CostReport {
  /** The run log read, relative to the root. */
  file: string;
  summary: RunLogSummary;
  diagnostics: Diagnostic[];
}

const LOG = 'run_log.jsonl';

function usage(message: string, value: string): AureusError {
  return new AureusError(message, {
    exitCode: ExitCode.USAGE,
    diagnostics: [diag('AUR4003', { flag: 'episode', value, reason: message, expected: 'valid forms: s01e03 | seasons/season_01/episode_03 | .aureus/runs/<run> | <dir>/run_log.jsonl' })],
  });
}

function newestRunDir(root: string, prefix: string): string | undefined {
  const dir = path.join(root, RUNS_DIR);
  if (!fs.existsSync(dir)) return undefined;
  const cands = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name.startsWith(prefix) && fs.existsSync(path.join(dir, d.name, LOG)))
    .map((d) => ({ p: path.join(dir, d.name), t: fs.statSync(path.join(dir, d.name, LOG)).mtimeMs }))
    .sort((a, b) => b.t - a.t || compareText(a.p, b.p));
  return cands[0]?.p;
}

function latestEpisodeDir(root: string): string | undefined {
  const seasons = path.join(root, 'seasons');
  if (!fs.existsSync(seasons)) return undefined;
  const found: string[] = [];
  for (const s of fs.readdirSync(seasons).filter((n) => /^season_\d{2}$/.test(n)))
    for (const e of fs.readdirSync(path.join(seasons, s)).filter((n) => /^episode_\d{2}$/.test(n)))
      if (fs.existsSync(path.join(seasons, s, e, LOG))) found.push(path.join(seasons, s, e));
  return found.sort().at(-1);
}

export function locateRunLog(root: string, target?: string): string {
  if (target === undefined || target === '') {
    const dir = latestEpisodeDir(root) ?? newestRunDir(root, '');
    if (!dir) throw new AureusError('no run log found in this world', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR4401', { file: 'seasons/*/*/' + LOG })] });
    return path.join(dir, LOG);
  }
  const ref = episodeIdIfAny(target);
  if (ref) {
    const committed = path.join(root, episodeRelDir(ref), LOG);
    if (fs.existsSync(committed)) return committed;
    const run = newestRunDir(root, `${ref.id}-`);
    if (run) return path.join(run, LOG);
    throw new AureusError(`no run log for ${ref.id}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR4401', { file: path.posix.join(episodeRelDir(ref), LOG) })] });
  }
  if (target.includes('\0')) throw usage('the episode name contains a NUL byte', target.replace(/\0/g, '\\0'));
  const abs = path.resolve(root, target);
  const rel = path.relative(root, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw usage(`"${target}" is outside the world repository`, target);
  const file = fs.existsSync(abs) && fs.statSync(abs).isDirectory() ? path.join(abs, LOG) : abs;
  if (!fs.existsSync(file)) {
    throw new AureusError(`no run log at ${path.relative(root, file)}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR4401', { file: path.relative(root, file) })] });
  }
  return file;
}

export function costReport(root: string, target?: string): CostReport {
  const file = locateRunLog(root, target);
  const rel = path.relative(root, file).split(path.sep).join('/');
  const { entries, diagnostics } = readRunLog(file, rel);
  const located = diagnostics.map((d) => ({ ...d, file: rel }));
  // A malformed line is an error, never skipped: a total without it would be silently wrong.
  if (located.some((d) => d.severity === 'error')) {
    const lines = new Set(located.map((d) => d.line)).size; // a line can have several problems
    throw new AureusError(`${rel} has ${lines} invalid line${lines === 1 ? '' : 's'}`, { exitCode: ExitCode.INVALID_WORLD, diagnostics: located });
  }
  return { file: rel, summary: summarizeRunLog(entries), diagnostics: located };
}
