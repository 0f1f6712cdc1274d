import { describe, expect, it } from 'vitest';
import { BoundedMemo } from '../../src/core/bounded-memo.js';

describe('BoundedMemo', () => {
  it('computes a key once, keeps null answers, and forgets everything when full', () => {
    const m = new BoundedMemo<string, number | null>(2);
    let calls = 0;
    const f = (k: string) => (calls++, k === 'none' ? null : k.length);
    expect(m.get('ab', f)).toBe(2);
    expect(m.get('ab', f)).toBe(2);
    expect(m.get('none', f)).toBeNull();
    expect(m.get('none', f)).toBeNull();
    expect(calls).toBe(2);
    // Full at two entries: the third clears the rest before it is kept.
    expect(m.get('abc', f)).toBe(3);
    expect(m.has('abc')).toBe(true);
    expect(m.peek('ab')).toBeUndefined();
    expect(m.get('ab', f)).toBe(2);
    expect(calls).toBe(4);
  });
  it('set stores a value computed elsewhere; peek computes nothing', () => {
    const m = new BoundedMemo<string, string>(10);
    expect(m.peek('x')).toBeUndefined();
    expect(m.set('x', 'given')).toBe('given');
    expect(m.get('x', () => 'computed')).toBe('given');
  });
});
