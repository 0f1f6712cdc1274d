import { afterEach, describe, expect, it, vi } from 'vitest';
import { withoutSdkDeprecationWarning } from '../../src/providers/sdk-warnings.js';

afterEach(() => vi.restoreAllMocks());

/** The swap is narrow: only the SDK's deprecation line, only while create runs, restored whatever happens. */
describe('withoutSdkDeprecationWarning', () => {
  it('drops the deprecation line, passes any other warning through, and restores console.warn after a throw', () => {
    const seen: unknown[][] = [];
    const spy = vi.spyOn(console, 'warn').mockImplementation((...a: unknown[]) => void seen.push(a));
    const before = console.warn;
    const value = withoutSdkDeprecationWarning(() => {
      console.warn("The model 'claude-sonnet-4-5' is deprecated and will reach end-of-life on November 30th, 2026\nPlease migrate to a newer model.");
      console.warn('something else', 1);
      return 42;
    });
    expect(value).toBe(42);
    expect(seen).toEqual([['something else', 1]]);
    expect(() => withoutSdkDeprecationWarning(() => { throw new Error('boom'); })).toThrow('boom');
    expect(console.warn).toBe(before);
    console.warn("The model 'x' is deprecated and will reach end-of-life on someday");
    expect(seen).toHaveLength(2); // outside create, nothing is filtered
    expect(spy).toHaveBeenCalledTimes(2);
  });
});
