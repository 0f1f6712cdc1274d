// A local Messages API for the wire benchmark: latency 200 ms + 1 ms per output token, the 5.x
// tokenizer (about 1.3x chars/4), prompt caching of the prefix through the last cache_control
// block when it reaches the model's minimum, and answers the bench registers in advance (the
// offline realizers' text) padded with thinking to realistic sizes. JSON and SSE, as the SDK asks.
import http from 'node:http';
import { createHash } from 'node:crypto';

export const OUTPUT_TOKENS = { writer: 1000, director: 3000, critic: 300, proposals: 400, recap: 400 };
const MIN_CACHE = { 'claude-haiku-5-5': 2048 };
const tok = (chars) => Math.ceil((chars / 4) * 1.3);
export const answerKey = (lastUser) => createHash('sha256').update(lastUser).digest('hex');

export async function startWireServer() {
  const answers = new Map(); // key -> { role, text }
  const seen = new Set();
  const requests = [];
  const refused = { count: 0 };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}');
      requests.push(body);
      // What a 5.x model answers with HTTP 400 (counted, so the bench can report zero).
      const last0 = (body.messages ?? []).at(-1);
      if (['temperature', 'top_p', 'top_k', 'thinking', 'tool_choice'].some((k) => k in body) || last0?.role === 'assistant') refused.count++;
      const msgs = body.messages ?? [];
      const last = msgs[msgs.length - 1]?.content ?? '';
      // Answers are registered under the last user turn; a re-ask falls back to the first turn's.
      const a = answers.get(answerKey(last)) ?? answers.get(answerKey(msgs[0]?.content ?? '')) ?? { role: 'unknown', text: '{}' };
      const system = body.system ?? [];
      const mark = system.map((b) => Boolean(b.cache_control)).lastIndexOf(true);
      const prefix = system.slice(0, mark + 1).map((b) => b.text).join('\n');
      const rest = system.slice(mark + 1).map((b) => b.text).join('\n') + msgs.map((m) => m.content).join('\n');
      const usage = { input_tokens: tok(rest.length), output_tokens: Math.max(tok(a.text.length), OUTPUT_TOKENS[a.role] ?? 300), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      const pt = tok(prefix.length);
      if (mark >= 0 && pt >= (MIN_CACHE[body.model] ?? 1024)) {
        const k = `${body.model}\u0000${prefix}`;
        if (seen.has(k)) usage.cache_read_input_tokens = pt;
        else {
          seen.add(k);
          usage.cache_creation_input_tokens = pt;
        }
      } else usage.input_tokens += pt;
      setTimeout(() => reply(res, body, a.text, usage), 200 + usage.output_tokens);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    answers,
    requests,
    refused,
    close: () => new Promise((r) => server.close(r)),
  };
}

function reply(res, body, text, usage) {
  const id = `msg_wire_${Math.random().toString(36).slice(2)}`;
  const content = [{ type: 'thinking', thinking: 'Weighing the scene…', signature: 'sig' }, { type: 'text', text }];
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model: body.model, content, stop_reason: 'end_turn', stop_sequence: null, usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const sse = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  sse('message_start', { message: { id, type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
  sse('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
  sse('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'Weighing the scene…' } });
  sse('content_block_stop', { index: 0 });
  sse('content_block_start', { index: 1, content_block: { type: 'text', text: '' } });
  for (const p of text.match(/[\s\S]{1,400}/g) ?? []) sse('content_block_delta', { index: 1, delta: { type: 'text_delta', text: p } });
  sse('content_block_stop', { index: 1 });
  sse('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  sse('message_stop', {});
  res.end();
}
