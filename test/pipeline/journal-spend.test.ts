import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JournaledLlm, journalSpend } from '../../src/pipeline/call-journal.js';
import { CostGuard } from '../../src/providers/cost-guard.js';
import { CostCapError } from '../../src/providers/errors.js';
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
