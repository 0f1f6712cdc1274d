import path from 'node:path';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import type { UnreadableRunLogLine } from '../providers/run-log.js';

/**
 * The lines of a run folder's run_log.jsonl that are not run log entries (readRunLog's AUR4402: a
 * line cut short, garbled, or edited by hand), as the commit deals with them (audit k, D9). Before,
 * stage H committed the readable lines alone and totalled them into the Aureus-Tokens and
 * Aureus-Cost trailers: the calls on a damaged line vanished from the episode's record and its cost.
 * Now each is named at commit time (AUR4499, file:line:column and what is wrong), the trailers say
 * their figures are a lower bound, and the committed log keeps the line as it was, so that
 * `aureus cost` of the committed episode refuses to total it (AUR4402) as it did the run folder's.
 */
export interface RunLogDamage {
  lines: UnreadableRunLogLine[];
  /** One AUR4499 per line (its problems joined), located in the run folder's log. */
  warnings: Diagnostic[];
}

/**
 * `read`: readRunLog's answer; `rel`: the file as the warning names it (repository-relative);
 * `hint`: the reader's own, where the commit's (the trailers, `aureus cost` of the episode) is not
 * what happens next (a play session's log).
 */
export function runLogDamage(read: { diagnostics: readonly Diagnostic[]; unreadable: UnreadableRunLogLine[] }, rel: string, episode: string, hint?: string): RunLogDamage {
  const warnings = read.unreadable.map(({ line }) => {
    const ds = read.diagnostics.filter((d) => d.line === line);
    const detail = ds.map((d) => d.message.replace(/^invalid run log line: /, '')).join('; ');
    return diag('AUR4499', { file: rel, line, detail, episode }, { file: rel, line, column: ds[0]?.column ?? 1, ...(hint ? { hint } : {}) });
  });
  return { lines: read.unreadable, warnings };
}

/** What the trailers add when some lines were not counted. */
export function lowerBoundNote(damage: RunLogDamage): string {
  const n = damage.lines.length;
  return `a lower bound: ${n} run log line${n === 1 ? '' : 's'} could not be read`;
}

/** The run folder's log file as the commit's warnings name it. */
export function runLogRel(runRel: string): string {
  return path.posix.join(runRel, 'run_log.jsonl');
}
