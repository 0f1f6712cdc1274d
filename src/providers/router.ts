import pLimit, { type LimitFunction } from 'p-limit';
import type { AureusConfig, ModelSlot } from '../config/types.js';
import type { Llm, LlmMessage, LlmProvider, LlmRequest, LlmResponse, LlmUsage } from '../ports/llm.js';
import { isAureusError } from '../errors.js';
import { costOf } from './cost.js';
import { CostGuard } from './cost-guard.js';
import { CallBudgetError, CostCapError, LlmAbortedError, LlmEmptyAnswerError, LlmOutputError, LlmRefusalError, LlmTruncatedError } from './errors.js';
import { checkJsonAnswer, checkJsonValue, reaskMessage } from './json-answer.js';
import { modelInfo } from './models.js';
import type { RunLogEntry, RunLogSink } from './run-log.js';

/**
 * The `Llm` stages hold. Per call it:
 *   1. routes the role to a model from config (escalate → the escalation model; `anthropic:<m>`
 *      pins one model for every role) and sets max_tokens: the request's, capped by the config's
 *      `max_tokens.<role>` (which is the value when the request names none);
 *   2. lets the first call of each cacheable prefix go alone, so it writes the prompt cache and
 *      the calls that share the prefix read it instead of each paying a write (real providers only);
 *   3. waits for a concurrency slot (p-limit, config.concurrency);
 *   4. reserves the call's worst case against `--max-cost` (CostGuard; an answer the provider
 *      has recorded, a cache hit, costs nothing and needs none), asks the provider and records a
 *      run-log line (latency 0 for deterministic providers and cache hits; none for an answer
 *      replayed from the run's call journal, whose line the run that paid for it wrote);
 *   5. an answer cut at max_tokens is asked again once with twice the room (never resent
 *      identically); cut again, a JSON role or the writer fails with LlmTruncatedError (AUR4210, a
 *      bad answer) and the recap and format_fix get what came back, for their callers to judge;
 *   6. for JSON roles, validates against the request schema (repairing sloppy JSON); if still
 *      invalid, re-asks with the problems, up to `max_reasks` (default budgets.json_reasks), then
 *      throws LlmOutputError, or LlmEmptyAnswerError (AUR4230) when the last answer held no text.
 *      A re-ask never carries an empty assistant turn.
 *   7. a refusal (stop_reason `refusal`) is asked again once as it was, then fails with
 *      LlmRefusalError (AUR4212, exit 7): never re-asked for its form, never a fallback; the second
 *      ask carries `repeat`, so the record/replay cache keeps both answers (cache.ts);
 *   8. every answer it does not accept (cut, refused, empty, invalid JSON) is rejected to the provider, so the
 *      record/replay cache never serves it to a later run (cache.ts).
 * A fatal error (provider outage, spent call budget, replay miss, cost cap) fails every queued call
 * with that same error; an outage or a replay miss cancels the calls in flight too, so the run ends
 * promptly, while a spent budget lets them land (paid for already: noteFatal says why).
 * The returned usage, cost, charge and latency are the sums over the re-asks of that call.
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
  /** The run's spend and `--max-cost`; a fresh one from config when absent. */
  costGuard?: CostGuard;
  /**
   * Message Batches mode: no concurrency limit and no cache warm-up, so every call a layer issues
   * together lands in one batch (the batch provider collects them).
   */
  batch?: boolean;
}

interface Totals {
  usage: LlmUsage;
  cost: number;
  /** `cost` without the cached answers: what the call was paid (journaled attempts included: LlmResponse.charged_usd). */
  charged: number;
  latency: number;
}

/** Retries of a call the model refused (stop_reason `refusal`) before the run ends with AUR4212. */
export const REFUSAL_RETRIES = 1;
/** An empty scene (no text at all) is asked again this many times before the run ends on it (AUR4230). */
const EMPTY_RETRIES = 1;

export class LlmRouter implements Llm {
  readonly deterministic: boolean;
  readonly providerId: string;
  private readonly logProvider: string;
  readonly costGuard: CostGuard;
  private readonly opts: RouterOptions;
  private readonly limit: LimitFunction;
  private readonly warming = new Map<string, Promise<void>>();
  private readonly fatalAbort = new AbortController();
  private fatal: unknown;

  constructor(opts: RouterOptions) {
    this.opts = opts;
    this.deterministic = opts.deterministic;
    this.providerId = opts.providerId;
    // The family that answered (`anthropic` for anthropic, anthropic:<model> and replay:<dir>): the
    // run log never carries a replay directory, which may be a machine's absolute path.
    this.logProvider = opts.providerId.startsWith('replay') ? 'anthropic' : opts.providerId.split(':')[0];
    this.limit = pLimit(opts.batch ? 10_000 : Math.max(1, opts.config.concurrency));
    this.costGuard = opts.costGuard ?? new CostGuard(opts.config.budgets.max_cost_usd);
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

  async complete(request: LlmRequest): Promise<LlmResponse> {
    const key = this.warmKey(request);
    if (key !== undefined) {
      const warm = this.warming.get(key);
      if (warm) await warm;
      else {
        const first = this.limit(() => this.run(request));
        this.warming.set(key, first.then(() => undefined, () => undefined));
        return first;
      }
    }
    return this.limit(() => this.run(request));
  }

  /**
   * The cacheable prefix a real call shares with others (model + system + static context), if any.
   * A prefix shorter than the model's minimum is never cached, so its calls need not wait.
   */
  private warmKey(req: LlmRequest): string | undefined {
    if (this.deterministic || this.opts.batch || (!req.static_context && !req.cache_system)) return undefined;
    const model = this.modelFor(req);
    const prefixChars = req.system.length + (req.static_context?.length ?? 0);
    if (Math.ceil(prefixChars / 4) < (modelInfo(model)?.min_cache_tokens ?? 0)) return undefined;
    return `${model}\u0000${req.system}\u0000${req.static_context ?? ''}`;
  }

  private signalFor(request: LlmRequest): AbortSignal {
    const signals = [request.signal, this.opts.signal, this.fatalAbort.signal].filter((s): s is AbortSignal => s !== undefined);
    return signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  }

  private async run(request: LlmRequest): Promise<LlmResponse> {
    const { config } = this.opts;
    const model = this.modelFor(request);
    const signal = this.signalFor(request);
    const maxReasks = request.max_reasks ?? config.budgets.json_reasks;
    let messages = request.messages;
    // The config's `max_tokens.<role>` is the cap; a stage may ask for less (play's Actor line, its
    // beat classifier), never for more: the worst case `--max-cost` reserves is then the stage's.
    let maxTokens = request.own_max_tokens && request.max_tokens !== undefined ? Math.min(request.max_tokens, config.max_tokens[request.role]) : config.max_tokens[request.role];
    let cuts = 0;
    let refusals = 0;
    let empties = 0;
    // Asks of this same request so far (a refusal is asked again as it was): the record cache keys each apart.
    let repeat = 0;
    const totals: Totals = { usage: { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 }, cost: 0, charged: 0, latency: 0 };

    for (let reask = 0; ; reask++) {
      const req: LlmRequest = { ...request, messages, max_tokens: maxTokens, signal, ...(repeat ? { repeat } : {}) };
      const res = await this.once(req, model, reask, totals);
      const summed = (extra: Partial<LlmResponse>): LlmResponse => ({ ...res, ...extra, usage: { ...totals.usage }, cost_usd: Math.round(totals.cost * 1e6) / 1e6, charged_usd: Math.round(totals.charged * 1e6) / 1e6, latency_ms: totals.latency });

      if (res.stop_reason === 'refusal') {
        await this.reject(req, model);
        // Asked once more as it was (a model samples; a second look may answer), then the run ends:
        // a refusal is not a broken form to repair nor a bad answer to fall back from.
        if (++refusals <= REFUSAL_RETRIES) {
          repeat++;
          continue;
        }
        throw new LlmRefusalError(request.role, request.meta, res.text, refusals);
      }
      if (res.stop_reason === 'max_tokens') {
        await this.reject(req, model);
        cuts++;
        const ceiling = modelInfo(model)?.max_output_tokens ?? maxTokens * 2;
        if (cuts === 1 && maxTokens < ceiling) {
          // Ask again with twice the room: the same request with more room is not the same request.
          maxTokens = Math.min(ceiling, maxTokens * 2);
          repeat = 0;
          continue;
        }
        // Cut twice, a JSON role's answer and a scene are not answers: a scene cut short would fail
        // verification as if its content were wrong and be regenerated with no more room, a dozen
        // times, for an error that never names the cut. The recap falls back to its offline text on a
        // cut (pipeline/recap-call.ts), and a format fix's answer is taken only if its prose is the
        // draft's and its form reads (g-repair), so those two get what came back.
        if (request.json_schema || request.role === 'writer') throw new LlmTruncatedError(request.role, maxTokens, cuts, request.meta);
        return summed({});
      }
      if (!request.json_schema) {
        if (res.text.trim() !== '') return summed({});
        await this.reject(req, model);
        // A scene with no text is not a draft: verified, it failed every check and was regenerated a dozen times into
        // AUR6007. Asked once more as it was, then said as what it is. The recap and a format fix judge their own.
        if (request.role !== 'writer') return summed({});
        if (++empties <= EMPTY_RETRIES) {
          repeat++;
          continue;
        }
        throw new LlmEmptyAnswerError(request.role, request.meta, empties, reask + 1);
      }
      const check = res.json !== undefined ? checkJsonValue(res.json, request.json_schema) : checkJsonAnswer(res.text, request.json_schema);
      if (check.ok) return summed({ json: check.value });
      await this.reject(req, model);
      const empty = res.json === undefined && res.text.trim() === '';
      if (empty) empties++;
      if (reask - cuts - refusals >= maxReasks) {
        // No text at all is not JSON of the wrong shape: said as such, not as AUR4201's schema advice.
        if (empty) throw new LlmEmptyAnswerError(request.role, request.meta, empties, reask + 1);
        throw new LlmOutputError(request.role, request.schema_name ?? 'the requested schema', check.problems, reask + 1, res.text);
      }
      messages = reaskMessages(messages, res.text, reaskMessage(request.schema_name ?? 'the requested schema', check.problems));
      repeat = 0;
    }
  }

  /** One provider call: cost cap, fatal-error cancellation, run log, totals. */
  private async once(req: LlmRequest, model: string, reask: number, totals: Totals): Promise<LlmResponse> {
    const { config, provider } = this.opts;
    if (this.fatal) throw this.fatal;
    if (req.signal?.aborted) throw new LlmAbortedError(req.role, req.signal.reason);
    // In batch mode every call asked goes through the Message Batches API: its worst case is at the
    // batch price, or a layer's calls would not fit the cap together and go in several batches.
    const costOpts = { ttl: config.cache.ttl, batch: this.opts.batch === true };
    // An answer this call's earlier, interrupted run already paid for (the run's call journal) or one
    // already recorded costs nothing now: it needs no reservation against the cap (a hit refused for a
    // worst case it cannot cost would stop a run that spends nothing; journaled spend is counted from
    // the journal, pipeline/call-journal.ts journalSpend).
    const journal = this.deterministic ? undefined : req.attempts;
    const journaled = journal?.replay(model, req, reask);
    const looked = !this.deterministic && journaled === undefined && provider.recorded !== undefined;
    const recorded = journaled ?? (looked ? await provider.recorded!(req, model) : undefined);
    const settle = this.deterministic || recorded ? () => undefined : await this.costGuard.reserve(req, model, config, costOpts);
    const t0 = performance.now();
    let res: LlmResponse;
    try {
      // A miss just looked up is asked at once: the cache is read once per call.
      res = recorded ?? (await provider.complete(req, model, looked ? { notRecorded: true } : undefined));
    } catch (e) {
      // A failed call can still have been billed (attempts cut off mid-stream, anthropic.ts): counted and logged.
      const billed = (e as { billedUsage?: LlmUsage } | null)?.billedUsage;
      const paid = billed ? costOf(billed, config.prices[model], costOpts) : 0;
      settle(paid);
      const latency = this.deterministic ? 0 : Math.round(performance.now() - t0);
      // A call cancelled by another call's fatal error is not logged, unless it was billed (a stream
      // stopped mid-answer): what was paid is in the run log, so the committed log and cost say it.
      if (this.fatal && !billed) throw this.fatal;
      this.log(req, model, reask, { latency_ms: latency, error: isAureusError(e) ? (e.diagnostics[0]?.code ?? 'error') : 'internal', ...(billed ? { usage: billed, cost_usd: paid } : {}) });
      if (this.fatal) throw this.fatal;
      this.noteFatal(e);
      throw e;
    }
    // The run log describes each call as it was answered, so a recorded run and its replay log the
    // same lines: a cache hit carries the recorded latency and is priced like the recorded call.
    // The offline provider is instant and free. A real answer is priced by the model it names (the
    // API may answer with a dated snapshot id), else by the model we routed to.
    const offline = this.deterministic && !res.cached;
    const latency = offline ? 0 : res.latency_ms;
    // A recorded answer says the TTL it was billed at (cache.ts); a fresh one was billed at ours.
    const cost = offline ? 0 : costOf(res.usage, config.prices[res.model] ?? config.prices[model], { ttl: res.cache_ttl ?? config.cache.ttl, batch: res.batch === true });
    // The spend cap counts money spent now: a cached answer costs nothing this run.
    settle(res.cached ? 0 : cost);
    // Journaled the moment it arrives, before it is judged: should the call be cut short now (a
    // re-ask refused by a fatal error elsewhere, Ctrl-C during the next attempt), a resumed run is
    // answered from it instead of paying for it again. Synchronous: nothing can run in between.
    if (!recorded && !res.cached) journal?.record(model, req, reask, { ...res, charged_usd: cost });
    // An answer replayed from the journal was logged by the run that paid for it (its line is in this
    // run folder's run_log.jsonl): logged again, `aureus cost` of the run counted it twice. It still
    // counts in the call's sums, `charged` included: the whole call's journal entry then says all the
    // call was paid, by whichever run, and journalSpend counts it once the attempt files are gone.
    // One exception: a kill between the answer's journal file and its line (the line is appended
    // after the file is written) left the paid answer out of the log. The line it would have had is
    // written now, if the log lacks it (RunLogSink.appendMissing), at the price it was charged.
    const line = { latency_ms: latency, usage: res.usage, cost_usd: journaled?.charged_usd ?? cost, cached: res.cached, stop_reason: res.stop_reason };
    if (journaled === undefined) this.log(req, res.model, reask, line);
    else this.log(req, res.model, reask, line, true);
    for (const k of Object.keys(totals.usage) as (keyof LlmUsage)[]) totals.usage[k] += res.usage[k];
    totals.cost += cost;
    if (!res.cached) totals.charged += cost;
    totals.latency += latency;
    return res;
  }

  /**
   * An answer this router did not accept (cut, refused, empty, invalid JSON) must not be served to a later
   * run: the provider (the record/replay cache) is told, so a failed run resumes with fresh answers.
   */
  private async reject(req: LlmRequest, model: string): Promise<void> {
    await this.opts.provider.reject?.(req, model);
  }

  /**
   * A failure that ends the run fails every call not yet sent (a bad answer or an abort does not). An outage, a refused
   * key or a replay miss cancels the calls in flight too: they cannot succeed, or the run is not to go on. A spent budget
   * (the call budget, the cost cap) does not: those calls were sent within it and are paid for whatever happens next;
   * answered, they are journaled and logged, so the run log says what was spent and a resumed run does not pay for them
   * again. The run then ends once they settle.
   */
  private noteFatal(e: unknown): void {
    if (this.fatal || !isAureusError(e) || e instanceof LlmAbortedError) return;
    if ((e as { badModelAnswer?: boolean }).badModelAnswer) return;
    this.fatal = e;
    if (!(e instanceof CallBudgetError || e instanceof CostCapError)) this.fatalAbort.abort(e);
  }

  private log(
    req: LlmRequest,
    model: string,
    reask: number,
    r: { latency_ms: number; usage?: LlmUsage; cost_usd?: number; cached?: boolean; stop_reason?: string; error?: string },
    /** A replayed answer: logged only if the log lacks its line. */
    replayed = false,
  ): void {
    const sink = this.opts.runLog;
    if (!sink || (replayed && !sink.appendMissing)) return;
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
    if (replayed) sink.appendMissing!(entry);
    else sink.append(entry);
  }
}

/**
 * The conversation for a re-ask: the answer as an assistant turn, then the problems. An empty
 * answer is not sent as an empty assistant turn (the API refuses it): the problems join the last
 * user turn instead, so the conversation still ends on the user.
 */
export function reaskMessages(messages: LlmMessage[], answer: string, problems: string): LlmMessage[] {
  if (answer.trim() !== '') return [...messages, { role: 'assistant', content: answer }, { role: 'user', content: problems }];
  const last = messages[messages.length - 1];
  if (last?.role === 'user') return [...messages.slice(0, -1), { role: 'user', content: `${last.content}\n\n${problems}` }];
  return [...messages, { role: 'user', content: problems }];
}
