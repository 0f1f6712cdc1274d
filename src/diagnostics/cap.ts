import { diag } from './catalog.js';
// AUR7009's entry: this module is loaded by the CLI's printing without the whole catalog (index.ts).
import './codes/cli.js';
import type { Diagnostic, DiagnosticSeverity } from './diagnostic.js';

/**
 * At most this many diagnostics of one file are listed; the rest become one AUR7009 line "… and N
 * more problems in <file>". A legal 2.5 MB world file with 150,000 unknown keys printed 20 MB of
 * diagnostics: nobody reads past the first screen, and the fix of the first few (a pasted block,
 * a renamed key) usually fixes the rest.
 */
export const MAX_DIAGNOSTICS_PER_FILE = 50;

const SUMMARY = 'AUR7009';
const SEVERITIES: readonly DiagnosticSeverity[] = ['error', 'warning', 'info'];

type Counts = Record<DiagnosticSeverity, number>;

/** How many diagnostics `d` stands for, by severity: itself, or those a summary left out. */
function countsOf(d: Diagnostic): Partial<Counts> {
  return d.code === SUMMARY && d.omitted ? d.omitted : { [d.severity]: 1 };
}

/**
 * The first `max` diagnostics of each file (a diagnostic without a file counts under ''), in their
 * order, then per file that had more one summary saying how many were left out, by severity (in
 * `omitted`), with the worst of their severities. A summary in the input is merged into the new
 * one, so capping a capped list changes nothing.
 */
export function capPerFile(ds: readonly Diagnostic[], max = MAX_DIAGNOSTICS_PER_FILE): Diagnostic[] {
  const kept = new Map<string, number>();
  const omitted = new Map<string, Counts>();
  const out: Diagnostic[] = [];
  for (const d of ds) {
    const file = d.file ?? '';
    const n = kept.get(file) ?? 0;
    if (d.code !== SUMMARY && n < max) {
      kept.set(file, n + 1);
      out.push(d);
      continue;
    }
    let o = omitted.get(file);
    if (!o) omitted.set(file, (o = { error: 0, warning: 0, info: 0 }));
    for (const [s, k] of Object.entries(countsOf(d)) as [DiagnosticSeverity, number][]) o[s] += k;
  }
  for (const [file, o] of omitted) out.push(summary(file, o, max));
  return out;
}

function summary(file: string, o: Counts, max: number): Diagnostic {
  const total = o.error + o.warning + o.info;
  const severity = SEVERITIES.find((s) => o[s] > 0) ?? 'info';
  const breakdown = SEVERITIES.filter((s) => o[s] > 0).map((s) => `${o[s]} ${s}${o[s] === 1 ? '' : 's'}`).join(', ');
  const where = file ? ` in ${file}` : '';
  const d = diag(SUMMARY, { count: total, problems: total === 1 ? 'problem' : 'problems', where, max, breakdown }, { severity, ...(file ? { file } : {}) });
  d.omitted = Object.fromEntries(SEVERITIES.filter((s) => o[s] > 0).map((s) => [s, o[s]]));
  return d;
}

/** Errors, warnings and infos among `ds`, counting those a summary left out. */
export function severityCounts(ds: readonly Diagnostic[]): Counts {
  const c: Counts = { error: 0, warning: 0, info: 0 };
  for (const d of ds) for (const [s, k] of Object.entries(countsOf(d)) as [DiagnosticSeverity, number][]) c[s] += k;
  return c;
}
