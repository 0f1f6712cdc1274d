import type Anthropic from '@anthropic-ai/sdk';
import { pause } from './pause.js';
import type { AureusConfig } from '../config/types.js';
import type { LlmProvider, LlmRequest, LlmResponse, LlmRole, LlmUsage } from '../ports/llm.js';
import { capRetryAfter, wireBody, type SchemaTransform, type WireBody } from './anthropic-wire.js';
import { CURRENT_LINEUP } from './models.js';
import { CallBudget } from './budget.js';
import { estimateTokens } from './cost.js';
import { CALL_HEADER, RetryNotices, callNoun } from './retry-notice.js';
import { connectionProblem, isAttemptTimeout, timedFetch, timedOutAfter } from './attempt-timeout.js';
import { withoutSdkDeprecationWarning } from './sdk-warnings.js';
import { CallBudgetError, LlmAbortedError, ProviderError } from './errors.js';

/**
 * The Anthropic Messages API provider (@anthropic-ai/sdk).
 *
 * - The SDK is imported lazily on the first call, so starting the CLI never loads it.
 * - ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL come from the env we are given, and baseURL is
 *   passed explicitly (tests point it at a local server). The key goes to the SDK only; we never
 *   log it, put it in an error, a cache entry or the run log.
 * - The body is built by anthropic-wire.ts: one cache breakpoint after all static content,
 *   effort and structured outputs in `output_config`, nothing a 5.x model refuses.
 * - Answers are read by content block type: thinking blocks (adaptive thinking on 5.x models) never
 *   reach the text. `stop_reason` is passed up; the router re-asks a `max_tokens` cut with more room.
 * - Roles in `stream_roles` stream (long writer calls), and so does any call that brings a text sink
 *   (`LlmRequest.stream`: play's Actor shows its dialogue as it arrives). A stream or body that breaks after the
 *   headers is retried by us, since the SDK only retries a request before its body starts.
 * - Retries: the SDK retries 408/409/429 (honouring retry-after, capped here at
 *   budgets.retry_after_max_s), 5xx/529, connection errors and requests that timed out before their
 *   headers; we retry cut streams and answers that timed out after them; `budgets.retries` is the
 *   call's, whichever retried (retry-notice.ts counts them and says each wait, naming the call).
 *   Every HTTP request, retries included, is charged to the episode's CallBudget in the fetch wrapper.
 * - Timeouts per role (timeouts_ms) bound each request, body included (attempt-timeout.ts): a server
 *   that sends the headers and stalls cannot hang the run, and the waits between attempts are not
 *   counted against it. The caller's AbortSignal is passed through, and an abort becomes
 *   LlmAbortedError (exit 130).
 */

export interface AnthropicProviderOptions {
  config: AureusConfig;
  env: NodeJS.ProcessEnv;
  budget: CallBudget;
  /** Told of each wait the user should see ("writer SC04: 429 rate limited, retrying in 8 s (retry 1 of 4)"). */
  onNotice?: (text: string) => void;
}

type Sdk = typeof import('@anthropic-ai/sdk');
interface Loaded {
  sdk: Sdk;
  client: Anthropic;
  transform: SchemaTransform;
}
const BUDGET_HEADER = 'x-aureus-budget';
const DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** A stream or body cut before its end; `usage`: what the cut attempt was billed, as far as it told. */
/** An attempt's stream that ended early: cut by the server or network, or `stopped` by the caller's signal (Ctrl-C, another call's fatal error). */
class StreamCutOff extends Error {
  constructor(message: string, readonly usage?: LlmUsage, readonly stopped = false) {
    super(message);
  }
}
/** An attempt's timeout after its headers came (the SDK retries one before); `usage` is what a stream it stopped had been billed. */
class TimedOut extends Error {
  constructor(readonly usage?: LlmUsage) {
    super('timeout');
  }
}

type Answer = Pick<LlmResponse, 'text' | 'usage' | 'model' | 'stop_reason'>;

export class AnthropicProvider implements LlmProvider {
  readonly id = 'anthropic';
  private readonly config: AureusConfig;
  private readonly budget: CallBudget;
  private readonly apiKey: string;
  private readonly baseURL: string | undefined;
  private readonly onNotice: (text: string) => void;
  private readonly notices: RetryNotices;
  /** Each open call's per-request timeout (timeouts_ms of its role), by call id. */
  private readonly deadlines = new Map<string, number>();
  private sdk?: Promise<Loaded>;

  constructor(opts: AnthropicProviderOptions) {
    const key = opts.env.ANTHROPIC_API_KEY;
    if (!key) throw new ProviderError('the anthropic provider needs ANTHROPIC_API_KEY', 'AUR4005', {});
    this.apiKey = key;
    this.baseURL = opts.env.ANTHROPIC_BASE_URL || undefined;
    this.config = opts.config;
    this.budget = opts.budget;
    this.onNotice = opts.onNotice ?? (() => {});
    this.notices = new RetryNotices(this.config.budgets.retries, this.onNotice);
  }

  /** The SDK client, built once (the batch runner shares it). */
  load(): Promise<Loaded> {
    this.sdk ??= Promise.all([import('@anthropic-ai/sdk'), import('@anthropic-ai/sdk/lib/transform-json-schema.js')]).then(([sdk, tjs]) => {
      const budget = this.budget;
      const capMs = this.config.budgets.retry_after_max_s * 1000;
      const budgetFetch = async (input: string | URL | Request, sdkInit?: RequestInit): Promise<Response> => {
        const { id, init } = this.notices.strip(sdkInit);
        if (!budget.take()) {
          const body = JSON.stringify({ type: 'error', error: { type: 'aureus_call_budget', message: 'provider call budget exhausted' } });
          return new Response(body, { status: 400, headers: { 'content-type': 'application/json', 'x-should-retry': 'false', [BUDGET_HEADER]: 'exhausted' } });
        }
        this.notices.sending(id);
        // A request of no call (the batch endpoints) keeps the SDK's own timeout.
        const ms = id === undefined ? undefined : this.deadlines.get(id);
        let raw: Response;
        try {
          raw = ms === undefined ? await fetch(input, init) : await timedFetch(input, init, ms);
        } catch (e) {
          // The SDK retries it silently: say so, naming the call and what failed.
          const notice = this.notices.failed(id, connectionProblem(e, urlOf(input)), init);
          if (notice) this.onNotice(notice);
          throw e;
        }
        const res = capRetryAfter(raw, capMs);
        const notice = this.notices.response(id, res, init);
        if (notice) this.onNotice(notice);
        return res;
      };
      const client = new sdk.default({
        apiKey: this.apiKey,
        authToken: null,
        // Explicit, so only the env we were given counts (not whatever process.env holds).
        baseURL: this.baseURL ?? DEFAULT_BASE_URL,
        maxRetries: this.config.budgets.retries,
        fetch: budgetFetch,
      });
      return { sdk, client, transform: tjs.transformJSONSchema as SchemaTransform };
    });
    return this.sdk;
  }

  /** The wire body for a request (also what a batch request carries as `params`). */
  async body(req: LlmRequest, model: string): Promise<WireBody> {
    const { transform } = await this.load();
    return wireBody({ ...req, max_tokens: req.max_tokens ?? this.config.max_tokens[req.role] }, model, this.config, transform);
  }

  async complete(req: LlmRequest, model: string): Promise<LlmResponse> {
    if (req.signal?.aborted) throw new LlmAbortedError(req.role, req.signal.reason);
    const { sdk, client } = await this.load();
    const body = await this.body(req, model);
    // A caller that asks to see the answer as it arrives (req.stream) gets a stream whatever the role.
    const stream = this.config.stream_roles.includes(req.role) || req.stream !== undefined;
    const call = this.notices.open(req);
    this.deadlines.set(call, this.config.timeouts_ms[req.role]);
    try {
      return await this.attempts(sdk, client, body, req, model, stream, call);
    } finally {
      this.deadlines.delete(call);
      this.notices.close(call, req.signal?.aborted === true);
    }
  }

  /** The call's attempts: a stream or body cut off is asked again while the call has retries left. */
  private async attempts(sdk: Sdk, client: Anthropic, body: WireBody, req: LlmRequest, model: string, stream: boolean, call: string): Promise<LlmResponse> {
    const t0 = performance.now();
    // A cut attempt was billed (its input from message_start, the output it sent): the call's usage
    // includes it, so the run log, the price and --max-cost count what the server charged.
    const cut: LlmUsage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
    for (let attempt = 1; ; attempt++) {
      try {
        const out = stream ? await this.streamOnce(client, body, req, call) : await this.createOnce(sdk, client, body, req, call);
        return { ...out, usage: addUsage(out.usage, cut), cost_usd: 0, provider: this.id, latency_ms: Math.round(performance.now() - t0), cached: false };
      } catch (e) {
        // Stopped by Ctrl-C or the timeout too: the server billed what it had sent (the run log says so).
        const billed = e instanceof StreamCutOff || e instanceof TimedOut ? e.usage : undefined;
        if (billed) Object.assign(cut, addUsage(cut, billed));
        // A short backoff (100, 200, 400 ms …): a cut usually means a busy server.
        const wait = Math.min(2000, 100 * 2 ** (attempt - 1));
        const notice = req.signal?.aborted
          ? null
          : e instanceof TimedOut
            ? this.notices.cutOff(call, wait, timedOutAfter(this.config.timeouts_ms[req.role]))
            : e instanceof StreamCutOff && !e.stopped
              ? this.notices.cutOff(call, wait)
              : null;
        if (notice) {
          this.onNotice(notice);
          await pause(wait, req.signal);
          if (!req.signal?.aborted) continue;
        }
        throw withBilledUsage(this.mapError(sdk, e, req, { cuts: attempt, requests: this.notices.sent(call) }, model), cut);
      }
    }
  }

  /**
   * The call's id rides in a header the fetch wrapper takes off; the SDK may retry only what the call has left.
   * The fetch wrapper times each request (timedFetch); the SDK's timeout, a second later, is a backstop that
   * never fires first (and, given, keeps the SDK from refusing a long non-streamed call).
   */
  private requestOptions(req: LlmRequest, call: string) {
    return { timeout: this.config.timeouts_ms[req.role] + 1000, maxRetries: this.notices.retriesLeft(call), signal: req.signal, headers: { [CALL_HEADER]: call } };
  }

  private async createOnce(sdk: Sdk, client: Anthropic, body: WireBody, req: LlmRequest, call: string): Promise<Answer> {
    let msg: Anthropic.Message;
    try {
      msg = await withoutSdkDeprecationWarning(() => client.messages.create({ ...(body as Anthropic.MessageCreateParamsNonStreaming), stream: false }, this.requestOptions(req, call)));
    } catch (e) {
      // The SDK retries until the headers arrive; a body that breaks or times out after them is ours to retry.
      if (e instanceof sdk.AnthropicError || req.signal?.aborted) throw e;
      if (isAttemptTimeout(e)) throw new TimedOut();
      throw new StreamCutOff(`the answer body broke: ${(e as Error).message}`);
    }
    return { text: textOf(msg.content), usage: usageOf(msg.usage), model: msg.model || body.model, stop_reason: msg.stop_reason ?? 'unknown' };
  }

  private async streamOnce(client: Anthropic, body: WireBody, req: LlmRequest, call: string): Promise<Answer> {
    const events = await withoutSdkDeprecationWarning(() => client.messages.create({ ...(body as Anthropic.MessageCreateParamsStreaming), stream: true }, this.requestOptions(req, call)));
    // A new attempt: whatever an earlier, cut-off attempt told the caller's sink is void.
    req.stream?.restart();
    let text = '';
    let usage: LlmUsage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
    let stop = 'unknown';
    let actualModel = body.model;
    let done = false;
    try {
      for await (const ev of events) {
        if (ev.type === 'message_start') {
          usage = usageOf(ev.message.usage);
          actualModel = ev.message.model || body.model;
        } else if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') {
          // Only text deltas: thinking_delta and signature_delta belong to thinking blocks.
          text += ev.delta.text;
          req.stream?.text(ev.delta.text);
        } else if (ev.type === 'message_delta') {
          stop = ev.delta.stop_reason ?? stop;
          const u = ev.usage as Partial<Anthropic.MessageDeltaUsage>;
          if (typeof u.output_tokens === 'number') usage.output_tokens = u.output_tokens;
          if (typeof u.input_tokens === 'number') usage.input_tokens = u.input_tokens;
          if (typeof u.cache_creation_input_tokens === 'number') usage.cache_write_tokens = u.cache_creation_input_tokens;
          if (typeof u.cache_read_input_tokens === 'number') usage.cache_read_tokens = u.cache_read_input_tokens;
        } else if (ev.type === 'message_stop') {
          done = true;
        }
      }
    } catch (e) {
      // Stopped by the caller mid-answer: not retried, but what was sent so far was billed. Timed out: retried, billed too.
      if (req.signal?.aborted) throw new StreamCutOff(`the stream was stopped: ${(e as Error).message}`, cutUsage(usage, text), true);
      if (isAttemptTimeout(e)) throw new TimedOut(cutUsage(usage, text));
      throw new StreamCutOff(`the stream broke: ${(e as Error).message}`, cutUsage(usage, text));
    }
    if (!done) throw new StreamCutOff('the stream ended before message_stop', cutUsage(usage, text));
    return { text, usage, model: actualModel, stop_reason: stop };
  }

  /** The typed error of a failed call; `cuts`: the attempts our loop made, `requests`: the HTTP requests the call sent. */
  private mapError(sdk: Sdk, e: unknown, req: LlmRequest, tries: { cuts: number; requests: number }, model: string): unknown {
    const role: LlmRole = req.role;
    const call = callNoun(req);
    if (req.signal?.aborted || e instanceof sdk.APIUserAbortError) return new LlmAbortedError(role, e);
    if (e instanceof TimedOut || e instanceof sdk.APIConnectionTimeoutError) {
      const timeout_ms = this.config.timeouts_ms[role];
      return new ProviderError(`${call} timed out after ${timeout_ms} ms, with no retry left`, 'AUR4207', { role, call, timeout_ms, attempts: tries.requests }, undefined, e);
    }
    if (e instanceof StreamCutOff) return new ProviderError(`the answer stream of ${call} was cut off`, 'AUR4206', { role, call, attempts: tries.cuts, detail: e.message }, undefined, e);
    if (e instanceof sdk.APIConnectionError) {
      const detail = connectionProblem(e, this.messagesUrl());
      return new ProviderError(`cannot reach the provider for ${call}: ${detail}`, 'AUR4204', { role, call, detail }, undefined, e);
    }
    if (e instanceof sdk.APIError) return this.mapApiError(e, req, model);
    if (e instanceof sdk.AnthropicError) {
      const detail = e.message.slice(0, 300);
      return new ProviderError(`the provider failed for ${call}: ${detail}`, 'AUR4208', { role, call, detail }, undefined, e);
    }
    return e;
  }

  /** Where the SDK sends a Messages request: the base URL (trailing slashes off) and /v1/messages. */
  private messagesUrl(): string {
    return `${(this.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '')}/v1/messages`;
  }

  /**
   * The setting that routed this call to `model`, for advice: escalations.<role> or
   * models.escalation for an escalated call, models.<role> otherwise, and the pinned provider id
   * when the config names another model (`anthropic:<model>` routes every role to one model).
   */
  private routeKey(req: LlmRequest, model: string): string {
    const c = this.config;
    const key = req.escalate ? (c.escalations[req.role] !== undefined ? `escalations.${req.role}` : 'models.escalation') : `models.${req.role}`;
    const configured = req.escalate ? (c.escalations[req.role] ?? c.models.escalation) : c.models[req.role];
    return configured === model ? `${key} in aureus.config.yaml (or --model)` : `the pinned model of --provider anthropic:${model}`;
  }

  private mapApiError(e: InstanceType<Sdk['APIError']>, req: LlmRequest, model: string): unknown {
    const role = req.role;
    const call = callNoun(req);
    if (e.headers?.get(BUDGET_HEADER)) return new CallBudgetError(this.budget.used, this.budget.limit);
    const status = e.status ?? 0;
    const detail = apiErrorDetail(e);
    if (status === 404 && !namesModel(e, model)) {
      // No Messages API at that URL (a base URL ending in /v1 asks for /v1/v1/messages), not a model the API
      // does not serve: that 404 is the API's not_found_error naming the model ("model: claude-…").
      const url = this.messagesUrl();
      const base = this.baseURL ?? DEFAULT_BASE_URL;
      const fix = /\/v1\/*$/.test(base) ? `drop the trailing /v1 from ANTHROPIC_BASE_URL (${base}): the SDK adds /v1/messages itself` : `check ANTHROPIC_BASE_URL (${base}): it names the server's root, the SDK adds /v1/messages`;
      return new ProviderError(`no Messages API at ${url} (HTTP 404) for ${call}: ${detail}`, 'AUR4214', { url, call, detail, fix }, status, e);
    }
    const advice =
      status === 401 || status === 403
        ? 'check ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL)'
        : status === 404
          ? // The API answers 404 for a model id it does not serve: a retired model (claude-sonnet-4-5 after
            // 2026-11-30) or a typo. `aureus validate` cannot know the retirement happened, so say it here.
            `the API does not serve model "${model}" (retired or mistyped): change ${this.routeKey(req, model)} to a current model (${otherModels(model)}), commit it and run again`
          : status === 413
            ? // The prompt is the request: the scene packet (packets.token_budget) plus the static context.
              'the prompt is too large for the API: lower packets.token_budget in aureus.config.yaml (the scene packets) or shorten style/style_guide.md and style/lexicon.md (sent with every writer call), commit and run again'
            : status === 429
              ? 'rate limited even after retries: lower --concurrency or raise budgets.retries; the run is resumable'
              : status >= 500
                ? 'the provider is failing or overloaded; retry later, the run is resumable'
                : 'the request was rejected; run `aureus validate` and check the model ids and settings in aureus.config.yaml';
    return new ProviderError(`the provider answered HTTP ${status} for ${call}: ${detail}`, 'AUR4203', { status, role, call, detail, advice }, status, e);
  }
}

/** Whether a 404 is the API's answer to a model it does not serve: a not_found_error whose message names the model. */
function namesModel(e: { error?: unknown }, model: string): boolean {
  const inner = (e.error as { error?: { type?: string; message?: string } } | undefined)?.error;
  return inner?.type === 'not_found_error' && typeof inner.message === 'string' && inner.message.includes(model);
}

/** The URL a fetch was asked for, whatever form it came in. */
function urlOf(input: string | URL | Request): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

/** The current lineup without the model the API just refused: never advise the model that failed. */
function otherModels(failed: string): string {
  return CURRENT_LINEUP.split(', ').filter((m) => m !== failed).join(', ');
}

/** The answer's text: text blocks only, in order (thinking and redacted_thinking blocks are skipped). */
export function textOf(content: ReadonlyArray<{ type: string; text?: string }>): string {
  return content.map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('');
}

/** The usage of a stream cut before message_delta: its output is at least the text it sent. */
function cutUsage(u: LlmUsage, text: string): LlmUsage {
  return { ...u, output_tokens: Math.max(u.output_tokens, estimateTokens(text)) };
}

function addUsage(a: LlmUsage, b: LlmUsage): LlmUsage {
  return { input_tokens: a.input_tokens + b.input_tokens, output_tokens: a.output_tokens + b.output_tokens, cache_read_tokens: a.cache_read_tokens + b.cache_read_tokens, cache_write_tokens: a.cache_write_tokens + b.cache_write_tokens };
}

/**
 * A failed call whose cut attempts were billed carries their usage (`billedUsage`), so the router
 * logs and counts it (router.ts); an error that is not an object is left as it is.
 */
function withBilledUsage(e: unknown, billed: LlmUsage): unknown {
  const any = billed.input_tokens + billed.output_tokens + billed.cache_read_tokens + billed.cache_write_tokens > 0;
  if (any && typeof e === 'object' && e !== null) Object.assign(e, { billedUsage: { ...billed } });
  return e;
}

export function usageOf(u: Partial<Anthropic.Usage> | undefined): LlmUsage {
  return {
    input_tokens: u?.input_tokens ?? 0,
    output_tokens: u?.output_tokens ?? 0,
    cache_write_tokens: u?.cache_creation_input_tokens ?? 0,
    cache_read_tokens: u?.cache_read_input_tokens ?? 0,
  };
}

function apiErrorDetail(e: { error?: unknown; message: string }): string {
  const inner = (e.error as { error?: { type?: string; message?: string } } | undefined)?.error;
  if (inner?.message) return `${inner.type ?? 'error'}: ${inner.message}`.slice(0, 300);
  return e.message.slice(0, 300);
}
