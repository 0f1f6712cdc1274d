/**
 * The Message Batches endpoints of the fake Messages API (test/support/fake-anthropic-server.ts):
 *   POST /v1/messages/batches              create ({requests: [{custom_id, params}]})
 *   GET  /v1/messages/batches/<id>         retrieve (processing_status, request_counts, results_url)
 *   POST /v1/messages/batches/<id>/cancel  cancel
 *   GET  /v1/messages/batches/<id>/results JSONL, one {custom_id, result} per line
 * A batch ends after `pollsToEnd` retrieves (default 1); its items are answered then, each like a
 * /v1/messages request (the server's queue, then its handler), in submission order.
 */
import type http from 'node:http';

export type BatchItemResult =
  | { type: 'succeeded'; message: Record<string, unknown> }
  | { type: 'errored'; error: unknown }
  | { type: 'canceled' }
  | { type: 'expired' };

interface FakeBatch {
  id: string;
  requests: Array<{ custom_id: string; params: Record<string, unknown> }>;
  polls: number;
  status: 'in_progress' | 'canceling' | 'ended';
  canceled: boolean;
  results?: Array<{ custom_id: string; result: BatchItemResult }>;
}

export class FakeBatches {
  /** Retrieves before a batch ends. */
  pollsToEnd = 1;
  /** How long the answer to a create request is held back (the batch exists meanwhile, as on a slow network). */
  createDelayMs = 0;
  /** Create requests answered so far. */
  createsAnswered = 0;
  readonly created: FakeBatch[] = [];
  /** Every request to a batch endpoint, as `METHOD path`. */
  readonly calls: string[] = [];
  private counter = 0;
  private items = 0;

  constructor(private readonly answer: (params: Record<string, unknown>, i: number) => BatchItemResult) {}

  reset(): void {
    this.created.length = 0;
    this.calls.length = 0;
    this.pollsToEnd = 1;
    this.createDelayMs = 0;
    this.createsAnswered = 0;
  }

  handle(method: string, url: string, body: unknown, res: http.ServerResponse): void {
    const base = `http://${res.req.headers.host}`;
    const path = url.split('?')[0];
    this.calls.push(`${method} ${path}`);
    const m = /^\/v1\/messages\/batches(?:\/([^/]+))?(?:\/(cancel|results))?$/.exec(path);
    if (!m) return this.send(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no route ${method} ${url}` } });
    const [, id, action] = m;
    if (!id && method === 'POST') {
      const made = this.create(body);
      const answer = () => {
        this.createsAnswered++;
        this.send(res, 200, this.view(made, base));
      };
      if (this.createDelayMs > 0) setTimeout(answer, this.createDelayMs);
      else answer();
      return;
    }
    const batch = this.created.find((b) => b.id === id);
    if (!batch) return this.send(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no batch ${id}` } });
    if (!action && method === 'GET') {
      batch.polls++;
      if (batch.status !== 'ended' && batch.polls >= this.pollsToEnd) this.finish(batch);
      return this.send(res, 200, this.view(batch, base));
    }
    if (action === 'cancel' && method === 'POST') {
      batch.canceled = true;
      if (batch.status === 'in_progress') batch.status = 'canceling';
      return this.send(res, 200, this.view(batch, base));
    }
    if (action === 'results' && method === 'GET') {
      if (batch.status !== 'ended') return this.send(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'batch has not ended' } });
      res.writeHead(200, { 'content-type': 'application/binary' });
      res.end(batch.results!.map((r) => JSON.stringify(r)).join('\n') + '\n');
      return;
    }
    this.send(res, 405, { type: 'error', error: { type: 'invalid_request_error', message: `${method} not allowed` } });
  }

  private create(body: unknown): FakeBatch {
    const requests = ((body as { requests?: FakeBatch['requests'] })?.requests ?? []).map((r) => ({ custom_id: r.custom_id, params: r.params }));
    const b: FakeBatch = { id: `msgbatch_fake_${++this.counter}`, requests, polls: 0, status: 'in_progress', canceled: false };
    this.created.push(b);
    return b;
  }

  private finish(b: FakeBatch): void {
    b.results = b.requests.map((r) => ({ custom_id: r.custom_id, result: b.canceled ? ({ type: 'canceled' } as const) : this.answer(r.params, this.items++) }));
    b.status = 'ended';
  }

  private view(b: FakeBatch, base: string): Record<string, unknown> {
    const counts = { processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0 };
    if (b.status !== 'ended') counts.processing = b.requests.length;
    else for (const r of b.results!) counts[r.result.type]++;
    return {
      id: b.id,
      type: 'message_batch',
      processing_status: b.status,
      request_counts: counts,
      created_at: '2026-11-23T00:00:00Z',
      expires_at: '2026-11-24T00:00:00Z',
      ended_at: b.status === 'ended' ? '2026-11-23T00:01:00Z' : null,
      cancel_initiated_at: b.canceled ? '2026-11-23T00:00:30Z' : null,
      archived_at: null,
      results_url: b.status === 'ended' ? `${base}/v1/messages/batches/${b.id}/results` : null,
    };
  }

  private send(res: http.ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}
