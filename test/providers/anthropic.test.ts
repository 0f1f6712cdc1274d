import { beforeEach, describe, expect, it } from 'vitest';
import { apiKeyOf, steps, writerAnswer } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { openLlm } from '../../src/providers/index.js';
import { MemoryRunLog, summarizeRunLog } from '../../src/providers/run-log.js';
import { CallBudgetError, LlmAbortedError, LlmOutputError, LlmTruncatedError, ProviderError, canFallBackFrom } from '../../src/providers/errors.js';
import type { AureusConfig } from '../../src/config/types.js';
import { FAKE_KEY, anthropicConfig, criticRequest, tempRoot, writerRequest } from './helpers.js';

const server = useFakeAnthropic({ resetEachTest: true });
let root: string;
beforeEach(async () => {
  root = await tempRoot();
});

const env = () => anthropicEnv(server, FAKE_KEY);

function open(config: AureusConfig, runLog = new MemoryRunLog(), signal?: AbortSignal) {
  const llm = openLlm({ root, config, env: env(), runLog, signal });
  return { llm, runLog };
}


describe('anthropic provider against the fake Messages API', () => {
  it('routes roles to models, puts one cache breakpoint after all static content, and sends the key only as a header', async () => {
    server.script(steps.json({ verdict: 'PASS', violations: [] }), steps.ok('SCENE'), steps.json({ verdict: 'PASS', violations: [] }));
    const { llm } = open(anthropicConfig());
    const res = await llm.complete(criticRequest());
    expect(res.json).toEqual({ verdict: 'PASS', violations: [] });
    expect(res.model).toBe('claude-haiku-5-5');
    expect(res.provider).toBe('anthropic');
    expect(res.cached).toBe(false);
    await llm.complete(writerRequest({ escalate: true }));
    await llm.complete(criticRequest({ role: 'proposals' }));
    server.script(steps.json({ verdict: 'PASS', violations: [] }));
    await llm.complete(criticRequest({ escalate: true }));

    const [critic, writer, proposals, criticEscalated] = server.requests;
    expect(criticEscalated.body!.model).toBe('claude-sonnet-5-5'); // spec §6.4
    expect(critic.body!.model).toBe('claude-haiku-5-5');
    expect(writer.body!.model).toBe('claude-opus-5-5'); // escalated
    expect(proposals.body!.model).toBe('claude-haiku-5-5');
    const system = critic.body!.system as Array<{ text: string; cache_control?: unknown }>;
    // Role instructions, then the static context; the one breakpoint closes the static prefix.
    expect(system[0]).toEqual({ type: 'text', text: criticRequest().system });
    expect(system[1]).toEqual({ type: 'text', text: criticRequest().static_context, cache_control: { type: 'ephemeral' } });
    expect(critic.body!.messages).toEqual([{ role: 'user', content: criticRequest().messages[0].content }]);
    expect(apiKeyOf(critic)).toBe(FAKE_KEY);
    expect(critic.raw).not.toContain(FAKE_KEY);
    expect(critic.body!.stream).toBeFalsy();
  });

  it('pins one model for every role with anthropic:<model>', async () => {
    const { llm } = open(anthropicConfig((c) => (c.provider = 'anthropic:claude-sonnet-5-5')));
    server.script(steps.ok('a'), steps.ok('b'));
    await llm.complete(writerRequest({ escalate: true }));
    await llm.complete(criticRequest({ json_schema: undefined }));
    expect(server.requests.map((r) => r.body!.model)).toEqual(['claude-sonnet-5-5', 'claude-sonnet-5-5']);
    expect(llm.providerId).toBe('anthropic:claude-sonnet-5-5');
  });

  it('prices input, output, cache writes and cache reads from the config table', async () => {
    server.script(
      steps.json({ verdict: 'PASS', violations: [] }, { usage: { input_tokens: 1000, output_tokens: 500, cache_creation_input_tokens: 2000, cache_read_input_tokens: 0 } }),
      steps.json({ verdict: 'PASS', violations: [] }, { usage: { input_tokens: 1000, output_tokens: 500, cache_creation_input_tokens: 0, cache_read_input_tokens: 2000 } }),
    );
    const { llm, runLog } = open(anthropicConfig());
    const a = await llm.complete(criticRequest());
    const b = await llm.complete(criticRequest());
    // Haiku 5.5: $0.10 in, $0.50 out, $0.125 cache write, $0.01 cache read per MTok.
    expect(a.cost_usd).toBe(0.0006); // (1000*0.1 + 500*0.5 + 2000*0.125) / 1e6
    expect(b.cost_usd).toBe(0.00037); // (1000*0.1 + 500*0.5 + 2000*0.01) / 1e6
    expect(b.usage).toEqual({ input_tokens: 1000, output_tokens: 500, cache_write_tokens: 0, cache_read_tokens: 2000 });
    const sum = summarizeRunLog(runLog.entries);
    expect(sum.per_role.critic).toMatchObject({ calls: 2, input_tokens: 2000, output_tokens: 1000, cache_write_tokens: 2000, cache_read_tokens: 2000, cost_usd: 0.00097 });
    expect(sum.total.cost_usd).toBe(0.00097);
    expect(runLog.entries.every((e) => e.latency_ms >= 0 && e.model === 'claude-haiku-5-5' && e.scene === 'SC03')).toBe(true);
  });

  it('the fake server simulates prompt caching: first a cache write, then cache reads of the static prefix', async () => {
    const { llm, runLog } = open(anthropicConfig());
    await llm.complete(writerRequest({ meta: { scene: 'SC01' } }));
    await llm.complete(writerRequest({ meta: { scene: 'SC02' }, messages: [{ role: 'user', content: 'another packet' }] }));
    // The cached prefix is everything through the breakpoint: role instructions, then the static context.
    const prefix = Math.ceil(`${writerRequest().system}\n${writerRequest().static_context}`.length / 4);
    expect(runLog.entries.map((e) => [e.cache_write_tokens, e.cache_read_tokens])).toEqual([
      [prefix, 0],
      [0, prefix],
    ]);
    expect(runLog.entries[1].cost_usd).toBeLessThan(runLog.entries[0].cost_usd);
  });

  it('retries 429 (retry-after), 529 and 500 through the SDK and succeeds', async () => {
    server.script(steps.rateLimited(0.001), steps.overloaded(), steps.serverError(), steps.json({ verdict: 'FAIL', violations: [{ type: 'hook', message: 'no button line' }] }));
    const { llm, runLog } = open(anthropicConfig());
    const res = await llm.complete(criticRequest());
    expect(res.json).toMatchObject({ verdict: 'FAIL' });
    expect(server.requests).toHaveLength(4);
    expect(llm.budget.used).toBe(4);
    expect(runLog.entries).toHaveLength(1);
  });

  it('gives up after the configured retries with a typed provider error (exit 7)', async () => {
    server.script(steps.overloaded(), steps.overloaded(), steps.overloaded());
    const { llm, runLog } = open(anthropicConfig((c) => (c.budgets.retries = 2)));
    const err = await llm.complete(criticRequest()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).status).toBe(529);
    expect((err as ProviderError).exitCode).toBe(7);
    expect((err as ProviderError).diagnostics[0].code).toBe('AUR4203');
    expect(server.requests).toHaveLength(3);
    expect(runLog.entries[0]).toMatchObject({ role: 'critic', error: 'AUR4203', output_tokens: 0 });
  });

  it('does not retry a 401 and says to check the key', async () => {
    server.script(steps.unauthorized());
    const { llm } = open(anthropicConfig());
    const err = (await llm.complete(criticRequest()).catch((e: unknown) => e)) as ProviderError;
    expect(err.status).toBe(401);
    expect(err.diagnostics[0].hint).toMatch(/ANTHROPIC_API_KEY/);
    expect(err.message).not.toContain(FAKE_KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a 404 for a retired model and names the model and the current lineup', async () => {
    server.script(steps.notFound('claude-sonnet-4-5'));
    const { llm } = open(anthropicConfig((c) => (c.models.critic = 'claude-sonnet-4-5')));
    const err = (await llm.complete(criticRequest()).catch((e: unknown) => e)) as ProviderError;
    expect(err.status).toBe(404);
    expect(err.diagnostics[0].code).toBe('AUR4203');
    expect(err.diagnostics[0].hint).toMatch(/does not serve model "claude-sonnet-4-5".*change models\.critic in aureus\.config\.yaml \(or --model\) to a current model \(claude-sonnet-5-5, claude-haiku-5-5, claude-opus-5-5\)/);
    expect(server.requests).toHaveLength(1);
    expect((server.requests[0]!.body as { model: string }).model).toBe('claude-sonnet-4-5');
  });

  it('a 404 on the escalation model names models.escalation and never advises the model that failed', async () => {
    server.script(steps.notFound('claude-opus-5-5'));
    const { llm } = open(anthropicConfig());
    const err = (await llm.complete(writerRequest({ escalate: true })).catch((e: unknown) => e)) as ProviderError;
    expect(err.status).toBe(404);
    expect((server.requests[0]!.body as { model: string }).model).toBe('claude-opus-5-5');
    const hint = err.diagnostics[0].hint!;
    expect(hint).toMatch(/change models\.escalation in aureus\.config\.yaml \(or --model\) to a current model \(claude-sonnet-5-5, claude-haiku-5-5\)/);
    expect(hint).not.toMatch(/\(.*claude-opus-5-5.*\)/);
  });

  it('retries a connection reset', async () => {
    server.script(steps.reset(), steps.json({ verdict: 'PASS', violations: [] }));
    const { llm } = open(anthropicConfig());
    const res = await llm.complete(criticRequest());
    expect(res.json).toMatchObject({ verdict: 'PASS' });
    expect(server.requests).toHaveLength(2);
  });

  it('streams writer calls and collects text and usage from the SSE events', async () => {
    const text = writerAnswer('EXT. OSTIA - DOCKS - NIGHT\n\nRain. Crates. A knife.\n\nVARO: Move.', [{ fact: 'a grain ship burned' }], [{ event: 'fire' }]);
    server.script(steps.ok(text, { usage: { input_tokens: 1200, output_tokens: 300, cache_creation_input_tokens: 800, cache_read_input_tokens: 0 } }));
    const { llm } = open(anthropicConfig());
    const res = await llm.complete(writerRequest());
    expect(server.requests[0].body!.stream).toBe(true);
    expect(res.text).toBe(text);
    expect(res.stop_reason).toBe('end_turn');
    expect(res.usage).toEqual({ input_tokens: 1200, output_tokens: 300, cache_write_tokens: 800, cache_read_tokens: 0 });
    // Sonnet 5.5: (1200*2 + 300*10 + 800*2.5) / 1e6
    expect(res.cost_usd).toBe(0.0074);
  });

  it('retries a stream cut off mid-answer, and fails typed when it keeps being cut', async () => {
    const text = writerAnswer('INT. VILLA - NIGHT\n\nDRUSILLA: You are not angry. You are afraid.');
    server.script(steps.truncated(text, 'destroy'), steps.truncated(text, 'end'), steps.ok(text));
    const { llm } = open(anthropicConfig());
    const res = await llm.complete(writerRequest());
    expect(res.text).toBe(text);
    expect(server.requests).toHaveLength(3);

    server.requests.length = 0;
    server.script(steps.truncated(text, 'end'), steps.truncated(text, 'end'));
    const { llm: llm2 } = open(anthropicConfig((c) => (c.budgets.retries = 1)));
    const err = (await llm2.complete(writerRequest()).catch((e: unknown) => e)) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.diagnostics[0].code).toBe('AUR4206');
    expect(server.requests).toHaveLength(2);
  });

  it('a call that brings a stream sink streams whatever its role, and the sink sees each attempt from the start', async () => {
    const answer = '{"verdict": "PASS", "violations": []}';
    server.script(steps.truncated(answer.repeat(3), 'destroy'), steps.ok(answer));
    const { llm } = open(anthropicConfig());
    const seen: string[] = [];
    let restarts = 0;
    const res = await llm.complete(criticRequest({ stream: { text: (d) => seen.push(d), restart: () => ((restarts += 1), (seen.length = 0)) } }));
    expect(server.requests.map((r) => r.body!.stream)).toEqual([true, true]); // the critic is not in stream_roles
    expect(restarts).toBe(2); // one per attempt: what the cut attempt told is void
    expect(seen.join('')).toBe(answer);
    expect(res.json).toEqual({ verdict: 'PASS', violations: [] });
    // Without a sink the critic does not stream.
    server.script(steps.ok(answer));
    await llm.complete(criticRequest());
    expect(server.requests[2]!.body!.stream).toBeFalsy();
  });

  it('retries a stream that breaks with an SSE error event', async () => {
    const text = writerAnswer('EXT. SUBURA - DAY\n\nSmoke. Shouting. A door slams.');
    server.script(steps.streamError(text), steps.ok(text));
    const { llm } = open(anthropicConfig());
    expect((await llm.complete(writerRequest())).text).toBe(text);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a non-streamed answer whose body is cut after the headers', async () => {
    server.script(steps.truncated('{"verdict":"PASS","violations":[]}'), steps.json({ verdict: 'PASS', violations: [] }));
    const { llm } = open(anthropicConfig());
    const res = await llm.complete(criticRequest());
    expect(res.json).toEqual({ verdict: 'PASS', violations: [] });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0].body!.stream).toBeFalsy();
  });

  it('asks a max_tokens cut again once with twice the room, never the same request twice', async () => {
    const full = writerAnswer('INT. CURIA - DAY\n\nCICERO: How long, Catilina?');
    server.script(steps.maxTokens('INT. CURIA - DAY\n\nCICERO: How long'), steps.ok(full));
    const { llm, runLog } = open(anthropicConfig());
    const w = await llm.complete(writerRequest());
    expect(w.text).toBe(full);
    expect(server.requests.map((r) => r.body!.max_tokens)).toEqual([6000, 12000]); // max_tokens.writer from the config, then doubled
    expect(runLog.entries.map((e) => e.stop_reason)).toEqual(['max_tokens', 'end_turn']);

    // Cut twice: the recap gets what came back (its caller falls back to the offline recap), a JSON
    // role fails as a bad answer (the writer too: unusable-answers.test.ts).
    server.reset();
    server.script(steps.maxTokens('Previously'), steps.maxTokens('Previously on'));
    const again = await llm.complete(writerRequest({ role: 'recap' }));
    expect(again.stop_reason).toBe('max_tokens');
    server.script(steps.maxTokens('{"verdict": "FAIL", "violations": [{"type": "hook"'), steps.maxTokens('{"verdict": "FAIL", "violations": [{"type": "hook", "message": "no'));
    const err = await llm.complete(criticRequest()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmTruncatedError);
    expect((err as LlmTruncatedError).diagnostics[0].code).toBe('AUR4210');
    expect(canFallBackFrom(err)).toBe(true);
  });

  it('re-asks with the validation errors after malformed or schema-invalid JSON', async () => {
    server.script(steps.malformedJson(), steps.json({ verdict: 'MAYBE', violations: [] }), steps.json({ verdict: 'PASS', violations: [] }));
    const { llm, runLog } = open(anthropicConfig());
    const res = await llm.complete(criticRequest());
    expect(res.json).toEqual({ verdict: 'PASS', violations: [] });
    expect(server.requests).toHaveLength(3);
    const second = server.requests[1].body!.messages;
    expect(second).toHaveLength(3);
    expect(second[1]).toEqual({ role: 'assistant', content: steps.malformedJson().kind === 'ok' ? (steps.malformedJson() as { text: string }).text : '' });
    expect(second[2].content).toMatch(/not valid JSON for the schema critic_verdict/);
    expect(second[2].content).toMatch(/holds no JSON object or array/);
    const third = server.requests[2].body!.messages;
    expect(third[4].content).toMatch(/\/verdict must be equal to one of the allowed values: "PASS", "FAIL"/);
    expect(runLog.entries.map((e) => e.reask)).toEqual([0, 1, 2]);
    expect(res.usage.input_tokens).toBe(300); // summed over the three asks (100 each)
  });

  it('raises LlmOutputError naming role, schema and problems when re-asks run out', async () => {
    server.handler = () => steps.json({ verdict: 'PASS' });
    const { llm } = open(anthropicConfig((c) => (c.budgets.json_reasks = 1)));
    const err = (await llm.complete(criticRequest()).catch((e: unknown) => e)) as LlmOutputError;
    expect(err).toBeInstanceOf(LlmOutputError);
    expect(err.role).toBe('critic');
    expect(err.schemaName).toBe('critic_verdict');
    expect(err.problems).toEqual(["/ must have required property 'violations'"]);
    expect(err.diagnostics[0].code).toBe('AUR4201');
    expect(err.message).toMatch(/critic answer is not valid critic_verdict after 2 attempt/);
    expect(server.requests).toHaveLength(2);
  });

  it('passes a writer answer with a missing output section through unchanged (stage E parses sections)', async () => {
    server.script(steps.missingSection());
    const { llm } = open(anthropicConfig());
    const res = await llm.complete(writerRequest());
    expect(res.text).toContain('---CLAIMS---');
    expect(res.text).not.toContain('---SCENE_EVENTS---');
    expect(res.json).toBeUndefined();
  });

  it('stops at the per-episode call budget, retries included', async () => {
    server.handler = () => steps.rateLimited(0.001);
    const { llm } = open(anthropicConfig((c) => ((c.budgets.provider_calls_per_episode = 3), (c.budgets.retries = 5))));
    const err = await llm.complete(criticRequest()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CallBudgetError);
    expect((err as CallBudgetError).diagnostics[0].code).toBe('AUR4202');
    expect(server.requests).toHaveLength(3);
    // The budget is spent: the next call fails without touching the network.
    await expect(llm.complete(criticRequest())).rejects.toBeInstanceOf(CallBudgetError);
    expect(server.requests).toHaveLength(3);
  });

  it('aborts an in-flight call cleanly (exit 130)', async () => {
    server.script(steps.hang());
    const ac = new AbortController();
    const { llm } = open(anthropicConfig(), new MemoryRunLog(), ac.signal);
    const p = llm.complete(writerRequest());
    setTimeout(() => ac.abort(), 50);
    const err = await p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmAbortedError);
    expect((err as LlmAbortedError).exitCode).toBe(130);
    await expect(llm.complete(criticRequest())).rejects.toBeInstanceOf(LlmAbortedError);
    expect(server.requests).toHaveLength(1);
  });

  it('times out per role', async () => {
    server.handler = () => steps.hang();
    const { llm } = open(anthropicConfig((c) => ((c.timeouts_ms.critic = 150), (c.budgets.retries = 0))));
    const t0 = Date.now();
    const err = (await llm.complete(criticRequest()).catch((e: unknown) => e)) as ProviderError;
    expect(err.diagnostics[0].code).toBe('AUR4207');
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('runs at most `concurrency` calls at once', async () => {
    let inFlight = 0;
    let peak = 0;
    server.handler = () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      setTimeout(() => inFlight--, 60);
      return steps.ok('x', { delayMs: 60 });
    };
    const { llm } = open(anthropicConfig((c) => (c.concurrency = 2)));
    await Promise.all(Array.from({ length: 6 }, (_, i) => llm.complete(writerRequest({ meta: { scene: `SC0${i}` } }))));
    expect(server.requests).toHaveLength(6);
    expect(peak).toBe(2);
  });

  it('refuses to start without ANTHROPIC_API_KEY', () => {
    expect(() => openLlm({ root, config: anthropicConfig(), env: {} })).toThrow(/ANTHROPIC_API_KEY/);
  });
});
