import fs from 'node:fs';
import { pause } from './pause.js';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { writeAtomic } from '../store/atomic-write.js';
import type { LlmProvider, LlmRequest, LlmResponse } from '../ports/llm.js';
import type { AnthropicProvider } from './anthropic.js';
import { textOf, usageOf } from './anthropic.js';
import { LlmAbortedError, ProviderError } from './errors.js';
import { callNoun } from './retry-notice.js';

/**
 * The Message Batches API behind the provider port (`season run --batch`): half price, answers
 * within minutes to hours. Calls that arrive together (a dependency layer: the principals'
 * proposals, then the director, then every scene's writer, then the critics…) are collected for
 * `windowMs` and sent as one batch; the batch is polled with backoff and each call is answered
 * from the results by its `custom_id` (a hash of the request body, so the same call maps to the
 * same id on resume). The batch ids are written to `<runDir>/batches.json` as soon as a batch is
 * created: a killed run resumes by polling the same batches instead of paying for new ones.
 * Ctrl-C (the signal) cancels the batches in flight. The create request itself is not aborted: the
 * server may have made the batch already, and only its id lets us cancel it (an aborted request
 * would leave a batch running, and billed, that nothing knows of). A batch created after the abort
 * is recorded and cancelled at once. A recorded call whose item was cancelled or expired is sent
 * again in a new batch, so a run stopped with Ctrl-C resumes.
 */
export interface BatchOptions {
  runDir: string;
  signal?: AbortSignal;
  /** How long to collect calls before sending a batch. */
  windowMs?: number;
  /** First poll interval; it doubles up to maxPollMs. */
  pollMs?: number;
  maxPollMs?: number;
  /** After Ctrl-C, how long a batch's create request may still take before the run stops without its answer. */
  abortGraceMs?: number;
}

interface Waiter {
  req: LlmRequest;
  model: string;
  resolve: (r: LlmResponse) => void;
  reject: (e: unknown) => void;
}

/** A recorded call the server did not answer: its batch was cancelled (a Ctrl-C) or expired, or it is not in the results. */
function unanswered(result: unknown): boolean {
  const type = (result as { type?: string } | undefined)?.type;
  return type === undefined || type === 'canceled' || type === 'expired';
}

interface BatchRecord {
  id: string;
  custom_ids: string[];
}


export class BatchProvider implements LlmProvider {
  readonly id = 'anthropic';
  private readonly inner: AnthropicProvider;
  private readonly o: Required<Omit<BatchOptions, 'signal'>> & { signal?: AbortSignal };
  private readonly file: string;
  private pending = new Map<string, { body: unknown; waiters: Waiter[] }>();
  private timer: NodeJS.Timeout | undefined;
  /** custom_id → batch id, from batches.json and from batches created in this run. */
  private readonly known = new Map<string, string>();
  private readonly polls = new Map<string, Promise<Map<string, unknown>>>();
  private readonly live = new Set<string>();

  constructor(inner: AnthropicProvider, o: BatchOptions) {
    this.inner = inner;
    this.o = { windowMs: 50, pollMs: 1000, maxPollMs: 60_000, abortGraceMs: 15_000, ...o };
    this.file = path.join(o.runDir, 'batches.json');
    for (const b of this.readRecords()) for (const c of b.custom_ids) this.known.set(c, b.id);
    o.signal?.addEventListener('abort', () => void this.cancelAll(), { once: true });
  }

  async complete(req: LlmRequest, model: string): Promise<LlmResponse> {
    if (this.o.signal?.aborted) throw new LlmAbortedError(req.role, this.o.signal.reason);
    const body = await this.inner.body(req, model);
    const customId = createHash('sha256').update(JSON.stringify(body)).digest('hex');
    const t0 = performance.now();
    const known = this.known.get(customId);
    let result = known ? (await this.poll(known)).get(customId) : undefined;
    if (this.o.signal?.aborted) throw new LlmAbortedError(req.role, this.o.signal.reason);
    if (!known || unanswered(result))
      result = await new Promise<unknown>((resolve, reject) => {
          const entry = this.pending.get(customId) ?? { body, waiters: [] };
          entry.waiters.push({ req, model, resolve: resolve as (r: LlmResponse) => void, reject });
          this.pending.set(customId, entry);
          clearTimeout(this.timer);
          this.timer = setTimeout(() => void this.flush(), this.o.windowMs);
        });
    return this.answer(req, model, result, Math.round(performance.now() - t0));
  }

  private answer(req: LlmRequest, model: string, result: unknown, latency: number): LlmResponse {
    const r = result as { type?: string; message?: { content: Array<{ type: string; text?: string }>; usage: object; model?: string; stop_reason?: string }; error?: { error?: { message?: string } } } | undefined;
    if (r?.type === 'succeeded' && r.message) {
      const m = r.message;
      return { text: textOf(m.content), usage: usageOf(m.usage), cost_usd: 0, model: m.model || model, provider: this.id, stop_reason: m.stop_reason ?? 'unknown', latency_ms: latency, cached: false, batch: true };
    }
    if (this.o.signal?.aborted || r?.type === 'canceled') throw new LlmAbortedError(req.role, this.o.signal?.reason);
    const detail = r?.type === 'errored' ? (r.error?.error?.message ?? 'errored') : (r?.type ?? 'no result');
    throw new ProviderError(`the provider failed for ${callNoun(req)}: batch item ${detail}`, 'AUR4208', { role: req.role, call: callNoun(req), detail: `batch item ${detail}` });
  }

  /** Send what was collected as one batch, record its id, then answer each waiter from its results. */
  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    if (batch.size === 0) return;
    const all = [...batch.values()].flatMap((e) => e.waiters);
    try {
      const { client } = await this.inner.load();
      const requests = [...batch].map(([custom_id, e]) => ({ custom_id, params: e.body as never }));
      // No signal here (see the class comment): an abort meanwhile is looked at once the id is known.
      const creating = client.messages.batches.create({ requests });
      const giveUp = this.afterAbort(this.o.abortGraceMs);
      const created = await Promise.race([creating, giveUp.promise]).finally(giveUp.dispose);
      if (created === undefined) {
        // Stopped waiting after Ctrl-C: should the answer still come while the process lives, cancel it.
        creating.then((c) => this.cancel(c.id), () => undefined);
        throw this.o.signal?.reason;
      }
      this.live.add(created.id);
      for (const id of batch.keys()) this.known.set(id, created.id);
      if (this.o.signal?.aborted) void this.cancel(created.id); // cancelAll ran before this id existed
      await this.writeRecord({ id: created.id, custom_ids: [...batch.keys()] });
      if (this.o.signal?.aborted) throw this.o.signal.reason;
      const results = await this.poll(created.id);
      for (const [id, e] of batch) for (const w of e.waiters) w.resolve(results.get(id) as LlmResponse);
    } catch (e) {
      for (const w of all) w.reject(this.o.signal?.aborted ? new LlmAbortedError(w.req.role, e) : e);
    }
  }

  /**
   * A promise resolved (undefined) `ms` after the signal aborts; never without a signal. Its timer
   * never keeps the process alive; `dispose` drops the listener (a season sends many batches).
   */
  private afterAbort(ms: number): { promise: Promise<undefined>; dispose: () => void } {
    const signal = this.o.signal;
    let start = () => {};
    const promise = new Promise<undefined>((resolve) => {
      start = () => void setTimeout(() => resolve(undefined), ms).unref();
    });
    if (signal?.aborted) start();
    else signal?.addEventListener('abort', start, { once: true });
    return { promise, dispose: () => signal?.removeEventListener('abort', start) };
  }

  /** Poll a batch until it ends (backoff), then read its results by custom_id; shared per batch. */
  private poll(batchId: string): Promise<Map<string, unknown>> {
    let p = this.polls.get(batchId);
    if (!p) {
      p = this.pollOnce(batchId);
      this.polls.set(batchId, p);
    }
    return p;
  }

  private async pollOnce(batchId: string): Promise<Map<string, unknown>> {
    const { client } = await this.inner.load();
    this.live.add(batchId);
    let wait = this.o.pollMs;
    for (;;) {
      const b = await client.messages.batches.retrieve(batchId, {}, { signal: this.o.signal });
      if (b.processing_status === 'ended') break;
      await pause(wait, this.o.signal);
      if (this.o.signal?.aborted) throw new LlmAbortedError('writer', this.o.signal.reason);
      wait = Math.min(this.o.maxPollMs, wait * 2);
    }
    this.live.delete(batchId);
    const out = new Map<string, unknown>();
    for await (const item of await client.messages.batches.results(batchId, {}, { signal: this.o.signal })) out.set(item.custom_id, item.result);
    return out;
  }

  private async cancelAll(): Promise<void> {
    clearTimeout(this.timer);
    for (const e of this.pending.values()) for (const w of e.waiters) w.reject(new LlmAbortedError(w.req.role, this.o.signal?.reason));
    this.pending.clear();
    await Promise.all([...this.live].map((id) => this.cancel(id)));
  }

  /** Asks the server to cancel a batch; a failure is ignored (the batch ends by itself, at worst answered and billed). */
  private async cancel(batchId: string): Promise<void> {
    try {
      const { client } = await this.inner.load();
      await client.messages.batches.cancel(batchId);
    } catch {
      /* see above */
    }
  }

  private readRecords(): BatchRecord[] {
    try {
      const v = JSON.parse(fs.readFileSync(this.file, 'utf8')) as { batches?: BatchRecord[] };
      return Array.isArray(v.batches) ? v.batches : [];
    } catch {
      return [];
    }
  }

  private async writeRecord(r: BatchRecord): Promise<void> {
    await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
    const batches = [...this.readRecords(), r];
    await writeAtomic(this.file, JSON.stringify({ format: 1, batches }, null, 2) + '\n');
  }
}
