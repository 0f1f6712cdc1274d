/**
 * The SSE encoding of a streamed answer of the fake Messages API (fake-anthropic-server.ts), as
 * the real API sends it: message_start, content blocks (an optional thinking block, then the
 * text in 40-character deltas), message_delta with the stop reason and usage, message_stop. The
 * faults `truncate` and `stream_error` send half the text, then cut or break the stream.
 */
import type http from 'node:http';
import type { FakeStep, FakeUsage } from './fake-anthropic-steps.js';

/** A step that carries text to send. */
export type TextStep = Extract<FakeStep, { kind: 'ok' | 'truncate' | 'stream_error' }>;

/** What the stream's events carry besides the step's text. */
export interface StreamMeta {
  id: string;
  model: string;
  usage: FakeUsage;
  requestId: string;
}

const sse = (res: http.ServerResponse, type: string, data: unknown) => res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);

/** A complete thinking block at index 0, as adaptive thinking streams one before the text. */
function thinkingBlock(res: http.ServerResponse, thinking: string): void {
  sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
  sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking } });
  sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig_fake' } });
  sse(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
}

/** The text deltas of block `bi`: all pieces, or the first half for a fault; an `ok` step's hold pauses them. */
async function textDeltas(res: http.ServerResponse, step: TextStep, bi: number): Promise<void> {
  const pieces = step.text.match(/[\s\S]{1,40}/g) ?? [];
  const partial = step.kind === 'truncate' || step.kind === 'stream_error';
  const sent = partial ? pieces.slice(0, Math.max(1, Math.floor(pieces.length / 2))) : pieces;
  const hold = step.kind === 'ok' ? step.hold : undefined;
  for (const [i, p] of sent.entries()) {
    if (hold && i === hold.after) await hold.until;
    sse(res, 'content_block_delta', { type: 'content_block_delta', index: bi, delta: { type: 'text_delta', text: p } });
  }
}

/** Stream the answer to `step` as server-sent events, ending (or breaking) the response. */
export async function streamAnswer(res: http.ServerResponse, step: TextStep, m: StreamMeta): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': m.requestId });
  sse(res, 'message_start', {
    type: 'message_start',
    message: { id: m.id, type: 'message', role: 'assistant', model: m.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...m.usage, output_tokens: 1 } },
  });
  let bi = 0;
  if (step.kind === 'ok' && step.thinking) {
    thinkingBlock(res, step.thinking);
    bi = 1;
  }
  const text = !(step.kind === 'ok' && step.noText);
  if (text) sse(res, 'content_block_start', { type: 'content_block_start', index: bi, content_block: { type: 'text', text: '' } });
  sse(res, 'ping', { type: 'ping' });
  if (text) await textDeltas(res, step, bi);
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
  if (text) sse(res, 'content_block_stop', { type: 'content_block_stop', index: bi });
  sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: step.stop_reason ?? 'end_turn', stop_sequence: null }, usage: { output_tokens: m.usage.output_tokens } });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}
