import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CachingProvider, ResponseCache, type CacheEntry } from '../../src/providers/cache.js';
import { LlmRouter } from '../../src/providers/router.js';
import type { LlmProvider, LlmRequest, LlmResponse } from '../../src/ports/llm.js';
import { testConfig, writerRequest } from './helpers.js';

/**
 * The record/replay cache is read once per call through the router: the router's look (`recorded`,
 * which decides whether the call needs a `--max-cost` reservation) is the only one; a miss is then
 * asked without a second read of `.aureus/cache`. The cache is the real one on disk; it counts the
 * entries it reads. (That a recorded answer needs no room under `--max-cost`: test/pipeline/cached-spend.)
 */
class CountingCache extends ResponseCache {
  reads = 0;
  override async get(key: string): Promise<CacheEntry | undefined> {
    this.reads++;
    return super.get(key);
  }
}

/** The provider behind the cache: answers with a counter, so a hit and a new call are told apart. */
class CountingProvider implements LlmProvider {
  readonly id = 'counting';
  calls = 0;
  async complete(_req: LlmRequest, model: string): Promise<LlmResponse> {
    this.calls++;
    return { text: `answer ${this.calls}`, usage: { input_tokens: 1000, output_tokens: 1000, cache_read_tokens: 0, cache_write_tokens: 0 }, cost_usd: 0, model, provider: this.id, stop_reason: 'end_turn', latency_ms: 1, cached: false };
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-cache-reads-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function router() {
  const cache = new CountingCache(path.join(dir, 'cache'));
  const inner = new CountingProvider();
  const provider = new CachingProvider({ id: 'anthropic', family: 'anthropic', cache, mode: 'read-write', inner: () => inner });
  const config = testConfig((c) => {
    c.provider = 'anthropic';
  });
  return { cache, inner, llm: new LlmRouter({ config, provider, providerId: 'anthropic', deterministic: false }) };
}

describe('one read of the response cache per call', () => {
  it('an uncached call reads its entry once, then asks and records; a cached one reads once and asks nothing', async () => {
    const { cache, inner, llm } = router();
    const first = await llm.complete(writerRequest());
    expect(first.cached).toBe(false);
    expect(inner.calls).toBe(1);
    expect(cache.reads).toBe(1);
    const again = await llm.complete(writerRequest());
    expect(again.cached).toBe(true);
    expect(again.text).toBe(first.text);
    expect(inner.calls).toBe(1);
    expect(cache.reads).toBe(2);
  });
});
