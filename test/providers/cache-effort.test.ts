import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CachingProvider, ResponseCache, cacheKey } from '../../src/providers/cache.js';
import type { LlmProvider, LlmRequest, LlmResponse } from '../../src/ports/llm.js';
import { ReplayMissError } from '../../src/providers/errors.js';
import { effortFor } from '../../src/providers/anthropic-wire.js';
import { criticRequest } from './helpers.js';

/** The provider behind the cache: answers with a counter, so a hit and a new call are told apart. */
class CountingProvider implements LlmProvider {
  readonly id = 'counting';
  calls = 0;
  async complete(_req: LlmRequest, model: string): Promise<LlmResponse> {
    this.calls++;
    return { text: `answer ${this.calls}`, usage: { input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0 }, cost_usd: 0, model, provider: this.id, stop_reason: 'end_turn', latency_ms: 1, cached: false };
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-cache-effort-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the effort a call sends is part of its cache key', () => {
  it('keys differ by effort, and a call without effort keeps the key it had before effort was keyed', () => {
    const base = cacheKey('anthropic', 'm', criticRequest());
    expect(cacheKey('anthropic', 'm', criticRequest(), undefined)).toBe(base);
    expect(cacheKey('anthropic', 'm', criticRequest(), 'low')).not.toBe(base);
    expect(cacheKey('anthropic', 'm', criticRequest(), 'low')).not.toBe(cacheKey('anthropic', 'm', criticRequest(), 'high'));
  });

  it('effortFor follows the config and what the model takes', () => {
    const config = { effort: { writer: 'medium', critic: 'low' } } as never;
    expect(effortFor(config, 'writer', 'claude-sonnet-5-5')).toBe('medium');
    expect(effortFor(config, 'writer', 'claude-sonnet-4-5')).toBeUndefined(); // 4.5 Sonnet takes no effort
    expect(effortFor(config, 'director', 'claude-sonnet-5-5')).toBeUndefined();
  });

  it('a recording made at one depth does not replay a run at another', async () => {
    const cache = new ResponseCache(dir);
    const inner = new CountingProvider();
    const rec = new CachingProvider({ id: 'anthropic', family: 'anthropic', cache, mode: 'read-write', inner: () => inner, effort: () => 'low' });
    const first = await rec.complete(criticRequest(), 'claude-haiku-5-5');
    const same = new CachingProvider({ id: 'replay', family: 'anthropic', cache, mode: 'replay', inner: () => inner, effort: () => 'low' });
    expect((await same.complete(criticRequest(), 'claude-haiku-5-5')).text).toBe(first.text);
    expect(inner.calls).toBe(1);
    const deeper = new CachingProvider({ id: 'replay', family: 'anthropic', cache, mode: 'replay', inner: () => inner, effort: () => 'high' });
    await expect(deeper.complete(criticRequest(), 'claude-haiku-5-5')).rejects.toBeInstanceOf(ReplayMissError);
  });
});
