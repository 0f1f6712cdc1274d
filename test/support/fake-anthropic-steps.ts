/**
 * What the fake Messages API (fake-anthropic-server.ts) answers with: the step a request takes
 * from the script or the handler, the usage it reports, and builders for the common steps and
 * well-formed answers.
 */
export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export type FakeStep =
  /**
   * A successful answer; JSON or SSE as the request asks (`stream: true`). `thinking` puts a
   * thinking block before the text, as adaptive thinking on 5.x models does. `noText`: no text
   * block at all (`content: []`, or the thinking block alone), as a model that says nothing answers.
   */
  | { kind: 'ok'; text: string; stop_reason?: string; usage?: Partial<FakeUsage>; model?: string; delayMs?: number; thinking?: string; hold?: FakeHold; noText?: boolean }
  /** Send the headers and part of the body, then stall (never finish). */
  | { kind: 'stall' }
  /** An HTTP error with the API's error body. `retryAfter` (seconds) and `retryAfterMs` set those headers. */
  | { kind: 'status'; status: number; errorType: string; message: string; retryAfter?: number; retryAfterMs?: number; delayMs?: number }
  /** Destroy the socket without answering (ECONNRESET on the client). */
  | { kind: 'reset' }
  /** Start an SSE stream, send part of the text, then cut it (destroy) or end it early without message_stop. */
  | { kind: 'truncate'; text: string; cut: 'destroy' | 'end'; usage?: Partial<FakeUsage> }
  /** Start an SSE stream, send part of the text, then an `error` event (overloaded mid-stream), then end. */
  | { kind: 'stream_error'; text: string; errorType?: string }
  /** Never answer (until the client gives up or aborts). */
  | { kind: 'hang' };

/**
 * Streamed answers only: send the first `after` pieces (40 characters each), then wait for `until`
 * before the rest, as a model still thinking mid-answer does. A test proves the client shows the
 * first part while the rest has not been sent.
 */
export interface FakeHold {
  after: number;
  until: Promise<void>;
}

export const DEFAULT_USAGE: FakeUsage = { input_tokens: 100, output_tokens: 50, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

/** Step builders for the faults the issue lists. */
export const steps = {
  ok: (text: string, o: { stop_reason?: string; usage?: Partial<FakeUsage>; model?: string; delayMs?: number; thinking?: string; hold?: FakeHold } = {}): FakeStep => ({ kind: 'ok', text, ...o }),
  /** An answer that starts with a thinking block (adaptive thinking). */
  thinking: (thinking: string, text: string): FakeStep => ({ kind: 'ok', text, thinking }),
  stall: (): FakeStep => ({ kind: 'stall' }),
  json: (value: unknown, o: { usage?: Partial<FakeUsage> } = {}): FakeStep => ({ kind: 'ok', text: JSON.stringify(value), ...o }),
  /** 429 with retry-after in seconds (fractions allowed: 0.001 keeps tests fast). */
  rateLimited: (retryAfter = 0.001): FakeStep => ({ kind: 'status', status: 429, errorType: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit', retryAfter }),
  overloaded: (retryAfterMs = 1): FakeStep => ({ kind: 'status', status: 529, errorType: 'overloaded_error', message: 'Overloaded', retryAfterMs }),
  serverError: (retryAfterMs = 1): FakeStep => ({ kind: 'status', status: 500, errorType: 'api_error', message: 'Internal server error', retryAfterMs }),
  unauthorized: (): FakeStep => ({ kind: 'status', status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' }),
  /** What the API answers for a model id it does not serve (a retired or mistyped one). */
  notFound: (model: string): FakeStep => ({ kind: 'status', status: 404, errorType: 'not_found_error', message: `model: ${model}` }),
  badRequest: (message = 'model: not found'): FakeStep => ({ kind: 'status', status: 400, errorType: 'invalid_request_error', message }),
  reset: (): FakeStep => ({ kind: 'reset' }),
  truncated: (text: string, cut: 'destroy' | 'end' = 'destroy'): FakeStep => ({ kind: 'truncate', text, cut }),
  /** An answer cut by the token limit: text as given, stop_reason max_tokens. */
  maxTokens: (text: string): FakeStep => ({ kind: 'ok', text, stop_reason: 'max_tokens' }),
  /** An answer with no content blocks at all: `content: []`. */
  empty: (): FakeStep => ({ kind: 'ok', text: '', noText: true }),
  /** An answer with a thinking block and nothing after it. */
  thinkingOnly: (thinking = 'The scene lands its hook; I will pass it.'): FakeStep => ({ kind: 'ok', text: '', thinking, noText: true }),
  /** A JSON-role answer that is not JSON at all (jsonrepair cannot save it). */
  malformedJson: (): FakeStep => ({ kind: 'ok', text: 'I think the plan should focus on the grain dole, as follows: first, Crassus' }),
  /** A writer answer in the §6.3 format with the ---SCENE_EVENTS--- section missing. */
  missingSection: (): FakeStep => ({
    kind: 'ok',
    text: '---SCENE_TEXT---\nINT. CURIA - DAY\n\nCICERO rises.\n\nCICERO: How long, Catilina?\n\n---CLAIMS---\n[]\n',
  }),
  /** A stream that breaks with an SSE `error` event after part of the text (the API does this when overloaded). */
  streamError: (text: string, errorType = 'overloaded_error'): FakeStep => ({ kind: 'stream_error', text, errorType }),
  hang: (): FakeStep => ({ kind: 'hang' }),
};

/** A writer answer in the spec §6.3 format, for tests that need a well-formed one. */
export function writerAnswer(sceneText: string, claims: unknown[] = [], events: unknown[] = []): string {
  return `---SCENE_TEXT---\n${sceneText}\n\n---CLAIMS---\n${JSON.stringify(claims)}\n\n---SCENE_EVENTS---\n${JSON.stringify(events)}\n`;
}
