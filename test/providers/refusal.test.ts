import { beforeEach, describe, expect, it } from 'vitest';
import { steps } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { openLlm } from '../../src/providers/index.js';
import { LlmRefusalError } from '../../src/providers/errors.js';
import { MemoryRunLog } from '../../src/providers/run-log.js';
import { FAKE_KEY, criticRequest, tempRoot, testConfig, writerRequest } from './helpers.js';

/**
 * stop_reason "refusal" against the fake Messages API through the real SDK: the router asks once
 * more, then fails with its own diagnostic (AUR4212) quoting the model, never re-asking for the
 * answer's form; the refused answer is not kept for a later run.
 */
const server = useFakeAnthropic({ resetEachTest: true });
let root: string;
beforeEach(async () => {
  root = await tempRoot();
});
const cfg = () => testConfig((c) => ((c.provider = 'anthropic'), (c.cache.mode = 'read-write')));
const refusal = (text = "I can't help with that request.") => steps.ok(text, { stop_reason: 'refusal' });

describe('a refused call', () => {
  it('is asked once more, then fails with AUR4212 naming the role, the scene and the words (exit 7)', async () => {
    const runLog = new MemoryRunLog();
    const llm = openLlm({ root, config: cfg(), env: anthropicEnv(server, FAKE_KEY), runLog });
    server.script(refusal(), refusal("I can't help with\u0000 that request."));
    const err = (await llm.complete(criticRequest()).catch((e: unknown) => e)) as LlmRefusalError;
    expect(err).toBeInstanceOf(LlmRefusalError);
    expect(err.exitCode).toBe(7);
    expect(err.diagnostics[0]).toMatchObject({ code: 'AUR4212' });
    expect(err.message).toBe('the model refused the critic call (s01e01 SC03) 2 time(s): "I can\'t help with that request."');
    expect(err.diagnostics[0].hint).toMatch(/resumable/);
    // Two identical requests: a refusal is not re-asked with "problems" as a bad JSON answer is.
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].body!.messages).toEqual(server.requests[0].body!.messages);
    expect(runLog.entries.map((e) => e.stop_reason)).toEqual(['refusal', 'refusal']);
  });

  it('a long refusal is shortened in the message', async () => {
    const llm = openLlm({ root, config: cfg(), env: anthropicEnv(server, FAKE_KEY) });
    server.script(refusal('No. '.repeat(100)), refusal('No. '.repeat(100)));
    const err = (await llm.complete(writerRequest()).catch((e: unknown) => e)) as LlmRefusalError;
    expect(err).toBeInstanceOf(LlmRefusalError);
    expect(err.words.length).toBe(160);
    expect(err.words.endsWith('…')).toBe(true);
  });

  it('answered on the retry, is used, and a later run does not get the refusal from the cache', async () => {
    const llm = openLlm({ root, config: cfg(), env: anthropicEnv(server, FAKE_KEY) });
    server.script(refusal(), steps.ok('INT. FORUM - DAY'));
    expect(await llm.complete(writerRequest())).toMatchObject({ text: 'INT. FORUM - DAY', stop_reason: 'end_turn' });
    expect(server.requests).toHaveLength(2);
    // The refusal is not what the cache holds for that call.
    const later = openLlm({ root, config: cfg(), env: anthropicEnv(server, FAKE_KEY) });
    expect(await later.complete(writerRequest())).toMatchObject({ cached: true, text: 'INT. FORUM - DAY' });

    // A refusal then healthy again in a later run: asked again, not replayed from the cache.
    server.script(refusal(), refusal());
    await expect(llm.complete(criticRequest())).rejects.toBeInstanceOf(LlmRefusalError);
    server.script(steps.json({ verdict: 'PASS', violations: [] }));
    const n = server.requests.length;
    expect((await openLlm({ root, config: cfg(), env: anthropicEnv(server, FAKE_KEY) }).complete(criticRequest())).json).toEqual({ verdict: 'PASS', violations: [] });
    expect(server.requests.length).toBe(n + 1);
  });
});
