import fs from 'node:fs';
import { appendWholeSync } from '../store/atomic-write.js';
import path from 'node:path';
import { canonicalCompact } from '../core/json.js';
import type { AureusConfig } from '../config/types.js';
import { formatUsd } from '../core/readable.js';
import { publicProviderId } from '../pipeline/run-stage-h.js';
import { lowerBoundNote, runLogDamage } from '../pipeline/run-log-damage.js';
import { CostGuard } from '../providers/cost-guard.js';
import { openLlm, readRunLog, summarizeRunLog, type OpenedLlm, type RunLogEntry, type RunLogSink } from '../providers/index.js';
import { SESSIONS_DIR } from './store.js';

/**
 * A play session's model calls, accounted as an episode run's are: each call is a line of the
 * session's own run log (`.aureus/sessions/<id>/run_log.jsonl`: role, model, tokens, cost, whether
 * it was a cached answer), which `aureus cost --session <id>` totals; retry waits are told to the
 * player; and a session is the unit of the budgets, across its resumes: `budgets.max_cost_usd`
 * (`--max-cost`) caps what the whole session spends, and `budgets.provider_calls_per_episode` the
 * requests it makes, both counted on from what its run log already holds. Each canonization
 * commit says what the session spent so far (Aureus-Provider, -Tokens, -Cost trailers).
 */
export const sessionRunLogRel = (id: string): string => `${SESSIONS_DIR}/${id}/run_log.jsonl`;

export interface SessionLlm {
  llm: OpenedLlm;
  /** The trailers of a canonization commit: the session's provider, tokens and spend so far. */
  trailers: () => Promise<string[]>;
}

/**
 * The session's run log, each line appended as its call ends. Synchronously: a turn of the offline
 * provider never yields to the event loop, so an asynchronous append could still be waiting when a
 * kill comes, and the resumed session would neither count that spend against --max-cost nor say it
 * in its commits. One short line a call costs nothing measurable.
 */
class SessionRunLog implements RunLogSink {
  constructor(private readonly file: string) {}

  append(entry: RunLogEntry): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    // Whole or not at all (a full disk, a file-size limit): a torn line would read as a corrupt log.
    appendWholeSync(this.file, canonicalCompact(entry) + '\n');
  }
}

export interface SessionLlmOptions {
  root: string;
  config: AureusConfig;
  seed: string;
  session: string;
  /** Retry waits and other notices of the provider, for the player (stderr, or a notice event). */
  onNotice: (text: string) => void;
  /** A warning of the provider (a corrupt cache entry, AUR4302), for the player. */
  onWarning?: (d: import('../diagnostics/index.js').Diagnostic) => void;
}

export function openSessionLlm(o: SessionLlmOptions): SessionLlm {
  const file = path.join(o.root, sessionRunLogRel(o.session));
  const read = sessionRunLog(o, file);
  // What an earlier process of this session already spent and asked: a cached answer costs nothing and asks nobody.
  const before = read().entries.filter((e) => !e.cached);
  const spent = before.reduce((n, e) => n + e.cost_usd, 0);
  const cap = o.config.budgets.max_cost_usd;
  const runLog = new SessionRunLog(file);
  const llm = openLlm({
    root: o.root,
    config: o.config,
    seed: o.seed,
    runLog,
    onNotice: o.onNotice,
    ...(o.onWarning ? { onWarning: o.onWarning } : {}),
    ...(cap !== null ? { costGuard: new CostGuard(cap, spent) } : {}),
    callsUsed: before.filter((e) => e.provider !== 'offline').length,
  });
  return {
    llm,
    trailers: async () => {
      const { entries, note } = read();
      const t = summarizeRunLog(entries).total;
      const so = `the session so far${note ? `; ${note}` : ''}`;
      return [
        `Aureus-Provider: ${publicProviderId(llm.providerId)}`,
        `Aureus-Tokens: ${t.input_tokens + t.output_tokens} (input ${t.input_tokens}, output ${t.output_tokens}, cache read ${t.cache_read_tokens}, cache write ${t.cache_write_tokens}; ${so})`,
        `Aureus-Cost: ${formatUsd(t.cost_usd)} (${so})`,
      ];
    },
  };
}

/**
 * The session's run log read back (on a resume, for its budgets; at each canonization, for the
 * trailers), its damaged lines named as an episode's commit names them (AUR4499, file:line:column;
 * pipeline/run-log-damage.ts), each once per process, through the player's warnings. Before, a line
 * cut short or garbled was dropped without a word: the spend counted against --max-cost and the
 * commits' "so far" were less than the session had spent. `note`: the trailers' "a lower bound".
 */
function sessionRunLog(o: SessionLlmOptions, file: string): () => { entries: RunLogEntry[]; note: string } {
  const rel = sessionRunLogRel(o.session);
  const hint = `the session's canonization commits say its tokens and cost so far as "a lower bound", and --max-cost (budgets.max_cost_usd) counts its spend without that call; \`aureus cost --session ${o.session}\` names the line and prints no total (AUR4402). Lines are appended whole: something else changed the file`;
  const said = new Set<number>();
  return () => {
    const r = readRunLog(file, rel);
    const damage = runLogDamage(r, rel, `play session ${o.session}`, hint);
    damage.warnings.forEach((d, i) => {
      const line = damage.lines[i]!.line;
      if (!said.has(line)) o.onWarning?.(d);
      said.add(line);
    });
    return { entries: r.entries, note: damage.lines.length ? lowerBoundNote(damage) : '' };
  };
}
