import { beforeEach, describe, expect, it } from 'vitest';
import { steps, writerAnswer } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { openLlm } from '../../src/providers/index.js';
import { MemoryRunLog } from '../../src/providers/run-log.js';
import { ProviderError } from '../../src/providers/errors.js';
import type { AureusConfig } from '../../src/config/types.js';
import { FAKE_KEY, anthropicConfig, criticRequest, tempRoot, writerRequest } from './helpers.js';

/**
 * timeouts_ms.<role> bounds each request of a call (headers and answer), not the call: the waits
 * between retries (a 429's retry-after) are the retry budget's, and a request that times out is
 * retried like a connection error, with a notice naming the call, until budgets.retries is spent.
 * Real SDK against the local Messages API; the timeouts are short settings, nothing is timed.
 */
const server = useFakeAnthropic({ resetEachTest: true });
let root: string;
beforeEach(async () => {
  root = await tempRoot('aureus-attempts-');
});

const PASS = { verdict: 'PASS', violations: [] };
/** A promise that never settles: a streamed answer held on it stalls mid-answer for good. */
const never = new Promise<void>(() => {});

function open(patch: (c: AureusConfig) => void) {
  const notices: string[] = [];
  const runLog = new MemoryRunLog();
  const config = anthropicConfig((c) => {
    c.timeouts_ms.critic = 300;
    c.timeouts_ms.writer = 300;
    c.budgets.retries = 3;
    patch(c);
  });
  const llm = openLlm({ root, config, env: anthropicEnv(server, FAKE_KEY), runLog, onNotice: (t) => notices.push(t) });
  return { llm, notices, runLog };
}

describe('the role timeout bounds each request, not the waits between them', () => {
  it('a 429 whose retry-after is longer than the role timeout is waited out and the call succeeds', async () => {
    // Was AUR4207 "the critic call timed out": the timeout covered the SDK's retry-after wait.
    server.script(steps.rateLimited(0.6), steps.json(PASS));
    const { llm, notices } = open((c) => (c.budgets.retry_after_max_s = 60));
    const res = await llm.complete(criticRequest());
    expect(res.json).toEqual(PASS);
    expect(server.requests).toHaveLength(2);
    expect(notices).toEqual(['critic SC03: 429 rate limited, retrying in 0.6 s (retry 1 of 3)']);
  });
});

describe('a request that times out is retried within budgets.retries', () => {
  it('a request never answered: retried with a notice naming the call, and the call succeeds', async () => {
    server.script(steps.hang(), steps.json(PASS));
    const { llm, notices } = open(() => {});
    const res = await llm.complete(criticRequest());
    expect(res.json).toEqual(PASS);
    expect(server.requests).toHaveLength(2);
    expect(notices).toEqual(['critic SC03: timed out after 0.3 s, retrying (retry 1 of 3)']);
  });

  it('headers sent, then the body stalls: retried with a notice, and the call succeeds', async () => {
    server.script(steps.stall(), steps.json(PASS));
    const { llm, notices } = open(() => {});
    const res = await llm.complete(criticRequest());
    expect(res.json).toEqual(PASS);
    expect(server.requests).toHaveLength(2);
    expect(notices).toEqual(['critic SC03: timed out after 0.3 s, retrying in 0.1 s (retry 1 of 3)']);
  });

  it('a stream that stalls mid-answer: retried from the start, the stalled attempt billed', async () => {
    const text = writerAnswer('INT. CURIA - DAY\n\nCICERO rises. The senators fall silent, one by one.');
    server.script(steps.ok(text, { hold: { after: 1, until: never } }), steps.ok(text));
    const { llm, notices, runLog } = open(() => {});
    let restarts = 0;
    const res = await llm.complete(writerRequest({ stream: { text: () => {}, restart: () => void (restarts += 1) } }));
    expect(res.text).toBe(text);
    expect(restarts).toBe(2);
    expect(notices).toEqual(['writer SC04: timed out after 0.3 s, retrying in 0.1 s (retry 1 of 3)']);
    // The stalled attempt's input (message_start) counts with the answer's.
    expect(runLog.entries[0]!.input_tokens).toBe(200);
  });

  it('every request timing out: AUR4207 naming the call once its retries are spent', async () => {
    server.handler = () => steps.hang();
    const { llm, notices } = open((c) => (c.budgets.retries = 2));
    const err = (await llm.complete(criticRequest()).catch((e: unknown) => e)) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.exitCode).toBe(7);
    expect(err.diagnostics[0]).toMatchObject({ code: 'AUR4207', message: 'the critic SC03 call timed out after 300 ms, with no retry left (3 request(s))' });
    expect(err.diagnostics[0]!.hint).toMatch(/timeouts_ms\.critic.*not the waits between retries/);
    expect(server.requests).toHaveLength(3);
    expect(notices).toEqual([1, 2].map((k) => `critic SC03: timed out after 0.3 s, retrying (retry ${k} of 2)`));
  });

  it('the first call of a cacheable prefix times out and is retried while the others wait for it: all land', async () => {
    // The router lets the first call of a cached prefix go alone (router.ts warmKey); its retry must not strand the rest.
    let first = true;
    server.handler = () => (first ? ((first = false), steps.hang()) : steps.ok(writerAnswer('INT. DOMUS - DAY')));
    const { llm, notices, runLog } = open((c) => (c.concurrency = 4));
    const guide = 'STYLE GUIDE: Street scenes use short sentences. Court scenes use one rhetorical device.\n'.repeat(60);
    const all = await Promise.all([1, 2, 3].map((i) => llm.complete(writerRequest({ static_context: guide, meta: { scene: `SC0${i}` }, messages: [{ role: 'user', content: `packet ${i}` }] }))));
    expect(all.map((r) => r.text)).toEqual([1, 2, 3].map(() => writerAnswer('INT. DOMUS - DAY')));
    // The first call alone, twice (it timed out once), then the two that waited for it.
    expect(server.requests.map((r) => r.body!.messages[0]!.content).slice(0, 2)).toEqual(['packet 1', 'packet 1']);
    expect(server.requests).toHaveLength(4);
    expect(notices).toEqual(['writer SC01: timed out after 0.3 s, retrying (retry 1 of 3)']);
    expect(runLog.entries.filter((e) => e.cache_read_tokens > 0)).toHaveLength(2);
  });
});
