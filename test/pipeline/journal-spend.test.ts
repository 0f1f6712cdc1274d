import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JournaledLlm, journalSpend } from '../../src/pipeline/call-journal.js';
import { CostGuard } from '../../src/providers/cost-guard.js';
import { CostCapError, LlmAbortedError } from '../../src/providers/errors.js';
import { openLlm } from '../../src/providers/index.js';
import { MemoryRunLog } from '../../src/providers/run-log.js';
import { steps } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { anthropicConfig, criticRequest } from '../providers/helpers.js';
import { loadConfigOrThrow } from '../../src/config/load.js';
import type { Llm, LlmRequest, LlmResponse } from '../../src/ports/llm.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-journal-spend-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A provider side that charges $0.04 a call. */
class PricedLlm implements Llm {
  readonly deterministic = false;
  readonly providerId = 'priced';
  calls = 0;
  async complete(req: LlmRequest): Promise<LlmResponse> {
    this.calls++;
    return { text: `answer to ${req.messages[0]!.content}`, usage: { input_tokens: 10, output_tokens: 10, cache_read_tokens: 0, cache_write_tokens: 0 }, cost_usd: 0.04, model: 'claude-sonnet-5-5', provider: 'priced', stop_reason: 'end_turn', latency_ms: 1, cached: false };
  }
}

const req = (n: number): LlmRequest => ({ role: 'writer', system: 'write', messages: [{ role: 'user', content: `scene ${n}` }], max_tokens: 6000 });

describe('a resumed run counts what its journaled calls cost against --max-cost', () => {
  it('sums the journal, ignores unreadable entries, and the guard starts from it', async () => {
    expect(journalSpend(path.join(dir, 'none'))).toBe(0);
    const inner = new PricedLlm();
    const llm = new JournaledLlm(inner, dir);
    for (const n of [1, 2, 3]) await llm.complete(req(n));
    // The same calls on resume come from the journal and cost nothing new.
    await llm.complete(req(1));
    expect(inner.calls).toBe(3);
    fs.writeFileSync(path.join(dir, 'calls', 'torn.json'), '{"cost_usd": 0.0');
    expect(journalSpend(dir)).toBeCloseTo(0.12, 9);

    const { config } = loadConfigOrThrow(dir, {});
    const guard = new CostGuard(0.15, journalSpend(dir));
    // $0.12 already spent: a call whose worst case is 6,000 output tokens ($0.06) would pass the $0.15 cap.
    await expect(guard.reserve(req(4), 'claude-sonnet-5-5', config)).rejects.toThrow(CostCapError);
    await expect(new CostGuard(0.5, journalSpend(dir)).reserve(req(4), 'claude-sonnet-5-5', config)).resolves.toBeTypeOf('function');
  });
});

describe('a call cut short between two paid answers: its resume pays only for what it had not received', () => {
  const server = useFakeAnthropic({ resetEachTest: true });
  const KEY = 'sk-ant-test-journal-attempts';
  const open = (runDir: string, signal?: AbortSignal) => {
    const runLog = new MemoryRunLog();
    const router = openLlm({ root: runDir, config: anthropicConfig(), env: anthropicEnv(server, KEY), runLog, signal });
    return { llm: new JournaledLlm(router, runDir), runLog };
  };

  it('Ctrl-C during the JSON re-ask: the invalid answer is journaled, counted by journalSpend, and replayed on resume', async () => {
    const runDir = fs.mkdtempSync(path.join(dir, 'attempts-'));
    const ac = new AbortController();
    server.handler = (_q, i) => {
      if (i === 0) return steps.malformedJson();
      ac.abort(new Error('SIGINT')); // the re-ask is in flight: Ctrl-C
      return steps.hang();
    };
    const first = open(runDir, ac.signal);
    await expect(first.llm.complete(criticRequest())).rejects.toBeInstanceOf(LlmAbortedError);
    const paid = first.runLog.entries.filter((e) => !e.error);
    expect(paid.map((e) => e.reask)).toEqual([0]);
    // Was 0: the malformed answer was paid for, and nothing kept it.
    expect(journalSpend(runDir)).toBeCloseTo(paid[0]!.cost_usd, 9);

    server.reset();
    server.handler = () => steps.json({ verdict: 'PASS', violations: [] });
    const again = open(runDir);
    const res = await again.llm.complete(criticRequest());
    expect(res.json).toEqual({ verdict: 'PASS', violations: [] });
    // Only the re-ask reached the server, carrying the journaled answer as the assistant turn.
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    // Only the re-ask is logged: the replayed answer's line is the first run's (was logged again, at
    // full cost and not cached, so the run folder's log counted it twice). The whole call's entry
    // still counts both answers, once (its attempts' files are gone), so a further resume's cap does.
    expect(again.runLog.entries.map((e) => e.reask)).toEqual([1]);
    expect(res.charged_usd!).toBeCloseTo(paid[0]!.cost_usd + again.runLog.entries[0]!.cost_usd, 9);
    expect(journalSpend(runDir)).toBeCloseTo(res.charged_usd!, 9);
    expect(fs.readdirSync(path.join(runDir, 'calls'))).toEqual([`${JournaledLlm.keyOf(criticRequest())}.json`]);
  });
});
