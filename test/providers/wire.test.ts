import { beforeEach, describe, expect, it } from 'vitest';
import { steps, writerAnswer } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { openLlm } from '../../src/providers/index.js';
import { MemoryRunLog } from '../../src/providers/run-log.js';
import { CallBudgetError, CostCapError, ProviderError } from '../../src/providers/errors.js';
import { ExitCode } from '../../src/errors.js';
import type { AureusConfig } from '../../src/config/types.js';
import { FAKE_KEY, anthropicConfig, criticRequest, tempRoot, writerRequest } from './helpers.js';

/** The wire on the 5.x models: what we send, what we read, and how a run stops. Real SDK, local server. */
const server = useFakeAnthropic({ resetEachTest: true });
let root: string;
beforeEach(async () => {
  root = await tempRoot();
});

function open(patch: (c: AureusConfig) => void = () => {}, runLog = new MemoryRunLog()) {
  return { llm: openLlm({ root, config: anthropicConfig(patch), env: anthropicEnv(server, FAKE_KEY), runLog }), runLog };
}

describe('the 5.x wire', () => {
  it('sends effort and the JSON schema in output_config, and nothing a 5.x model refuses', async () => {
    server.script(steps.json({ verdict: 'PASS', violations: [] }), steps.ok(writerAnswer('INT. CURIA - DAY')));
    const { llm } = open();
    await llm.complete(criticRequest());
    await llm.complete(writerRequest());
    const [critic, writer] = server.requests.map((r) => r.body!);
    expect(critic.output_config).toMatchObject({ effort: 'low', format: { type: 'json_schema', schema: { type: 'object', required: ['verdict', 'violations'] } } });
    expect(writer.output_config).toEqual({ effort: 'medium' });
    for (const body of [critic, writer]) {
      for (const k of ['temperature', 'top_p', 'top_k', 'thinking', 'tool_choice']) expect(body).not.toHaveProperty(k);
      expect(body.messages.at(-1)!.role).toBe('user');
    }
    expect(critic.max_tokens).toBe(1500); // max_tokens.critic from the config, not the stage's 800
    expect(server.rejected).toEqual([]);
  });

  it('the fake server refuses what the real API refuses on 5.x models (so the test above can fail)', async () => {
    server.strict5x = true;
    const res = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': FAKE_KEY },
      body: JSON.stringify({ model: 'claude-sonnet-5-5', max_tokens: 10, temperature: 0.7, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/temperature/);
  });

  it('reads content blocks by type: thinking never reaches the text, streamed or not', async () => {
    server.script(steps.thinking('Let me weigh the verdict…', '{"verdict":"PASS","violations":[]}'), steps.thinking('Plan the scene: rain, a knife.', writerAnswer('EXT. OSTIA - NIGHT')));
    const { llm } = open();
    const c = await llm.complete(criticRequest());
    expect(c.text).toBe('{"verdict":"PASS","violations":[]}');
    expect(c.json).toEqual({ verdict: 'PASS', violations: [] });
    const w = await llm.complete(writerRequest());
    expect(server.requests[1].body!.stream).toBe(true);
    expect(w.text).toBe(writerAnswer('EXT. OSTIA - NIGHT'));
    expect(w.text).not.toMatch(/rain, a knife/);
  });

  it('re-asks an empty answer without an empty assistant turn', async () => {
    server.script(steps.ok(''), steps.json({ verdict: 'PASS', violations: [] }));
    const { llm } = open();
    const res = await llm.complete(criticRequest());
    expect(res.json).toEqual({ verdict: 'PASS', violations: [] });
    const second = server.requests[1].body!.messages;
    expect(second).toHaveLength(1);
    expect(second[0]).toMatchObject({ role: 'user', content: expect.stringMatching(/SCENE_TEXT[\s\S]*not valid JSON/) });
    expect(server.rejected).toEqual([]);
  });

  it('times out a non-streamed answer whose body stalls after the headers', async () => {
    server.script(steps.stall());
    const { llm } = open((c) => ((c.timeouts_ms.critic = 1000), (c.budgets.retries = 0)));
    const t0 = Date.now();
    const err = await llm.complete(criticRequest()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).diagnostics[0].code).toBe('AUR4207');
    expect(Date.now() - t0).toBeLessThan(4000);
  });

  it('caps retry-after at budgets.retry_after_max_s', async () => {
    server.script(steps.rateLimited(86_400), steps.json({ verdict: 'PASS', violations: [] }));
    const { llm } = open((c) => (c.budgets.retry_after_max_s = 0.05));
    const t0 = Date.now();
    const res = await llm.complete(criticRequest());
    expect(res.json).toMatchObject({ verdict: 'PASS' });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(server.requests).toHaveLength(2);
  });

  it('cancels queued and in-flight calls after a fatal error, failing them with that error', async () => {
    server.script(steps.unauthorized(), steps.hang());
    const { llm } = open((c) => (c.concurrency = 2));
    const t0 = Date.now();
    const calls = Array.from({ length: 8 }, (_, i) => llm.complete(criticRequest({ meta: { scene: `SC0${i}` } })).catch((e: unknown) => e));
    const errs = await Promise.all(calls);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(errs.every((e) => e instanceof ProviderError && e.exitCode === ExitCode.PROVIDER)).toBe(true);
    expect(new Set(errs).size).toBe(1); // the same 401 everywhere
    expect(server.requests.length).toBeLessThanOrEqual(2); // the 401 and the one hanging in flight
  });

  it('lets the calls in flight land when the call budget runs out, logging what they cost, and sends nothing more', async () => {
    // The writer call is slow and answers; the critic's retries of a 429 spend the budget of 3 requests meanwhile.
    server.handler = (req) => ((req.body?.output_config as { format?: unknown } | undefined)?.format ? steps.rateLimited(0.001) : steps.ok(writerAnswer('INT. VILLA - NIGHT'), { usage: { input_tokens: 1000, output_tokens: 1000 }, delayMs: 400 }));
    const { llm, runLog } = open((c) => ((c.concurrency = 2), (c.budgets.provider_calls_per_episode = 3), (c.budgets.retries = 5)));
    const writer = llm.complete(writerRequest({ meta: { scene: 'SC01' } })).catch((e: unknown) => e);
    const critic = llm.complete(criticRequest({ meta: { scene: 'SC02' } })).catch((e: unknown) => e);
    const queued = llm.complete(criticRequest({ meta: { scene: 'SC03' } })).catch((e: unknown) => e);
    expect(await critic).toBeInstanceOf(CallBudgetError);
    // Sent within the budget and paid for: answered, not cancelled, and in the run log with its cost.
    const answered = await writer;
    expect(answered).not.toBeInstanceOf(Error);
    expect((answered as { text: string }).text).toContain('INT. VILLA - NIGHT');
    expect(runLog.entries.filter((e) => e.role === 'writer' && e.cost_usd !== undefined && e.cost_usd > 0)).toHaveLength(1);
    // The call waiting for a slot fails with the same error, unsent.
    expect(await queued).toBe(await critic);
    expect(server.requests).toHaveLength(3);
  });

  it('--max-cost: a call that fits only once the calls in flight settle waits for them, whatever the timing', async () => {
    // A Sonnet writer call can cost up to 6000 output tokens x $10/M = $0.06 (plus its prompt).
    const { llm, runLog } = open((c) => ((c.budgets.max_cost_usd = 0.13), (c.concurrency = 4)));
    server.handler = () => steps.ok(writerAnswer('INT. VILLA - NIGHT'), { usage: { input_tokens: 1000, output_tokens: 1000 }, delayMs: 100 });
    const results = await Promise.all([1, 2, 3].map((i) => llm.complete(writerRequest({ meta: { scene: `SC0${i}` } })).catch((e: unknown) => e)));
    // Two fit side by side ($0.12 reserved); the third waits for them, then fits on the $0.024 really
    // spent. Refusing it at once would make the outcome depend on which calls were in flight.
    expect(results.filter((r) => r instanceof CostCapError)).toHaveLength(0);
    expect(server.requests).toHaveLength(3);
    // The spend is what the answers cost: 3 x (1000 x $2 + 1000 x $10) / 1e6.
    expect(llm.costGuard.spent).toBeCloseTo(0.036, 6);
    expect(runLog.entries).toHaveLength(3);
  });

  it('--max-cost stops before a call whose worst case would pass the cap on the real spend (exit 5), saying what was spent', async () => {
    const { llm, runLog } = open((c) => ((c.budgets.max_cost_usd = 0.07), (c.concurrency = 4)));
    server.handler = () => steps.ok(writerAnswer('INT. VILLA - NIGHT'), { usage: { input_tokens: 1000, output_tokens: 1000 }, delayMs: 100 });
    const results = await Promise.all([1, 2].map((i) => llm.complete(writerRequest({ meta: { scene: `SC0${i}` } })).catch((e: unknown) => e)));
    // The first is sent; the second waits for it, then $0.012 spent + up to $0.06 could pass $0.07: refused unsent.
    expect(results.filter((r) => r instanceof CostCapError)).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
    const err = results.find((r) => r instanceof CostCapError) as CostCapError;
    expect(err.exitCode).toBe(ExitCode.BUDGET_EXHAUSTED);
    expect(err.diagnostics[0]).toMatchObject({ code: 'AUR4209', hint: expect.stringMatching(/nothing was committed/) });
    // The spend stated is the answer's cost, not spend plus reservations.
    expect(err.message).toMatch(/could take the spend past \$0\.0700: \$0\.0120 spent, no call in flight$/);
    expect(runLog.entries).toHaveLength(1);
  });

  it('lets the first call of a cacheable prefix go alone, so the others read the cache it wrote', async () => {
    server.handler = () => steps.ok(writerAnswer('INT. DOMUS - DAY'), { delayMs: 50 });
    const { llm, runLog } = open((c) => (c.concurrency = 8));
    // A style guide long enough to cache on Sonnet 5.5 (at least 1024 tokens).
    const guide = 'STYLE GUIDE: Street scenes use short sentences. Court scenes use one rhetorical device.\n'.repeat(60);
    await Promise.all([1, 2, 3, 4, 5].map((i) => llm.complete(writerRequest({ static_context: guide, meta: { scene: `SC0${i}` }, messages: [{ role: 'user', content: `packet ${i}` }] }))));
    const writes = runLog.entries.filter((e) => e.cache_write_tokens > 0);
    const reads = runLog.entries.filter((e) => e.cache_read_tokens > 0);
    expect(writes).toHaveLength(1);
    expect(reads).toHaveLength(4);
    expect(server.requests[0].body!.messages[0].content).toBe('packet 1');

    // Without the warm-up (a prefix too short to cache) the calls fan out at once.
    server.reset();
    server.handler = () => steps.ok(writerAnswer('INT. DOMUS - DAY'), { delayMs: 300 });
    const { llm: llm2 } = open((c) => (c.concurrency = 8));
    await llm2.complete(writerRequest({ system: 'warm-up' })); // load the SDK outside the timing
    const t0 = Date.now();
    await Promise.all([1, 2, 3].map((i) => llm2.complete(writerRequest({ meta: { scene: `SC0${i}` }, messages: [{ role: 'user', content: `packet ${i}` }] }))));
    expect(Date.now() - t0).toBeLessThan(550); // gated, it would take two answer times (600 ms)
  });
});
