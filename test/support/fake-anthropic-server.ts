/**
 * A local stand-in for the Anthropic Messages API (POST /v1/messages), for tests and the
 * reliability harness. It speaks the real wire format — JSON answers and SSE streams with
 * message_start / content_block_start / content_block_delta / content_block_stop /
 * message_delta / message_stop and usage with the cache fields — so the real SDK talks to it
 * through ANTHROPIC_BASE_URL. Nothing is mocked in-process.
 *
 * Scripting: queue steps with `server.script(...)`; each request takes the next step, and when
 * the queue is empty `handler(req, i)` decides (default: `steps.ok('ok')`). Every request is
 * recorded (method, path, headers, parsed body), so tests count retries, inspect cache_control
 * placement and check what reached the wire.
 *
 *   const server = await startFakeAnthropic();
 *   server.script(steps.rateLimited(), steps.overloaded(), steps.ok('Salve.'));
 *   env.ANTHROPIC_BASE_URL = server.url;  ...  expect(server.requests).toHaveLength(3);
 *   await server.close();
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeBatches } from './fake-batches.js';

export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export type FakeStep =
  /**
   * A successful answer; JSON or SSE as the request asks (`stream: true`). `thinking` puts a
   * thinking block before the text, as adaptive thinking on 5.x models does.
   */
  | { kind: 'ok'; text: string; stop_reason?: string; usage?: Partial<FakeUsage>; model?: string; delayMs?: number; thinking?: string; hold?: FakeHold }
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

export interface FakeRequest {
  index: number;
  method: string;
  path: string;
  /** Lower-cased header names, as received. */
  headers: Record<string, string>;
  body: FakeMessagesBody | undefined;
  raw: string;
}

export interface FakeMessagesBody {
  model: string;
  max_tokens: number;
  stream?: boolean;
  system?: Array<{ type: 'text'; text: string; cache_control?: { type: string } }> | string;
  messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
  [k: string]: unknown;
}

export interface FakeAnthropicServer {
  /** Base URL for ANTHROPIC_BASE_URL, e.g. http://127.0.0.1:40123 */
  readonly url: string;
  readonly requests: FakeRequest[];
  /** Queue steps, consumed one per request in order. */
  script(...steps: FakeStep[]): void;
  /** Steps still queued. */
  readonly queued: number;
  /** Decides when the queue is empty. */
  handler: (req: FakeRequest, index: number) => FakeStep;
  /**
   * Simulate prompt caching for `ok` steps without explicit usage: the first request whose
   * cache_control-marked prefix is new reports it as cache_creation_input_tokens, later ones as
   * cache_read_input_tokens (chars / 4). Default true.
   */
  simulateCache: boolean;
  /** Answer HTTP 400 to any body a 5.x model would refuse (rejectionFor5x). Default true. */
  strict5x: boolean;
  /** Requests that were refused by strict5x (tests assert none). */
  readonly rejected: FakeRequest[];
  /** The Message Batches endpoints' state (see fake-batches.ts). */
  readonly batches: FakeBatches;
  /** Forget recorded requests, queued steps and seen cache prefixes; restore the default handler. */
  reset(): void;
  close(): Promise<void>;
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
  badRequest: (message = 'model: not found'): FakeStep => ({ kind: 'status', status: 400, errorType: 'invalid_request_error', message }),
  reset: (): FakeStep => ({ kind: 'reset' }),
  truncated: (text: string, cut: 'destroy' | 'end' = 'destroy'): FakeStep => ({ kind: 'truncate', text, cut }),
  /** An answer cut by the token limit: text as given, stop_reason max_tokens. */
  maxTokens: (text: string): FakeStep => ({ kind: 'ok', text, stop_reason: 'max_tokens' }),
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

/**
 * Why a 5.x model would answer this body with HTTP 400, or null. The rules as of 2026-11:
 * non-default sampling parameters, thinking budgets or `thinking: disabled`, forced tool choice,
 * assistant prefill (a last assistant turn), empty turns, and an unknown effort.
 */
export function rejectionFor5x(body: FakeMessagesBody | undefined): string | null {
  if (!body || !/^claude-[a-z]+-5-\d/.test(body.model)) return null;
  for (const k of ['temperature', 'top_p', 'top_k']) if (body[k] !== undefined) return `${k}: sampling parameters are not supported on ${body.model}`;
  const thinking = body.thinking as { type?: string; budget_tokens?: number } | undefined;
  if (thinking && (thinking.type === 'disabled' || thinking.budget_tokens !== undefined)) return `thinking: only adaptive thinking is supported on ${body.model}`;
  const tc = body.tool_choice as { type?: string } | undefined;
  if (tc && (tc.type === 'tool' || tc.type === 'any')) return `tool_choice: forced tool use is not supported on ${body.model}`;
  const msgs = body.messages ?? [];
  if (msgs.length && msgs[msgs.length - 1].role === 'assistant') return `messages: assistant prefill is not supported on ${body.model}`;
  if (msgs.some((m) => (typeof m.content === 'string' ? m.content.trim() === '' : m.content.length === 0))) return 'messages: all messages must have non-empty content';
  const oc = body.output_config as { effort?: string; format?: { type?: string; schema?: unknown } } | undefined;
  if (oc?.effort !== undefined && !['low', 'medium', 'high', 'xhigh', 'max'].includes(oc.effort)) return `output_config.effort: unknown value ${oc.effort}`;
  if (oc?.format && (oc.format.type !== 'json_schema' || typeof oc.format.schema !== 'object')) return 'output_config.format: expected {type: "json_schema", schema}';
  return null;
}

/** The API key a request carried (`x-api-key`, or `authorization: Bearer …` as newer SDKs send it). */
export function apiKeyOf(req: FakeRequest): string | undefined {
  if (req.headers['x-api-key']) return req.headers['x-api-key'];
  const m = /^Bearer (.+)$/.exec(req.headers['authorization'] ?? '');
  return m?.[1];
}

/** A writer answer in the spec §6.3 format, for tests that need a well-formed one. */
export function writerAnswer(sceneText: string, claims: unknown[] = [], events: unknown[] = []): string {
  return `---SCENE_TEXT---\n${sceneText}\n\n---CLAIMS---\n${JSON.stringify(claims)}\n\n---SCENE_EVENTS---\n${JSON.stringify(events)}\n`;
}

export async function startFakeAnthropic(opts: { handler?: FakeAnthropicServer['handler'] } = {}): Promise<FakeAnthropicServer> {
  const queue: FakeStep[] = [];
  const requests: FakeRequest[] = [];
  const seenPrefixes = new Set<string>();
  const sockets = new Set<import('node:net').Socket>();
  let msgCounter = 0;

  const state = {
    handler: opts.handler ?? ((): FakeStep => steps.ok('ok')),
    simulateCache: true,
    strict5x: true,
  };
  const rejected: FakeRequest[] = [];
  const batches = new FakeBatches((params, i) => {
    // A batch item is answered like a /v1/messages request (queue, then handler).
    const rec: FakeRequest = { index: -1 - i, method: 'POST', path: '/v1/messages (batch)', headers: {}, body: params as FakeMessagesBody, raw: JSON.stringify(params) };
    const why = state.strict5x ? rejectionFor5x(rec.body) : null;
    if (why) {
      rejected.push(rec);
      return { type: 'errored', error: { type: 'error', error: { type: 'invalid_request_error', message: why } } };
    }
    const step = queue.length ? queue.shift()! : state.handler(rec, rec.index);
    if (step.kind !== 'ok') return { type: 'errored', error: { type: 'error', error: { type: 'api_error', message: `fake step ${step.kind}` } } };
    return { type: 'succeeded', message: messageOf(step, rec.body, `msg_batch_${i}`) };
  });

  const usageFor = (step: { usage?: Partial<FakeUsage> }, body: FakeMessagesBody | undefined, text: string): FakeUsage => {
    if (step.usage) return { ...DEFAULT_USAGE, ...step.usage };
    const u: FakeUsage = { ...DEFAULT_USAGE, output_tokens: Math.max(1, Math.ceil(text.length / 4)) };
    if (state.simulateCache && body && Array.isArray(body.system)) {
      // The cached prefix runs through the last block marked with cache_control.
      const lastMark = body.system.map((b) => Boolean(b.cache_control)).lastIndexOf(true);
      const marked = body.system.slice(0, lastMark + 1).map((b) => b.text).join('\n');
      if (marked) {
        const t = Math.ceil(marked.length / 4);
        if (seenPrefixes.has(marked)) u.cache_read_input_tokens = t;
        else {
          seenPrefixes.add(marked);
          u.cache_creation_input_tokens = t;
        }
      }
    }
    return u;
  };

  const sse = (res: http.ServerResponse, type: string, data: unknown) => res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: FakeMessagesBody | undefined;
      try {
        body = raw ? (JSON.parse(raw) as FakeMessagesBody) : undefined;
      } catch {
        body = undefined;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v ?? '');
      const index = requests.length;
      const record: FakeRequest = { index, method: req.method ?? '', path: req.url ?? '', headers, body, raw };
      requests.push(record);

      if ((req.url ?? '').startsWith('/v1/messages/batches')) {
        batches.handle(req.method ?? '', req.url ?? '', body, res);
        return;
      }
      if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/messages')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const why = state.strict5x ? rejectionFor5x(body) : null;
      if (why) {
        rejected.push(record);
        void answer({ kind: 'status', status: 400, errorType: 'invalid_request_error', message: why }, record, res);
        return;
      }
      let step: FakeStep;
      try {
        step = queue.length ? queue.shift()! : state.handler(record, index);
      } catch (e) {
        // A handler that throws is a bug in the test's model: answer 500 with it rather than hang the client.
        step = { kind: 'status', status: 500, errorType: 'api_error', message: `fake handler threw: ${(e as Error).stack ?? e}` };
      }
      void answer(step, record, res);
    });
  });

  async function answer(step: FakeStep, rec: FakeRequest, res: http.ServerResponse): Promise<void> {
    const body = rec.body;
    const requestId = `req_fake_${rec.index}`;
    if (step.kind === 'hang') return;
    if (step.kind === 'stall') {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
      res.write('{"id":"msg_stalled","type":"message",');
      return;
    }
    if (step.kind === 'reset') {
      res.socket?.destroy();
      return;
    }
    if ('delayMs' in step && step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs));
    if (step.kind === 'status') {
      const h: Record<string, string> = { 'content-type': 'application/json', 'request-id': requestId };
      if (step.retryAfter !== undefined) h['retry-after'] = String(step.retryAfter);
      if (step.retryAfterMs !== undefined) h['retry-after-ms'] = String(step.retryAfterMs);
      res.writeHead(step.status, h);
      res.end(JSON.stringify({ type: 'error', error: { type: step.errorType, message: step.message } }));
      return;
    }
    const model = (step.kind === 'ok' && step.model) || body?.model || 'claude-fake';
    const id = `msg_fake_${++msgCounter}`;
    const text = step.text;
    const usage = usageFor('usage' in step ? step : {}, body, text);
    if (!body?.stream) {
      if (step.kind === 'truncate' || step.kind === 'stream_error') {
        // A non-streaming answer cut mid-body.
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
        res.write(JSON.stringify({ id, type: 'message', role: 'assistant', content: [{ type: 'text', text }] }).slice(0, 40));
        res.socket?.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
      res.end(JSON.stringify({ ...messageOf(step, body, id), usage }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': requestId });
    sse(res, 'message_start', {
      type: 'message_start',
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
    });
    let bi = 0;
    if (step.kind === 'ok' && step.thinking) {
      sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: step.thinking } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig_fake' } });
      sse(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
      bi = 1;
    }
    sse(res, 'content_block_start', { type: 'content_block_start', index: bi, content_block: { type: 'text', text: '' } });
    sse(res, 'ping', { type: 'ping' });
    const pieces = text.match(/[\s\S]{1,40}/g) ?? [];
    const partial = step.kind === 'truncate' || step.kind === 'stream_error';
    const sent = partial ? pieces.slice(0, Math.max(1, Math.floor(pieces.length / 2))) : pieces;
    const hold = step.kind === 'ok' ? step.hold : undefined;
    for (const [i, p] of sent.entries()) {
      if (hold && i === hold.after) await hold.until;
      sse(res, 'content_block_delta', { type: 'content_block_delta', index: bi, delta: { type: 'text_delta', text: p } });
    }
    if (step.kind === 'stream_error') {
      sse(res, 'error', { type: 'error', error: { type: step.errorType ?? 'overloaded_error', message: 'Overloaded' } });
      res.end();
      return;
    }
    if (step.kind === 'truncate') {
      if (step.cut === 'destroy') {
        // Let the written events leave before cutting, as a real mid-stream drop would.
        await new Promise((r) => setTimeout(r, 5));
        res.socket?.destroy();
      } else res.end();
      return;
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index: bi });
    sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: step.stop_reason ?? 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
    sse(res, 'message_stop', { type: 'message_stop' });
    res.end();
  }

  /** The JSON message for an `ok` step (non-streamed answers and batch results). */
  function messageOf(step: Extract<FakeStep, { kind: 'ok' }>, body: FakeMessagesBody | undefined, id: string): Record<string, unknown> {
    const content: unknown[] = [];
    if (step.thinking) content.push({ type: 'thinking', thinking: step.thinking, signature: 'sig_fake' });
    content.push({ type: 'text', text: step.text });
    return {
      id,
      type: 'message',
      role: 'assistant',
      model: step.model || body?.model || 'claude-fake',
      content,
      stop_reason: step.stop_reason ?? 'end_turn',
      stop_sequence: null,
      usage: usageFor(step, body, step.text),
    };
  }

  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const api: FakeAnthropicServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...s) => void queue.push(...s),
    get queued() {
      return queue.length;
    },
    get handler() {
      return state.handler;
    },
    set handler(fn) {
      state.handler = fn;
    },
    get simulateCache() {
      return state.simulateCache;
    },
    set simulateCache(v) {
      state.simulateCache = v;
    },
    get strict5x() {
      return state.strict5x;
    },
    set strict5x(v) {
      state.strict5x = v;
    },
    rejected,
    batches,
    reset: () => {
      requests.length = 0;
      queue.length = 0;
      seenPrefixes.clear();
      rejected.length = 0;
      batches.reset();
      state.strict5x = true;
      state.handler = opts.handler ?? ((): FakeStep => steps.ok('ok'));
      state.simulateCache = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  return api;
}
