import fs from 'node:fs';
import path from 'node:path';
import { appendWhole, writeAtomic } from '../store/atomic-write.js';
import { round } from '../core/json.js';
import { canonicalCompact } from '../core/json.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { LLM_ROLES, type LlmRole } from '../ports/llm.js';
import { parseJsonTextSafe } from '../store/read.js';
import { readRegularFileSync, RegularFileError } from '../store/regular-file.js';
import { maxFileBytes } from '../store/file-cap.js';
import { AureusError, ExitCode } from '../errors.js';
import { compareText } from '../core/text-order.js';

/**
 * The run log: one JSON line per provider call (re-asks and cache hits included) in the
 * episode's run_log.jsonl. It is the only place latencies and costs are written; deterministic
 * providers record latency 0 so the committed file is byte-identical between runs. Lines are
 * appended as calls finish (so a crash keeps them), and `finalize()` rewrites the file in a
 * canonical order, so concurrency never changes its bytes.
 */
export interface RunLogEntry {
  role: LlmRole;
  model: string;
  provider: string;
  episode?: string;
  scene?: string;
  label?: string;
  /** The stage's attempt number (regeneration), from request meta. */
  attempt: number;
  /** 0 for the first ask, 1.. for JSON re-asks within one complete(). */
  reask: number;
  escalated: boolean;
  latency_ms: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  cost_usd: number;
  /** Answered from the record/replay cache; absent in the committed copy (see pipeline/run-stage-h.ts). */
  cached?: boolean;
  stop_reason: string;
  /** Set when the call failed: the diagnostic code (AUR42xx/AUR43xx). */
  error?: string;
}

export interface RunLogSink {
  append(entry: RunLogEntry): void;
  /**
   * The line of an answer replayed from the run's call journal, appended only if the log lacks it:
   * the answer's journal file is written before its line, so a kill between them (SIGKILL, a power
   * cut) left that paid call out of the log. A line already there is not written again (`aureus
   * cost` of the run counted a replayed answer twice). Sinks without a log on disk leave it out.
   */
  appendMissing?(entry: RunLogEntry): void;
}

/** Keeps entries in memory (tests, `--no-commit` dry runs). */
export class MemoryRunLog implements RunLogSink {
  readonly entries: RunLogEntry[] = [];
  append(entry: RunLogEntry): void {
    this.entries.push(entry);
  }
}

/** Appends JSON lines to a file, in call order; `finalize()` rewrites it sorted. */
export class JsonlRunLog implements RunLogSink {
  readonly file: string;
  readonly entries: RunLogEntry[] = [];
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown;
  /** The lines already in the file, for appendMissing: read at its first call. */
  private before: Map<string, number> | undefined;

  constructor(file: string) {
    this.file = file;
  }

  append(entry: RunLogEntry): void {
    this.entries.push(entry);
    const line = canonicalCompact(entry) + '\n';
    this.chain = this.chain.then(async () => {
      try {
        await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
        await appendWhole(this.file, line);
      } catch (e) {
        this.failure ??= e;
      }
    });
  }

  /**
   * RunLogSink.appendMissing. The lines the file held when first asked, each claimable once: two
   * replayed answers logged alike (the same call's two attempts) need two lines there, not one.
   */
  appendMissing(entry: RunLogEntry): void {
    const line = canonicalCompact(entry);
    this.before ??= countLines(readRunLog(this.file).entries);
    const left = this.before.get(line) ?? 0;
    if (left > 0) this.before.set(line, left - 1);
    else this.append(entry);
  }

  /** Wait for pending appends. Throws the first write error, if any. */
  async flush(): Promise<void> {
    await this.chain;
    if (this.failure) throw this.failure;
  }

  /** Rewrite the file (atomically) with every line ever appended to it, in canonical order. */
  async finalize(): Promise<RunLogEntry[]> {
    await this.flush();
    const { entries, unreadable } = readRunLog(this.file);
    const sorted = sortRunLog(entries);
    // A line that is no entry is kept, after the others: dropped here, its call would go uncounted,
    // silently, by the commit and `aureus cost` alike (audit k, D9).
    const kept = [...sorted.map((e) => canonicalCompact(e)), ...unreadable.map((u) => u.text)];
    await writeAtomic(this.file, kept.map((l) => l + '\n').join(''));
    return sorted;
  }
}

/** How many times each canonical line occurs. */
function countLines(entries: readonly RunLogEntry[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const e of entries) n.set(canonicalCompact(e), (n.get(canonicalCompact(e)) ?? 0) + 1);
  return n;
}

const PHASE: Record<LlmRole, number> = { proposals: 0, director: 1, writer: 2, critic: 2, format_fix: 2, recap: 3 };

/** Canonical order: stage phase, scene, attempt, role, re-ask, then the line itself. */
export function sortRunLog(entries: readonly RunLogEntry[]): RunLogEntry[] {
  const keyed = entries.map((e) => ({ e, s: canonicalCompact(e) }));
  keyed.sort(
    (a, b) =>
      compareText(a.e.episode ?? '', b.e.episode ?? '') ||
      PHASE[a.e.role] - PHASE[b.e.role] ||
      compareText(a.e.scene ?? '', b.e.scene ?? '') ||
      a.e.attempt - b.e.attempt ||
      LLM_ROLES.indexOf(a.e.role) - LLM_ROLES.indexOf(b.e.role) ||
      compareText(a.e.label ?? '', b.e.label ?? '') ||
      a.e.reask - b.e.reask ||
      (a.s < b.s ? -1 : a.s > b.s ? 1 : 0),
  );
  return keyed.map((k) => k.e);
}

/**
 * The episode's calls as its commit records them (run_log.jsonl in the episode folder), as canonical
 * lines: canonical order; calls aborted by Ctrl-C (AUR4205) dropped, being artifacts of the
 * interruption, not of the episode; the `cached` flag removed, so a recorded run and its replay
 * commit the same file; and a line repeated (a call redone after a crash, or the planning calls a
 * second `episode plan` of the same run journals again) once. Stage H writes these; the review
 * view counts them, so "cost so far" is what the commit will say.
 */
export function committedRunLogLines(entries: readonly RunLogEntry[]): string[] {
  const kept = sortRunLog(entries.filter((e) => e.error !== 'AUR4205'));
  return [...new Set(kept.map(({ cached: _cached, ...e }) => canonicalCompact(e)))];
}

/**
 * The answers of the committed lines (committedRunLogLines: the same calls) that came from the
 * response cache, and what they cost when they were recorded: the commit drops the `cached` flag,
 * so this is read from the run folder's log, for the run's summary ("60 answers from the cache").
 * A call logged more than once (redone after a crash) counts as cached only if every one of its
 * lines was a cache hit: one answered by the provider was charged.
 */
export function cachedAnswers(entries: readonly RunLogEntry[]): { answers: number; cost_usd: number } {
  const byLine = new Map<string, { cached: boolean; cost: number }>();
  for (const { cached, ...e } of entries.filter((x) => x.error !== 'AUR4205')) {
    const line = canonicalCompact(e);
    const seen = byLine.get(line);
    byLine.set(line, { cached: Boolean(cached) && (seen?.cached ?? true), cost: e.cost_usd });
  }
  const hits = [...byLine.values()].filter((v) => v.cached);
  return { answers: hits.length, cost_usd: round(hits.reduce((n, v) => n + v.cost, 0), 6) };
}

/** The counts `aureus cost` sums: a line without one as a number would garble every total. */
const COUNTS = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'cost_usd', 'latency_ms'] as const;

/** A non-blank line of a run log that is not an entry, as it is in the file (1-based `line`). */
export interface UnreadableRunLogLine {
  line: number;
  text: string;
}

/**
 * A run log is read whole, so it has a bound: far above any run's (a line is ~300 bytes), and never
 * below the world files' cap (AUREUS_MAX_FILE_BYTES), so raising that cap raises this one too.
 */
const RUN_LOG_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The run log's text, or '' when there is none. Read through the store's non-blocking, bounded
 * reader (store/regular-file.ts): fs.readFileSync waited forever in open() on a FIFO put in the
 * log's place (`aureus cost`, `episode review`, a run's commit, a play session's resume hung past
 * Ctrl-C), and read a file of any size whole. Anything but a regular file within the bound is
 * AUR1008 (exit 3) naming the file (`rel`, as the user knows it) and why.
 */
function runLogText(file: string, rel: string): string {
  try {
    return readRegularFileSync(file, Math.max(RUN_LOG_MAX_BYTES, maxFileBytes()));
  } catch (e) {
    if (!(e instanceof RegularFileError)) throw e;
    if (e.code === 'ENOENT') return '';
    throw new AureusError(`cannot read ${rel}: ${e.reason}`, { exitCode: ExitCode.INVALID_WORLD, diagnostics: [diag('AUR1008', { file: rel, reason: e.reason }, { file: rel })] });
  }
}

/**
 * Parse a run_log.jsonl: the entries, a diagnostic (line:col, pointer) for each line that is not
 * one, and those lines' text (kept by finalize() and the commit, pipeline/run-log-damage.ts). A
 * missing log has no entries; an unreadable one is AUR1008 (runLogText). `rel` names the file in that error.
 */
export function readRunLog(file: string, rel: string = file): { entries: RunLogEntry[]; diagnostics: Diagnostic[]; unreadable: UnreadableRunLogLine[] } {
  const entries: RunLogEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  const unreadable: UnreadableRunLogLine[] = [];
  const lines = runLogText(file, rel).split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const problems = entryProblems(line, file, i + 1);
    if (Array.isArray(problems)) {
      diagnostics.push(...problems);
      unreadable.push({ line: i + 1, text: line });
    } else entries.push(problems);
  });
  return { entries, diagnostics, unreadable };
}

/** One non-blank line: its entry, or its problems at `lineNo` (syntax first, then role, model and the counts). */
function entryProblems(line: string, file: string, lineNo: number): RunLogEntry | Diagnostic[] {
  const r = parseJsonTextSafe(line, file);
  if (!r.ok) return r.diagnostics.map((d) => diag('AUR4402', { detail: d.message }, { file, line: lineNo, column: d.column ?? 1 }));
  const v = r.value as Record<string, unknown> | null;
  if (!v || typeof v !== 'object' || Array.isArray(v) || !LLM_ROLES.includes(v.role as LlmRole) || typeof v.model !== 'string') {
    return [diag('AUR4402', { detail: 'not a run log entry' }, { file, line: lineNo, column: 1 })];
  }
  const bad = COUNTS.filter((k) => typeof v[k] !== 'number' || !Number.isFinite(v[k]) || (v[k] as number) < 0);
  const at = (k: string) => ({ file, pointer: `/${k}`, line: lineNo, column: r.locate?.(`/${k}`)?.column ?? 1 });
  const shown = (k: string) => (k in v ? JSON.stringify(v[k]) : 'missing');
  return bad.length ? bad.map((k) => diag('AUR4402', { detail: `${k} must be a number >= 0, not ${shown(k)}` }, at(k))) : (v as unknown as RunLogEntry);
}

export interface RoleTotals {
  calls: number;
  cached: number;
  failed: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  cost_usd: number;
  latency_ms: number;
}

export interface RunLogSummary {
  per_role: Partial<Record<LlmRole, RoleTotals>>;
  per_model: Record<string, RoleTotals>;
  total: RoleTotals;
}

function emptyTotals(): RoleTotals {
  return { calls: 0, cached: 0, failed: 0, input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, cost_usd: 0, latency_ms: 0 };
}

function add(t: RoleTotals, e: RunLogEntry): void {
  t.calls += 1;
  if (e.cached) t.cached += 1;
  if (e.error) t.failed += 1;
  t.input_tokens += e.input_tokens;
  t.output_tokens += e.output_tokens;
  t.cache_read_tokens += e.cache_read_tokens;
  t.cache_write_tokens += e.cache_write_tokens;
  t.cost_usd = round(t.cost_usd + e.cost_usd, 6);
  t.latency_ms += e.latency_ms;
}

/** Totals per role, per model and overall (the episode summary and `aureus cost`). */
export function summarizeRunLog(entries: readonly RunLogEntry[]): RunLogSummary {
  const per_role: Partial<Record<LlmRole, RoleTotals>> = {};
  const per_model: Record<string, RoleTotals> = {};
  const total = emptyTotals();
  for (const e of entries) {
    add((per_role[e.role] ??= emptyTotals()), e);
    add((per_model[e.model] ??= emptyTotals()), e);
    add(total, e);
  }
  return { per_role, per_model, total };
}
