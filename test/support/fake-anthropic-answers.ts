/**
 * How the fake Messages API (fake-anthropic-server.ts) answers one request with the step it took:
 * the faults (hang, stall, reset, HTTP errors, a cut body), a JSON message, or an SSE stream
 * (fake-anthropic-sse.ts), with usage that simulates prompt caching. The answers are shared with
 * the batch endpoints, whose items become the same JSON messages.
 */
import type http from 'node:http';
import type { FakeMessagesBody, FakeRequest } from './fake-anthropic-requests.js';
import { DEFAULT_USAGE, type FakeStep, type FakeUsage } from './fake-anthropic-steps.js';
import { streamAnswer } from './fake-anthropic-sse.js';

export class FakeAnswers {
  /** See FakeAnthropicServer.simulateCache. */
  simulateCache = true;
  private readonly seenPrefixes = new Set<string>();
  private msgCounter = 0;

  /** Forget the cache prefixes seen and simulate caching again (message ids keep counting). */
  reset(): void {
    this.seenPrefixes.clear();
    this.simulateCache = true;
  }

  /**
   * The step's usage over the defaults, or an estimate: output from the text's length and, with
   * simulateCache, the cache_control-marked system prefix as created the first time, read later.
   */
  usageFor(step: { usage?: Partial<FakeUsage> }, body: FakeMessagesBody | undefined, text: string): FakeUsage {
    if (step.usage) return { ...DEFAULT_USAGE, ...step.usage };
    const u: FakeUsage = { ...DEFAULT_USAGE, output_tokens: Math.max(1, Math.ceil(text.length / 4)) };
    if (this.simulateCache && body && Array.isArray(body.system)) {
      // The cached prefix runs through the last block marked with cache_control.
      const lastMark = body.system.map((b) => Boolean(b.cache_control)).lastIndexOf(true);
      const marked = body.system.slice(0, lastMark + 1).map((b) => b.text).join('\n');
      if (marked) {
        const t = Math.ceil(marked.length / 4);
        if (this.seenPrefixes.has(marked)) u.cache_read_input_tokens = t;
        else {
          this.seenPrefixes.add(marked);
          u.cache_creation_input_tokens = t;
        }
      }
    }
    return u;
  }

  /**
   * The JSON message for an `ok` step (non-streamed answers and batch results). `usage`: when the
   * caller has taken it already (usageFor records a cache prefix as seen, so it is taken once a request).
   */
  messageOf(step: Extract<FakeStep, { kind: 'ok' }>, body: FakeMessagesBody | undefined, id: string, usage: FakeUsage = this.usageFor(step, body, step.text)): Record<string, unknown> {
    const content: unknown[] = [];
    if (step.thinking) content.push({ type: 'thinking', thinking: step.thinking, signature: 'sig_fake' });
    if (!step.noText) content.push({ type: 'text', text: step.text });
    return {
      id,
      type: 'message',
      role: 'assistant',
      model: step.model || body?.model || 'claude-fake',
      content,
      stop_reason: step.stop_reason ?? 'end_turn',
      stop_sequence: null,
      usage,
    };
  }

  /** Answer `rec` on `res` as `step` says: JSON or SSE as the request asked, or the fault. */
  async answer(step: FakeStep, rec: FakeRequest, res: http.ServerResponse): Promise<void> {
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
    const id = `msg_fake_${++this.msgCounter}`;
    const text = step.text;
    const usage = this.usageFor('usage' in step ? step : {}, body, text);
    if (body?.stream) return streamAnswer(res, step, { id, model, usage, requestId });
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
    if (step.kind === 'truncate' || step.kind === 'stream_error') {
      // A non-streaming answer cut mid-body.
      res.write(JSON.stringify({ id, type: 'message', role: 'assistant', content: [{ type: 'text', text }] }).slice(0, 40));
      res.socket?.destroy();
      return;
    }
    res.end(JSON.stringify(this.messageOf(step, body, id, usage)));
  }
}
