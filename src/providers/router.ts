import pLimit, { type LimitFunction } from 'p-limit';
import type { AureusConfig, ModelSlot } from '../config/types.js';
import type { Llm, LlmProvider, LlmRequest, LlmResponse, LlmUsage } from '../ports/llm.js';
import { isAureusError } from '../errors.js';
import { costOf } from './cost.js';
import { LlmAbortedError, LlmOutputError } from './errors.js';
import { checkJsonAnswer, checkJsonValue, reaskMessage } from './json-answer.js';
import type { RunLogEntry, RunLogSink } from './run-log.js';

/**
 * The `Llm` stages hold. Per call it:
 *   1. routes the role to a model from config (escalate → the escalation model; `anthropic:<m>`
 *      pins one model for every role);
 *   2. waits for a concurrency slot (p-limit, config.concurrency);
 *   3. asks the provider, records a run-log line (latency 0 for deterministic providers and
 *      cache hits; cost from the usage and the configured price of the model; 0 when cached);
 *   4. for JSON roles, validates against the request schema (repairing truncated/sloppy JSON);
 *      if still invalid, re-asks with the problems appended, up to budgets.json_reasks times,
 *      then throws LlmOutputError (role, schema, problems).
 * The returned usage, cost and latency are the sums over the re-asks of that call.
 */
export interface RouterOptions {
  config: AureusConfig;
  provider: LlmProvider;
  /** What `Llm.providerId` reports, e.g. `anthropic`, `offline`, `replay:fixtures/cache`. */
  providerId: string;
  deterministic: boolean;
  /** `anthropic:<model>`: this model for every role. */
  pinnedModel?: string;
  runLog?: RunLogSink;
  /** Run-wide abort (Ctrl-C); combined with each request's own signal. */
  signal?: AbortSignal;
}

export class LlmRouter implements Llm {
  readonly deterministic: boolean;
  readonly providerId: string;
  private readonly logProvider: string;
  private readonly opts: RouterOptions;
  private readonly limit: LimitFunction;

  constructor(opts: RouterOptions) {
    this.opts = opts;
    this.deterministic = opts.deterministic;
    this.providerId = opts.providerId;
    // The family that answered (`anthropic` for anthropic, anthropic:<model> and replay:<dir>): the
    // run log never carries a replay directory, which may be a machine's absolute path.
    this.logProvider = opts.providerId.startsWith('replay') ? 'anthropic' : opts.providerId.split(':')[0];
    this.limit = pLimit(Math.max(1, opts.config.concurrency));
  }

  /** The model a request is routed to. */
  modelFor(req: Pick<LlmRequest, 'role' | 'escalate'>): string {
    if (this.opts.pinnedModel) return this.opts.pinnedModel;
    if (req.escalate) return this.opts.config.escalations[req.role] ?? this.opts.config.models.escalation;
    const slot: ModelSlot = req.role;
    return this.opts.config.models[slot];
  }

  /** Calls waiting for a slot plus calls in flight (progress displays). */
  get pending(): { active: number; queued: number } {
    return { active: this.limit.activeCount, queued: this.limit.pendingCount };
  }

  complete(request: LlmRequest): Promise<LlmResponse> {
    return this.limit(() => this.run(request));
  }

  private async run(request: LlmRequest): Promise<LlmResponse> {
    const { config, provider } = this.opts;
    const model = this.modelFor(request);
    const signals = [request.signal, this.opts.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    const schemaName = request.schema_name ?? 'the requested schema';
    let messages = request.messages;
    const total: LlmUsage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
    let totalCost = 0;
    let totalLatency = 0;

    for (let reask = 0; ; reask++) {
      if (signal?.aborted) throw new LlmAbortedError(request.role, signal.reason);
      const req: LlmRequest = { ...request, messages, max_tokens: request.max_tokens > 0 ? request.max_tokens : config.max_tokens[request.role], ...(signal ? { signal } : {}) };
      const t0 = performance.now();
      let res: LlmResponse;
      try {
        res = await provider.complete(req, model);
      } catch (e) {
        const latency = this.deterministic ? 0 : Math.round(performance.now() - t0);
        this.log(request, model, reask, { latency_ms: latency, error: isAureusError(e) ? (e.diagnostics[0]?.code ?? 'error') : 'internal' });
        throw e;
      }
      // The run log describes each call as it was answered, so a recorded run and its replay log the
      // same lines: a cache hit carries the recorded latency and is priced like the recorded call.
      // The offline provider is instant and free. A real answer is priced by the model it names (the
      // API may answer with a dated snapshot id), else by the model we routed to.
      const offline = this.deterministic && !res.cached;
      const latency = offline ? 0 : res.latency_ms;
      const cost = offline ? 0 : costOf(res.usage, config.prices[res.model] ?? config.prices[model]);
      this.log(request, res.model, reask, { latency_ms: latency, usage: res.usage, cost_usd: cost, cached: res.cached, stop_reason: res.stop_reason });
      total.input_tokens += res.usage.input_tokens;
      total.output_tokens += res.usage.output_tokens;
      total.cache_read_tokens += res.usage.cache_read_tokens;
      total.cache_write_tokens += res.usage.cache_write_tokens;
      totalCost += cost;
      totalLatency += latency;
      const summed = (extra: Partial<LlmResponse>): LlmResponse => ({
        ...res,
        ...extra,
        usage: { ...total },
        cost_usd: Math.round(totalCost * 1e6) / 1e6,
        latency_ms: totalLatency,
      });

      if (!request.json_schema) return summed({});
      const check = res.json !== undefined ? checkJsonValue(res.json, request.json_schema) : checkJsonAnswer(res.text, request.json_schema);
      if (check.ok) return summed({ json: check.value });
      if (reask >= config.budgets.json_reasks) throw new LlmOutputError(request.role, schemaName, check.problems, reask + 1, res.text);
      messages = [...messages, { role: 'assistant', content: res.text }, { role: 'user', content: reaskMessage(schemaName, check.problems) }];
    }
  }

  private log(
    req: LlmRequest,
    model: string,
    reask: number,
    r: { latency_ms: number; usage?: LlmUsage; cost_usd?: number; cached?: boolean; stop_reason?: string; error?: string },
  ): void {
    const sink = this.opts.runLog;
    if (!sink) return;
    const u = r.usage ?? { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
    const entry: RunLogEntry = {
      role: req.role,
      model,
      provider: this.logProvider,
      attempt: req.meta?.attempt ?? 0,
      reask,
      escalated: Boolean(req.escalate),
      latency_ms: r.latency_ms,
      input_tokens: u.input_tokens,
      output_tokens: u.output_tokens,
      cache_read_tokens: u.cache_read_tokens,
      cache_write_tokens: u.cache_write_tokens,
      cost_usd: r.cost_usd ?? 0,
      cached: r.cached ?? false,
      stop_reason: r.stop_reason ?? 'error',
    };
    if (req.meta?.episode) entry.episode = req.meta.episode;
    if (req.meta?.scene) entry.scene = req.meta.scene;
    if (req.meta?.label) entry.label = req.meta.label;
    if (r.error) entry.error = r.error;
    sink.append(entry);
  }
}
