import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { steps, writerAnswer } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { openLlm } from '../../src/providers/index.js';
import { MemoryRunLog } from '../../src/providers/run-log.js';
import { LlmAbortedError } from '../../src/providers/errors.js';
import { FAKE_KEY, anthropicConfig, criticRequest, tempRoot, writerRequest } from './helpers.js';

/** `--batch`: the Message Batches API through the real SDK against the fake server's batch endpoints. */
const server = useFakeAnthropic({ resetEachTest: true });
let root: string;
beforeEach(async () => {
  root = await tempRoot('aureus-batch-');
});

function open(runDir: string, signal?: AbortSignal, abortGraceMs?: number) {
  const runLog = new MemoryRunLog();
  const llm = openLlm({ root, config: anthropicConfig(), env: anthropicEnv(server, FAKE_KEY), runLog, signal, batch: { runDir, pollMs: 10, ...(abortGraceMs ? { abortGraceMs } : {}) } });
  return { llm, runLog };
}

const layer = () => [1, 2, 3].map((i) => writerRequest({ meta: { scene: `SC0${i}` }, messages: [{ role: 'user', content: `packet ${i}` }] }));

describe('season run --batch: the Message Batches API', () => {
  it('sends a layer of calls as one batch, polls it, answers each call by custom_id at half price', async () => {
    server.handler = (req) => steps.ok(writerAnswer(`scene for ${req.body!.messages[0]!.content as string}`), { usage: { input_tokens: 1000, output_tokens: 1000 } });
    server.batches.pollsToEnd = 3;
    const runDir = path.join(root, 'run');
    const { llm, runLog } = open(runDir);
    const res = await Promise.all(layer().map((r) => llm.complete(r)));
    expect(res.map((r) => r.text)).toEqual([1, 2, 3].map((i) => writerAnswer(`scene for packet ${i}`)));
    expect(server.batches.created).toHaveLength(1);
    expect(server.batches.created[0]!.requests).toHaveLength(3);
    expect(server.batches.calls.filter((c) => c.startsWith('GET /v1/messages/batches/msgbatch')).length).toBeGreaterThanOrEqual(3);
    // No per-call /v1/messages request, nothing a 5.x model refuses, no stream flag in a batch item.
    expect(server.requests.filter((r) => r.path === '/v1/messages')).toEqual([]);
    expect(server.rejected).toEqual([]);
    expect(server.batches.created[0]!.requests.every((r) => r.params.stream === undefined)).toBe(true);
    // Sonnet 5.5 at half price: (1000 x $2 + 1000 x $10) / 1e6 / 2.
    expect(res.every((r) => r.cost_usd === 0.006)).toBe(true);
    expect(runLog.entries).toHaveLength(3);
    const record = JSON.parse(fs.readFileSync(path.join(runDir, 'batches.json'), 'utf8'));
    expect(record.batches).toEqual([{ id: server.batches.created[0]!.id, custom_ids: expect.any(Array) }]);
  });

  it('a killed run resumes by polling the batch it already sent, not by sending a new one', async () => {
    server.handler = () => steps.ok(writerAnswer('INT. CURIA - DAY'));
    const runDir = path.join(root, 'run');
    const first = open(runDir);
    await Promise.all(layer().map((r) => first.llm.complete(r)));
    expect(server.batches.created).toHaveLength(1);
    // A new process (a resumed run) asks the same calls: they are answered from the recorded batch.
    const second = open(runDir);
    const again = await Promise.all(layer().map((r) => second.llm.complete(r)));
    expect(again.every((r) => r.text === writerAnswer('INT. CURIA - DAY'))).toBe(true);
    expect(server.batches.created).toHaveLength(1);
  });

  it('Ctrl-C cancels the batch in flight and the calls fail as interrupted', async () => {
    server.batches.pollsToEnd = 1000;
    const ac = new AbortController();
    const { llm } = open(path.join(root, 'run'), ac.signal);
    const calls = [criticRequest(), ...layer()].map((r) => llm.complete(r).catch((e: unknown) => e));
    // Ctrl-C while the batch is in flight: once it is being polled (a loaded machine may take a while).
    await waitFor(() => server.batches.created.length > 0 && server.batches.calls.some((c) => c.startsWith('GET /v1/messages/batches/msgbatch')));
    ac.abort(new Error('SIGINT'));
    const errs = await Promise.all(calls);
    expect(errs.every((e) => e instanceof LlmAbortedError)).toBe(true);
    // The cancel request is sent on the abort, not awaited by the calls: wait for it (bounded).
    const cancelled = () => server.batches.calls.some((c) => /^POST \/v1\/messages\/batches\/msgbatch_fake_\d+\/cancel$/.test(c));
    await waitFor(cancelled);
    expect(cancelled()).toBe(true);
  });

  const cancelledIds = () => server.batches.calls.flatMap((c) => /^POST \/v1\/messages\/batches\/(msgbatch_fake_\d+)\/cancel$/.exec(c)?.[1] ?? []);

  it('Ctrl-C while the batch is being created: the batch the server made is recorded and cancelled, not left running', async () => {
    server.batches.createDelayMs = 300;
    const ac = new AbortController();
    const runDir = path.join(root, 'run');
    const { llm } = open(runDir, ac.signal);
    const calls = layer().map((r) => llm.complete(r).catch((e: unknown) => e));
    // The server has made the batch; its answer (the id) is still on the way.
    await waitFor(() => server.batches.created.length > 0);
    expect(server.batches.createsAnswered).toBe(0);
    ac.abort(new Error('SIGINT'));
    const errs = await Promise.all(calls);
    expect(errs.every((e) => e instanceof LlmAbortedError)).toBe(true);
    await waitFor(() => cancelledIds().length > 0);
    expect(cancelledIds()).toEqual([server.batches.created[0]!.id]);
    // Recorded too: a resumed run knows the batch (and sends its cancelled calls again, below).
    const record = JSON.parse(fs.readFileSync(path.join(runDir, 'batches.json'), 'utf8'));
    expect(record.batches.map((b: { id: string }) => b.id)).toEqual([server.batches.created[0]!.id]);
    // Nothing was ever polled: the run stopped.
    expect(server.batches.calls.filter((c) => c.startsWith('GET '))).toEqual([]);
  });

  it('Ctrl-C with a create request that does not answer: the run stops after the grace period and cancels the batch if its answer comes', async () => {
    server.batches.createDelayMs = 1500;
    const ac = new AbortController();
    const { llm } = open(path.join(root, 'run'), ac.signal, 50);
    const calls = layer().map((r) => llm.complete(r).catch((e: unknown) => e));
    await waitFor(() => server.batches.created.length > 0);
    ac.abort(new Error('SIGINT'));
    const errs = await Promise.all(calls);
    expect(errs.every((e) => e instanceof LlmAbortedError)).toBe(true);
    // The calls failed before the server answered the create request…
    expect(server.batches.createsAnswered).toBe(0);
    // …and when it does answer, the batch is cancelled.
    await waitFor(() => cancelledIds().length > 0);
    expect(cancelledIds()).toEqual([server.batches.created[0]!.id]);
  });

  it('a run stopped with Ctrl-C resumes: the calls its cancelled batch left unanswered go out again in a new batch', async () => {
    server.handler = (req) => steps.ok(writerAnswer(`scene for ${req.body!.messages[0]!.content as string}`));
    server.batches.pollsToEnd = 1000;
    const runDir = path.join(root, 'run');
    const ac = new AbortController();
    const first = open(runDir, ac.signal);
    const calls = layer().map((r) => first.llm.complete(r).catch((e: unknown) => e));
    await waitFor(() => server.batches.calls.some((c) => c.startsWith('GET /v1/messages/batches/msgbatch')));
    ac.abort(new Error('SIGINT'));
    expect((await Promise.all(calls)).every((e) => e instanceof LlmAbortedError)).toBe(true);
    await waitFor(() => cancelledIds().length > 0);
    // The resumed run (a new process) polls the recorded batch, finds its items cancelled, and sends them again.
    server.batches.pollsToEnd = 1;
    const second = open(runDir);
    const res = await Promise.all(layer().map((r) => second.llm.complete(r)));
    expect(res.map((r) => r.text)).toEqual([1, 2, 3].map((i) => writerAnswer(`scene for packet ${i}`)));
    expect(server.batches.created).toHaveLength(2);
    expect(server.batches.created[1]!.requests.map((r) => r.custom_id).sort()).toEqual(server.batches.created[0]!.requests.map((r) => r.custom_id).sort());
    // A third run finds every answer in the second batch: nothing is sent again.
    const third = open(runDir);
    await Promise.all(layer().map((r) => third.llm.complete(r)));
    expect(server.batches.created).toHaveLength(2);
  });
});

/** Polls `done` every 20 ms for at most 10 s (then the test's own expectation reports the failure). */
async function waitFor(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
}
