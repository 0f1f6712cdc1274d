import fs from 'node:fs';
import path from 'node:path';
import type { EpisodeRef } from '../domain/context.js';
import type { ApprovedScene, VerifierReport } from '../domain/scene.js';
import type { World } from '../domain/world.js';
import type { AureusConfig } from '../config/types.js';
import type { LlmRequest } from '../ports/llm.js';
import { canonicalCompact, round } from '../core/json.js';
import { formatUsd } from '../core/readable.js';
import type { JournaledLlm } from './call-journal.js';
import type { PlanningOutput } from './planning-adapter.js';
import { findingCounts, type StageHCheckpoint } from './run-summary.js';
import { stripModelAnswer } from '../diagnostics/model-text.js';
import { recapAnswer } from './recap-call.js';
import { lowerBoundNote, runLogDamage, runLogRel } from './run-log-damage.js';

const RECAP_SYSTEM =
  'You write the "Previously on…" recap of a serialized late-Republic political thriller. Use only the events in the JSON payload ' +
  '(they are the committed state changes, not the prose). Four to eight sentences, present perfect, no invention, no anachronisms. ' +
  'Start with "Previously on <world title>…". Plain text only.';

export interface StageHRunInput {
  ref: EpisodeRef;
  seed: string;
  world: World;
  planning: PlanningOutput;
  /** The committed planning files as the planning checkpoint holds them (null: serialised here). */
  planned: Record<string, string> | null;
  scenes: { scenes: ApprovedScene[]; report: VerifierReport };
  config: AureusConfig;
  llm: JournaledLlm;
  providerId: string;
  runDir: string;
  runRel: string;
  runLogFile: string;
  /** Flushes the run log to its file before it is read back. */
  flushRunLog: () => Promise<void>;
  signal?: AbortSignal;
  /** Throws the "interrupted" error when the run was aborted. */
  check: () => void;
  /** World files with uncommitted edits that the commit carries (--allow-dirty), changed by the episode or not. */
  carried?: string[];
}

/**
 * Stage H inside `episode run`: the committed world, the recap call, the run log in canonical
 * order, and the files and commit message the transaction will write (the stage-h checkpoint).
 */
export async function runStageH(i: StageHRunInput): Promise<StageHCheckpoint> {
  const { stageH, episodeFiles, commitMessage } = await import('../stages/h-commit/index.js');
  const { cachedAnswers, committedRunLogLines, readRunLog, summarizeRunLog } = await import('../providers/index.js');
  const { context, proposals, plan, packets } = i.planning;
  const input = { ref: i.ref, seed: i.seed, world: i.world, context, proposals, plan, packets, scenes: i.scenes.scenes, report: i.scenes.report, runDir: i.runRel };
  const out = stageH(input);
  (await import('../stages/h-commit/hard-constraints.js')).requireHardConstraints(i.world, out.world, i.ref.episode, i.ref.id);
  // Before the recap call: an episode that cannot be committed spends nothing more.
  (await import('../stages/h-commit/valid-world.js')).requireValidWorld(i.world, out.world, i.ref.id, i.runRel);
  const recapRes = await recapAnswer(i.llm, {
    role: 'recap',
    system: RECAP_SYSTEM,
    messages: [{ role: 'user', content: canonicalCompact(out.recap) }],
    max_tokens: i.config.max_tokens.recap,
    payload: out.recap,
    meta: { episode: i.ref.id, label: 'recap' },
    signal: i.signal,
  } as LlmRequest, i.seed);
  i.check();
  // The recap is committed (recap.md, the commit message): no control or bidi characters in it.
  const recapClean = stripModelAnswer(recapRes.text, 'recap', 'text');
  const recap = recapClean.value as string;
  await i.flushRunLog();
  const read = readRunLog(i.runLogFile, runLogRel(i.runRel));
  const logged = read.entries;
  // Lines that are no entries are named and kept, and the totals said to be a lower bound (run-log-damage.ts).
  const damage = runLogDamage(read, runLogRel(i.runRel), i.ref.id);
  const lines = committedRunLogLines(logged);
  const unique = lines.map((l) => JSON.parse(l));
  const total = summarizeRunLog(unique).total;
  const logText = [...lines, ...damage.lines.map((l) => l.text)].map((l) => l + '\n').join('');
  const files = episodeFiles(input, out, recap, logText, readDrafts(i.runDir, i.scenes.report), i.planned, i.carried);
  const note = damage.lines.length ? lowerBoundNote(damage) : '';
  const models = [...new Set(unique.map((e) => `${e.role}=${e.model}`))].sort().join(', ') || 'none';
  const report = i.scenes.report;
  const findings = findingCounts(report);
  return {
    files,
    title: plan.title,
    provider: publicProviderId(i.providerId),
    message: commitMessage(i.ref, plan.title, recap, {
      provider: publicProviderId(i.providerId),
      models,
      seed: i.seed,
      tokens: `${total.input_tokens + total.output_tokens} (input ${total.input_tokens}, output ${total.output_tokens}, cache read ${total.cache_read_tokens}, cache write ${total.cache_write_tokens}${note ? `; ${note}` : ''})`,
      cost: `${formatUsd(total.cost_usd)}${note ? ` (${note})` : ''}`,
    }),
    totals: { input: total.input_tokens, output: total.output_tokens, cache_read: total.cache_read_tokens, cache_write: total.cache_write_tokens, cost_usd: round(total.cost_usd, 6) },
    cached: cachedAnswers(logged),
    report: {
      scenes: report.scenes.length,
      approved: report.scenes.filter((s) => s.final_verdict === 'PASS').length,
      attempts: report.scenes.reduce((n, s) => n + s.attempts.length, 0),
      repairs: report.budget.used,
      manual_review: report.scenes.filter((s) => s.manual_review).length,
      hard: findings.hard,
      soft: findings.soft,
      repaired: findings.repaired,
    },
    warnings: [...recapRes.warnings, ...recapClean.warnings, ...damage.warnings],
  };
}

/**
 * The provider id as committed (trailers) and reported: a replay directory given as an absolute
 * path is a fact about one machine, so only its last folder name is kept ("replay:…/cache").
 */
export function publicProviderId(id: string): string {
  if (!id.startsWith('replay:')) return id;
  const dir = id.slice('replay:'.length);
  return path.isAbsolute(dir) || /^[A-Za-z]:[\\/]/.test(dir) ? `replay:…/${path.basename(dir)}` : id;
}

function readDrafts(runDir: string, report: VerifierReport): Record<string, string> {
  const drafts: Record<string, string> = {};
  for (const s of report.scenes) {
    // The judged text, and the model's own answer and the format fixer's when they differ from it.
    for (const file of s.attempts.flatMap((a) => [a.raw_file, a.model_file, a.format_fix?.raw_file])) {
      if (!file || file in drafts) continue;
      try {
        drafts[file] = fs.readFileSync(path.join(runDir, file), 'utf8');
      } catch {
        /* a draft the writer never saved */
      }
    }
  }
  return drafts;
}
