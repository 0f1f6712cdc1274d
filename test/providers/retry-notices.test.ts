import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLlm } from '../../src/providers/index.js';
import { LlmAbortedError, ProviderError } from '../../src/providers/errors.js';
import { MemoryRunLog } from '../../src/providers/run-log.js';
import type { AureusConfig } from '../../src/config/types.js';
import { steps, writerAnswer, type FakeRequest } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { cleanup, cli, copyRepo, makeWorld } from '../pipeline/world.js';
import { modelAnswer } from '../reliability/fake-model.js';
import { FAKE_KEY, anthropicConfig, criticRequest, writerRequest } from './helpers.js';

/**
 * The provider's retry notices, through the real SDK against the local Messages API: each names the
 * call it is for (role, and scene or character), numbers the retry within the call whatever retried
 * it (the SDK on a 429/529, or us after a cut stream: `budgets.retries` is the call's), and a call
 * cancelled while it waits for a retry says so once instead of leaving "retrying" as its last word.
 */
const server = useFakeAnthropic({ resetEachTest: true });
afterAll(cleanup);

function open(config: AureusConfig, signal?: AbortSignal) {
  const notices: string[] = [];
  const llm = openLlm({ root: '', config, env: anthropicEnv(server, FAKE_KEY), runLog: new MemoryRunLog(), signal, onNotice: (t) => notices.push(t) });
  return { llm, notices };
}

describe('retry notices name the call and count its retries', () => {
  it('each notice names the role and the scene, the character or the re-ask', async () => {
    const { llm, notices } = open(anthropicConfig((c) => (c.budgets.retries = 3)));
    const text = writerAnswer('INT. CURIA - DAY\n\nCICERO rises.');
    server.script(steps.overloaded(), steps.ok(text), steps.overloaded(), steps.json({ verdict: 'PASS', violations: [] }), steps.rateLimited(), steps.json({ moves: [] }), steps.rateLimited(), steps.json({}));
    await llm.complete(writerRequest({ meta: { episode: 's01e01', scene: 'SC04', attempt: 2 } }));
    await llm.complete(criticRequest({ escalate: true }));
    await llm.complete(criticRequest({ role: 'proposals', json_schema: undefined, meta: { episode: 's01e01', scene: 'cicero' } }));
    await llm.complete(criticRequest({ role: 'director', json_schema: undefined, meta: { episode: 's01e01', attempt: 1 } }));
    expect(notices).toEqual([
      'writer SC04 (repair, attempt 2): 529 overloaded, retrying in 0 s (retry 1 of 3)',
      'critic SC03 (escalated): 529 overloaded, retrying in 0 s (retry 1 of 3)',
      'proposals for cicero: 429 rate limited, retrying in 0 s (retry 1 of 3)',
      'director (re-ask 1): 429 rate limited, retrying in 0 s (retry 1 of 3)',
    ]);
    // The call's id rides in a header the provider takes off: it never reaches the wire.
    expect(server.requests.every((r) => !('x-aureus-call' in r.headers))).toBe(true);
  });

  it('budgets.retries is the call\'s: a cut stream then 529s are one count, and the call stops at retries + 1 requests', async () => {
    const text = writerAnswer('EXT. FORUM - DAY\n\nA crowd. A rumour.');
    server.script(steps.truncated(text, 'end'), steps.overloaded(), steps.overloaded(), steps.overloaded(), steps.ok(text));
    const { llm, notices } = open(anthropicConfig((c) => (c.budgets.retries = 2)));
    const err = await llm.complete(writerRequest()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).status).toBe(529);
    // Was 4 requests (the SDK had its own 2 retries after ours) and "retry 1 of 2" twice.
    expect(server.requests).toHaveLength(3);
    expect(notices).toEqual([
      'writer SC04: the answer was cut off, retrying in 0.1 s (retry 1 of 2)',
      'writer SC04: 529 overloaded, retrying in 0 s (retry 2 of 2)',
    ]);
  });

  it('a call cancelled while it waits for a retry says so once, and announces nothing after', async () => {
    const ac = new AbortController();
    server.handler = () => {
      setTimeout(() => ac.abort(new Error('SIGINT')), 100); // Ctrl-C during the 30 s wait
      return steps.rateLimited(30);
    };
    const { llm, notices } = open(anthropicConfig((c) => ((c.budgets.retries = 3), (c.budgets.retry_after_max_s = 60))), ac.signal);
    const t0 = Date.now();
    await expect(llm.complete(criticRequest())).rejects.toBeInstanceOf(LlmAbortedError);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(server.requests).toHaveLength(1);
    // Was the first line alone: "retrying" as the call's last word, for a retry never made.
    expect(notices).toEqual(['critic SC03: 429 rate limited, retrying in 30 s (retry 1 of 3)', 'critic SC03: retry 1 of 3 cancelled']);
  });
});

describe('an overloaded provider over an episode run: the plain log and --json', () => {
  let pristine = '';
  beforeAll(async () => {
    pristine = await makeWorld('retry-notices');
  }, 120_000);
  /**
   * Three answers, then 529 for every request: the first call refused retries at once (50 ms) and is
   * the first out of retries, stopping the run; the others wait 5 s for their second request and are
   * cancelled meanwhile.
   */
  const overloadedAfterThree = () => {
    let n = 0;
    let fast: string | undefined;
    return (q: FakeRequest) => {
      if (n++ < 3) return steps.ok(modelAnswer({ ...q, index: 0 }));
      fast ??= q.raw;
      return steps.overloaded(q.raw === fast ? 50 : 5000);
    };
  };
  const KEY = 'sk-ant-test-retry-notices';

  it('plain (non-TTY, NO_COLOR): every notice names its call and counts its retries; each call cancelled says so once', async () => {
    server.handler = overloadedAfterThree();
    const r = await cli(['episode', 'run', '--provider', 'anthropic'], copyRepo(pristine, 'retry-notices-plain'), anthropicEnv(server, KEY));
    expect(r.code, r.stderr.slice(-1500)).toBe(7);
    expect(r.stderr).toContain('AUR4203');
    const byCall = new Map<string, string[]>();
    for (const l of r.stderr.split('\n').filter((x) => x.startsWith('  … '))) {
      // Was "  … 529 overloaded, retrying in 0.1 s (retry 1 of 4)": which call, of four in flight?
      const m = /^ {2}… (proposals for [a-z_]+): (.*)$/.exec(l);
      expect(m, l).not.toBeNull();
      byCall.set(m![1]!, [...(byCall.get(m![1]!) ?? []), m![2]!]);
    }
    const [first, ...others] = [...byCall.values()];
    expect(first).toEqual([1, 2, 3, 4].map((k) => `529 overloaded, retrying in 0.1 s (retry ${k} of 4)`));
    expect(others.length).toBeGreaterThan(0);
    // Was "retrying in 5 s (retry 1 of 4)" as their last word, for a retry never made.
    for (const said of others) expect(said).toEqual(['529 overloaded, retrying in 5 s (retry 1 of 4)', 'retry 1 of 4 cancelled']);
  }, 180_000);

  it('--json: stdout is the error document alone, stderr carries no notice', async () => {
    server.handler = overloadedAfterThree();
    const r = await cli(['episode', 'run', '--provider', 'anthropic', '--json'], copyRepo(pristine, 'retry-notices-json'), anthropicEnv(server, KEY));
    expect(r.code).toBe(7);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { exit_code: 7, codes: ['AUR4203'] } });
    expect(r.stderr).not.toMatch(/retrying|cancelled/);
  }, 180_000);
});

