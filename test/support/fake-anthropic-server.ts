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
import type { AddressInfo, Socket } from 'node:net';
import { FakeAnswers } from './fake-anthropic-answers.js';
import { recordOf, rejectionFor5x, type FakeMessagesBody, type FakeRequest } from './fake-anthropic-requests.js';
import { steps, type FakeStep } from './fake-anthropic-steps.js';
import { FakeBatches, type BatchItemResult } from './fake-batches.js';

// The server's API is this module's: the steps, the request records and their checks live beside it.
export { DEFAULT_USAGE, steps, writerAnswer, type FakeHold, type FakeStep, type FakeUsage } from './fake-anthropic-steps.js';
export { apiKeyOf, rejectionFor5x, type FakeMessagesBody, type FakeRequest } from './fake-anthropic-requests.js';

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

/** What the server scripts and records, and how it routes a request to an answer. */
class FakeMessages {
  readonly queue: FakeStep[] = [];
  readonly requests: FakeRequest[] = [];
  readonly rejected: FakeRequest[] = [];
  readonly answers = new FakeAnswers();
  readonly batches = new FakeBatches((params, i) => this.batchItem(params, i));
  handler: FakeAnthropicServer['handler'];
  strict5x = true;

  constructor(private readonly defaultHandler: () => FakeAnthropicServer['handler']) {
    this.handler = defaultHandler();
  }

  /** A batch item is answered like a /v1/messages request (queue, then handler). */
  private batchItem(params: Record<string, unknown>, i: number): BatchItemResult {
    const rec: FakeRequest = { index: -1 - i, method: 'POST', path: '/v1/messages (batch)', headers: {}, body: params as FakeMessagesBody, raw: JSON.stringify(params) };
    const why = this.strict5x ? rejectionFor5x(rec.body) : null;
    if (why) {
      this.rejected.push(rec);
      return { type: 'errored', error: { type: 'error', error: { type: 'invalid_request_error', message: why } } };
    }
    const step = this.queue.length ? this.queue.shift()! : this.handler(rec, rec.index);
    if (step.kind !== 'ok') return { type: 'errored', error: { type: 'error', error: { type: 'api_error', message: `fake step ${step.kind}` } } };
    return { type: 'succeeded', message: this.answers.messageOf(step, rec.body, `msg_batch_${i}`) };
  }

  /** Record one request (its whole body read) and answer it: batches, 404, a 5.x refusal, or the next step. */
  route(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
    const index = this.requests.length;
    const record = recordOf(req, raw, index);
    this.requests.push(record);
    const body = record.body;
    if ((req.url ?? '').startsWith('/v1/messages/batches')) {
      this.batches.handle(req.method ?? '', req.url ?? '', body, res);
      return;
    }
    if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/messages')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    const why = this.strict5x ? rejectionFor5x(body) : null;
    if (why) {
      this.rejected.push(record);
      void this.answers.answer({ kind: 'status', status: 400, errorType: 'invalid_request_error', message: why }, record, res);
      return;
    }
    let step: FakeStep;
    try {
      step = this.queue.length ? this.queue.shift()! : this.handler(record, index);
    } catch (e) {
      // A handler that throws is a bug in the test's model: answer 500 with it rather than hang the client.
      step = { kind: 'status', status: 500, errorType: 'api_error', message: `fake handler threw: ${(e as Error).stack ?? e}` };
    }
    void this.answers.answer(step, record, res);
  }

  reset(): void {
    this.requests.length = 0;
    this.queue.length = 0;
    this.rejected.length = 0;
    this.batches.reset();
    this.strict5x = true;
    this.handler = this.defaultHandler();
    this.answers.reset();
  }
}

export async function startFakeAnthropic(opts: { handler?: FakeAnthropicServer['handler'] } = {}): Promise<FakeAnthropicServer> {
  const m = new FakeMessages(() => opts.handler ?? ((): FakeStep => steps.ok('ok')));
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => m.route(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const api: FakeAnthropicServer = {
    url: `http://127.0.0.1:${port}`,
    requests: m.requests,
    script: (...s) => void m.queue.push(...s),
    get queued() {
      return m.queue.length;
    },
    get handler() {
      return m.handler;
    },
    set handler(fn) {
      m.handler = fn;
    },
    get simulateCache() {
      return m.answers.simulateCache;
    },
    set simulateCache(v) {
      m.answers.simulateCache = v;
    },
    get strict5x() {
      return m.strict5x;
    },
    set strict5x(v) {
      m.strict5x = v;
    },
    rejected: m.rejected,
    batches: m.batches,
    reset: () => m.reset(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  return api;
}
