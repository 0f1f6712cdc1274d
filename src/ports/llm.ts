/**
 * The one port every LLM call goes through (issue 5). Providers: `offline` (default without a key),
 * `anthropic:<model>`, `replay:<dir>`. The domain never imports a provider directly; stages receive
 * an `Llm` (router) and call `complete`.
 */

/** `format_fix`: one cheap call that repairs the form of a writer answer, never its prose (issue 13). */
export type LlmRole = 'director' | 'proposals' | 'writer' | 'critic' | 'recap' | 'format_fix';
export const LLM_ROLES: readonly LlmRole[] = ['director', 'proposals', 'writer', 'critic', 'recap', 'format_fix'];

export interface LlmMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface LlmRequest {
  role: LlmRole;
  /** Role instructions. */
  system: string;
  /**
   * Static, cacheable content (style guide, lexicon, operator and world digest). Sent after the role
   * instructions; the one cache breakpoint sits at its end, so instructions and context cache together.
   */
  static_context?: string;
  /** Cache the system prompt even without static_context (role instructions long enough to cache). */
  cache_system?: boolean;
  messages: LlmMessage[];
  /** If set, the answer must be JSON valid against this schema (validated, repaired, re-asked). */
  json_schema?: object;
  /** Name of the schema, for error messages. */
  schema_name?: string;
  /**
   * The answer's token limit. The config's `max_tokens.<role>` caps it and is the value when a
   * stage names none: a stage may ask for less (a short answer it knows the size of), never more.
   */
  max_tokens?: number;
  /**
   * The stage holds its own `max_tokens` under the config's cap (play's Actor line and beat classifier). Without it
   * the router sends the config's `max_tokens.<role>`, as every compile stage always has (their recordings stay valid).
   */
  own_max_tokens?: boolean;
  /** Re-asks after an invalid JSON answer for this call (default budgets.json_reasks). */
  max_reasks?: number;
  signal?: AbortSignal;
  /** Use the escalation model for this call (spec §7.2). */
  escalate?: boolean;
  /**
   * The structured task the prompt was rendered from (scene packet, character, plan inputs...).
   * The offline provider works from this instead of parsing prompts. Never part of the cache key.
   */
  payload?: unknown;
  /**
   * Streaming, an optional capability: a caller that shows the answer as it arrives (play's Actor)
   * passes a sink. A provider that streams tells it each piece of answer text, and `restart()`
   * before every attempt (a retry after a cut stream, a re-ask): what it told before is void.
   * Providers that do not stream (offline, replay, a cache hit) never call it, so the caller shows
   * the final answer instead. Not part of the cache key, never changes the answer.
   */
  stream?: LlmTextSink;
  /**
   * Where the answers to this call's attempts (its re-asks, a refusal's second ask, a cut answer's
   * ask with more room) are kept the moment they arrive, for a resumed run (pipeline/call-journal.ts).
   * Set by the run's call journal; not part of any key, never changes what is asked.
   */
  attempts?: AttemptJournal;
  /**
   * How many times the router already asked this very request within the call: 1 on a refusal's
   * second ask, which is the first ask again. Set by the router only; the record/replay cache keys
   * it (cache.ts), so the refusal and the answer after it are two entries and a replay meets both.
   */
  repeat?: number;
  /** Accounting labels for run_log.jsonl. */
  meta?: {
    episode?: string;
    scene?: string;
    attempt?: number;
    /** Distinguishes calls that share role/scene/attempt (e.g. the proposals character id). Also forks the offline Rng. */
    label?: string;
  };
}

/**
 * The paid answers to one call's attempts, attempt by attempt (LlmRequest.attempts). A call cut short
 * (Ctrl-C, a fatal error of another call) keeps the answers it already paid for; the same call of a
 * resumed run is answered from them, attempt by attempt, instead of paying for them again. `attempt`
 * is the router's re-ask count within the call (0 for the first ask).
 */
export interface AttemptJournal {
  /**
   * The answer journaled for this attempt, asked right before the attempt would be sent; it throws
   * instead when nothing more is to be asked (the run ended on a bad answer or refusal meanwhile).
   */
  replay(model: string, request: LlmRequest, attempt: number): LlmResponse | undefined;
  /** Called as the answer arrives, before it is judged; `charged_usd` is what it cost. */
  record(model: string, request: LlmRequest, attempt: number, answer: LlmResponse): void;
}

/** Where a streaming provider tells the answer text as it arrives (LlmRequest.stream). */
export interface LlmTextSink {
  text(delta: string): void;
  restart(): void;
}

export interface LlmUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

export interface LlmResponse {
  text: string;
  json?: unknown;
  usage: LlmUsage;
  cost_usd: number;
  model: string;
  provider: string;
  stop_reason: string;
  latency_ms: number;
  cached: boolean;
  /** Answered through the Message Batches API (billed at half price). */
  batch?: boolean;
  /**
   * A recorded answer: the prompt-cache TTL its cache writes were billed at when recorded (a 1-hour
   * write costs twice the input price), so it is priced as it was paid, not at this run's TTL.
   */
  cache_ttl?: '5m' | '1h';
  /**
   * What this call was charged (the router's sum over its re-asks): `cost_usd` without the
   * answers served from the record/replay cache, which were paid for when recorded. Attempts a
   * resumed run replays from its call journal count (paid by the run that asked them): the
   * journal's entry for the whole call says all it cost (pipeline/call-journal.ts journalSpend).
   */
  charged_usd?: number;
}

/** How `complete` is asked. */
export interface CompleteOptions {
  /**
   * The caller has just asked `recorded` and got undefined: ask without looking in what the
   * provider keeps again (one read of the record/replay cache per call, not two).
   */
  notRecorded?: boolean;
}

/** A provider answers one call with one concrete model. Routing (role -> model) happens above it. */
export interface LlmProvider {
  readonly id: string;
  complete(request: LlmRequest, model: string, opts?: CompleteOptions): Promise<LlmResponse>;
  /**
   * The answer `complete` would give from what it keeps (the record/replay cache), without asking
   * anyone; undefined when it would have to ask (then `complete` with `notRecorded`). The router
   * needs no `--max-cost` reservation for it.
   */
  recorded?(request: LlmRequest, model: string): Promise<LlmResponse | undefined>;
  /**
   * The answer to this request (as sent, with this model) was not usable: cut, refused, empty or
   * invalid. A provider that keeps answers for later runs (the record/replay cache) must not serve
   * it again; others need not implement it.
   */
  reject?(request: LlmRequest, model: string): Promise<void>;
}

/** What stages hold: routing, JSON validation/repair/re-ask, caching and accounting already applied. */
export interface Llm {
  complete(request: LlmRequest): Promise<LlmResponse>;
  /** True for the deterministic offline/replay providers. */
  readonly deterministic: boolean;
  readonly providerId: string;
}

/**
 * Whether a stage that has a symbolic answer (proposals, director) may use it after this error.
 * Only a bad model answer qualifies (providers mark those errors `badModelAnswer: true`). A replay
 * miss must stay loud (a silent fallback would hide a stale recording and change the episode), and
 * aborts, budget exhaustion and provider outages end the run so it can be resumed.
 */
export function isBadModelAnswer(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { badModelAnswer?: unknown }).badModelAnswer === true;
}
