import { beforeEach, describe, expect, it } from 'vitest';
import { steps, writerAnswer } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { openLlm } from '../../src/providers/index.js';
import { MemoryRunLog } from '../../src/providers/run-log.js';
import { LlmAbortedError, ProviderError } from '../../src/providers/errors.js';
import type { AureusConfig } from '../../src/config/types.js';
import { FAKE_KEY, anthropicConfig, tempRoot, writerRequest } from './helpers.js';

/**
 * What a call was billed when its answer did not arrive whole: a stream cut by the server, stopped
 * by Ctrl-C or the role's timeout, or cancelled by another call's fatal error. The server charges
 * the input it read and the output it sent; the run log, the price and --max-cost count it.
 */
const server = useFakeAnthropic({ resetEachTest: true });
let root: string;
beforeEach(async () => {
  root = await tempRoot();
});

function open(config: AureusConfig, runLog = new MemoryRunLog(), signal?: AbortSignal) {
  const llm = openLlm({ root, config, env: anthropicEnv(server, FAKE_KEY), runLog, signal });
  return { llm, runLog };
}

describe('anthropic provider: answers billed but not whole', () => {
  it('a stream cut before message_stop was billed: its usage is in the call\'s run-log line, its cost and --max-cost', async () => {
    const text = writerAnswer('INT. VILLA - NIGHT\n\nDRUSILLA: You are not angry. You are afraid.');
    const usage = { input_tokens: 1200, output_tokens: 300, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    server.script({ kind: 'truncate', text, cut: 'end', usage }, steps.ok(text, { usage }));
    const { llm, runLog } = open(anthropicConfig());
    const res = await llm.complete(writerRequest());
    expect(server.requests).toHaveLength(2);
    // The cut attempt's input (told by message_start) is billed as the answer's is.
    expect(res.usage.input_tokens).toBe(2400);
    expect(runLog.entries).toHaveLength(1);
    expect(runLog.entries[0]).toMatchObject({ input_tokens: 2400, cost_usd: res.cost_usd });
    expect(llm.costGuard.spent).toBeCloseTo(res.cost_usd, 9);

    // Cut every time: the failure's line still says what was billed.
    server.script({ kind: 'truncate', text, cut: 'end', usage }, { kind: 'truncate', text, cut: 'end', usage });
    const { llm: failing, runLog: failLog } = open(anthropicConfig((c) => (c.budgets.retries = 1)));
    const err = (await failing.complete(writerRequest()).catch((e: unknown) => e)) as ProviderError;
    expect(err.diagnostics[0].code).toBe('AUR4206');
    expect(failLog.entries).toHaveLength(1);
    expect(failLog.entries[0]).toMatchObject({ error: 'AUR4206', input_tokens: 2400 });
    expect(failLog.entries[0].cost_usd).toBeGreaterThan(0);
    expect(failing.costGuard.spent).toBeCloseTo(failLog.entries[0].cost_usd, 9);
  });

  it('a stream stopped mid-answer by Ctrl-C or the timeout was billed: its usage and cost are in the failure\'s run-log line and --max-cost', async () => {
    const text = writerAnswer('INT. VILLA - NIGHT\n\nDRUSILLA: You are not angry. You are afraid. '.repeat(6));
    const usage = { input_tokens: 1200, output_tokens: 300, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    let release = () => {};
    const held = () => steps.ok(text, { usage, hold: { after: 2, until: new Promise<void>((r) => (release = r)) } });

    // Ctrl-C while the writer's answer is half sent.
    server.script(held());
    const ac = new AbortController();
    const { llm, runLog } = open(anthropicConfig(), new MemoryRunLog(), ac.signal);
    const seen: string[] = [];
    // The interrupt comes while the client waits for the rest of the answer.
    const interrupt = () => setTimeout(() => ac.abort(new Error('SIGINT')), 50);
    const call = llm.complete(writerRequest({ signal: ac.signal, stream: { text: (d) => (seen.push(d) === 1 ? interrupt() : undefined), restart: () => {} } }));
    const err = await call.catch((e: unknown) => e);
    release();
    expect(err).toBeInstanceOf(LlmAbortedError);
    expect(seen.length).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(1); // stopped, not asked again
    expect(runLog.entries).toHaveLength(1);
    expect(runLog.entries[0]).toMatchObject({ role: 'writer', input_tokens: 1200 });
    expect(runLog.entries[0]!.output_tokens).toBeGreaterThan(0);
    expect(runLog.entries[0]!.cost_usd).toBeGreaterThan(0);
    expect(llm.costGuard.spent).toBeCloseTo(runLog.entries[0]!.cost_usd, 9);

    // The role's timeout while the answer is half sent: AUR4207, billed the same way.
    server.script(held());
    const { llm: slow, runLog: slowLog } = open(anthropicConfig((c) => ((c.timeouts_ms.writer = 300), (c.budgets.retries = 0))));
    const timedOut = (await slow.complete(writerRequest()).catch((e: unknown) => e)) as ProviderError;
    release();
    expect(timedOut.diagnostics[0]!.code).toBe('AUR4207');
    expect(slowLog.entries).toHaveLength(1);
    expect(slowLog.entries[0]).toMatchObject({ error: 'AUR4207', input_tokens: 1200 });
    expect(slowLog.entries[0]!.cost_usd).toBeGreaterThan(0);

    // Cancelled by another call's fatal error (401) while half sent: the fatal error ends the run, and the billed call is logged.
    let first = true;
    server.handler = () => (first ? ((first = false), held()) : steps.unauthorized());
    const { llm: both, runLog: bothLog } = open(anthropicConfig());
    const halfSent = both.complete(writerRequest({ stream: { text: () => {}, restart: () => {} } })).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    const fatal = await both.complete(writerRequest({ meta: { scene: 'SC02' } })).catch((e: unknown) => e);
    expect((await halfSent) as unknown).toBe(fatal);
    release();
    expect(bothLog.entries.map((e) => [e.error, e.input_tokens])).toEqual(expect.arrayContaining([[expect.any(String), 1200]]));
    expect(bothLog.entries.find((e) => e.input_tokens === 1200)!.cost_usd).toBeGreaterThan(0);
  });
});
