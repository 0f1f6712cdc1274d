/**
 * The LLM layer's front door. Stages receive an `Llm` (ports/llm.ts); the pipeline opens one per
 * episode run with `openLlm`, which resolves the provider id, builds the provider (registry.ts)
 * and wraps it in the router (routing, concurrency, JSON validation/repair/re-ask, run log).
 *
 *   const { config } = loadConfigOrThrow(root, overrides);
 *   const runLog = new JsonlRunLog(path.join(runDir, 'run_log.jsonl'));
 *   const llm = openLlm({ root, config, seed, runLog, signal });
 *   const res = await llm.complete({ role: 'writer', system, static_context, messages, max_tokens, payload, meta });
 *   await runLog.finalize();
 */
import type { AureusConfig } from '../config/types.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { LlmProvider } from '../ports/llm.js';
import { CallBudget } from './budget.js';
import type { CostGuard } from './cost-guard.js';
import { createProvider } from './registry.js';
import { LlmRouter } from './router.js';
import type { RunLogSink } from './run-log.js';

export interface OpenLlmOptions {
  root: string;
  config: AureusConfig;
  env?: NodeJS.ProcessEnv;
  /** Offline provider seed (the run seed). */
  seed?: string;
  /** Overrides config.chaos. */
  chaos?: number;
  runLog?: RunLogSink;
  /** Run-wide abort (Ctrl-C). */
  signal?: AbortSignal;
  /** Use this provider instead of config.provider (benchmarks: a simulated-latency provider). */
  provider?: { provider: LlmProvider; providerId: string; deterministic: boolean };
  /** A warning for the run's progress (a corrupt cache entry, AUR4302). */
  onWarning?: (warning: Diagnostic) => void;
  /** Waits the user should see ("429 rate limited, retrying in 8 s"), for progress. */
  onNotice?: (text: string) => void;
  /** The run's spend and `--max-cost` (a season shares one across its episodes). */
  costGuard?: CostGuard;
  /** Provider requests already taken from `budgets.provider_calls_per_episode` (a resumed play session's). */
  callsUsed?: number;
  /** `--batch`: the Message Batches API, batch ids kept in this run folder. */
  batch?: { runDir: string; pollMs?: number };
}

export interface OpenedLlm extends LlmRouter {
  readonly budget: CallBudget;
}

export function openLlm(o: OpenLlmOptions): OpenedLlm {
  const budget = new CallBudget(o.config.budgets.provider_calls_per_episode, o.callsUsed);
  const created = o.provider
    ? { ...o.provider, budget, pinnedModel: undefined }
    : createProvider(o.config.provider, {
        root: o.root, config: o.config, env: o.env, seed: o.seed, chaos: o.chaos, budget, onWarning: o.onWarning, onNotice: o.onNotice,
        ...(o.batch ? { batch: { ...o.batch, signal: o.signal } } : {}),
      });
  const router = new LlmRouter({
    config: o.config,
    provider: created.provider,
    providerId: created.providerId,
    deterministic: created.deterministic,
    pinnedModel: created.pinnedModel,
    runLog: o.runLog,
    signal: o.signal,
    costGuard: o.costGuard,
    batch: Boolean(o.batch),
  });
  return Object.assign(router, { budget });
}

export { LlmRouter } from './router.js';
export { createProvider, type CreateProviderOptions, type CreatedProvider } from './registry.js';
export { CallBudget } from './budget.js';
export { ResponseCache, CachingProvider, cacheKey, cacheKeyMaterial, type CacheEntry } from './cache.js';
export { cachedAnswers, committedRunLogLines, JsonlRunLog, MemoryRunLog, readRunLog, sortRunLog, summarizeRunLog, type RunLogEntry, type RunLogSink, type RunLogSummary, type RoleTotals } from './run-log.js';
export { costOf, estimateTokens, worstCaseCost, BATCH_DISCOUNT } from './cost.js';
export { CostGuard } from './cost-guard.js';
export { BatchProvider, type BatchOptions } from './batch.js';
export { MODEL_CATALOG, modelInfo, knownModels, EFFORTS, type Effort, type ModelInfo } from './models.js';
export { LlmOutputError, ReplayMissError, ReplayCorruptError, CallBudgetError, LlmAbortedError, ProviderError, CostCapError, LlmTruncatedError, LlmEmptyAnswerError, LlmRefusalError, canFallBackFrom } from './errors.js';
export { OfflineProvider, registerOfflineRealizer, offlineRealizerFor, MissingRealizerError, type OfflineRealizer, type OfflineContext, type OfflineAnswer } from './offline/index.js';
