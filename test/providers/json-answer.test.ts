import { describe, expect, it } from 'vitest';
import { checkJsonAnswer, extractJsonText, reaskMessage } from '../../src/providers/json-answer.js';
import { cacheKey } from '../../src/providers/cache.js';
import { costOf } from '../../src/providers/cost.js';
import { criticRequest, criticSchema } from './helpers.js';

describe('JSON answers', () => {
  it('finds JSON inside fences or after prose', () => {
    expect(extractJsonText('Here you go:\n```json\n{"a": 1}\n```\nThanks')).toBe('{"a": 1}');
    expect(extractJsonText('Sure. {"a": [1, 2]}')).toBe('{"a": [1, 2]}');
    expect(extractJsonText('no json here')).toBeUndefined();
    expect(extractJsonText('{"a": "x}]", "b": [1, {"c": 2}]}\nHope this helps! {not this}')).toBe('{"a": "x}]", "b": [1, {"c": 2}]}');
    expect(extractJsonText('{"a": "say \\"hi\\" }", "b": 1} trailing')).toBe('{"a": "say \\"hi\\" }", "b": 1}');
    expect(extractJsonText('{"a": [1, 2')).toBe('{"a": [1, 2');
    expect(checkJsonAnswer('Here is the verdict: {"verdict": "PASS", "violations": []} Let me know.', criticSchema)).toEqual({ ok: true, value: { verdict: 'PASS', violations: [] }, repaired: false });
  });

  it('repairs trailing commas and truncation, then validates', () => {
    expect(checkJsonAnswer('{"verdict": "PASS", "violations": [],}', criticSchema)).toEqual({ ok: true, value: { verdict: 'PASS', violations: [] }, repaired: true });
    expect(checkJsonAnswer('{"verdict": "PASS", "violations": [{"type": "x", "message": "cut', criticSchema)).toMatchObject({ ok: true, repaired: true });
    expect(checkJsonAnswer('[1, 2', undefined)).toEqual({ ok: true, value: [1, 2], repaired: true });
  });

  it('lists every schema problem with its pointer', () => {
    const r = checkJsonAnswer('{"verdict": "OK", "violations": [{"type": 3}], "extra": true}', criticSchema);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual(
      expect.arrayContaining([
        '/ must NOT have additional properties ("extra")',
        '/verdict must be equal to one of the allowed values: "PASS", "FAIL"',
        '/violations/0/type must be string',
        "/violations/0 must have required property 'message'",
      ]),
    );
    expect(reaskMessage('critic_verdict', r.problems)).toMatch(/^Your previous answer is not valid JSON for the schema critic_verdict\. Problems:\n- /);
  });
});

describe('cache keys and cost', () => {
  it('keys on provider, model, prompts, schema and max_tokens only', () => {
    const base = cacheKey('anthropic', 'm', criticRequest());
    expect(cacheKey('anthropic', 'm', criticRequest({ payload: { x: 1 }, meta: { scene: 'SC99' }, escalate: true }))).toBe(base);
    expect(cacheKey('anthropic', 'm2', criticRequest())).not.toBe(base);
    expect(cacheKey('other', 'm', criticRequest())).not.toBe(base);
    expect(cacheKey('anthropic', 'm', criticRequest({ system: 'x' }))).not.toBe(base);
    expect(cacheKey('anthropic', 'm', criticRequest({ static_context: 'x' }))).not.toBe(base);
    expect(cacheKey('anthropic', 'm', criticRequest({ max_tokens: 1 }))).not.toBe(base);
    expect(cacheKey('anthropic', 'm', criticRequest({ json_schema: { type: 'object' } }))).not.toBe(base);
    expect(cacheKey('anthropic', 'm', criticRequest({ messages: [{ role: 'user', content: 'y' }] }))).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });

  it('prices each token kind', () => {
    const price = { input: 3, output: 15, cache_write: 3.75, cache_read: 0.3 };
    expect(costOf({ input_tokens: 1_000_000, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 }, price)).toBe(3);
    expect(costOf({ input_tokens: 0, output_tokens: 1_000_000, cache_read_tokens: 0, cache_write_tokens: 0 }, price)).toBe(15);
    expect(costOf({ input_tokens: 0, output_tokens: 0, cache_read_tokens: 1_000_000, cache_write_tokens: 1_000_000 }, price)).toBe(4.05);
    expect(costOf({ input_tokens: 5, output_tokens: 5, cache_read_tokens: 5, cache_write_tokens: 5 }, undefined)).toBe(0);
  });
});

describe('canFallBackFrom', () => {
  it('allows a symbolic fallback only after a bad model answer', async () => {
    const { canFallBackFrom, LlmOutputError, ReplayMissError, CallBudgetError, LlmAbortedError } = await import('../../src/providers/errors.js');
    expect(canFallBackFrom(new LlmOutputError('director', 'episode_plan', ['x'], 3, ''))).toBe(true);
    expect(canFallBackFrom(new ReplayMissError('director', 'a'.repeat(64), { episode: 's01e01' }))).toBe(false);
    expect(canFallBackFrom(new CallBudgetError(3, 3))).toBe(false);
    expect(canFallBackFrom(new LlmAbortedError('director'))).toBe(false);
    expect(canFallBackFrom(new Error('bug'))).toBe(false);
  });
});
