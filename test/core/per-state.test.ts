import { describe, expect, it } from 'vitest';
import { indexWorld, perState } from '../../src/core/world-index.js';
import { smallWorld } from './fixture.js';

describe('perState (core/world-index.ts)', () => {
  it('computes once per state and key, and keeps an undefined answer too', () => {
    const a = indexWorld(smallWorld());
    const b = indexWorld(smallWorld());
    const k1 = Symbol('k1');
    const k2 = Symbol('k2');
    let calls = 0;
    const count = (v: unknown) => () => { calls++; return v; };
    expect(perState(a, k1, count('a1'))).toBe('a1');
    expect(perState(a, k1, count('other'))).toBe('a1');
    expect(perState(a, k2, count('a2'))).toBe('a2');
    expect(perState(b, k1, count('b1'))).toBe('b1');
    expect(perState(a, 'none', count(undefined))).toBeUndefined();
    expect(perState(a, 'none', count('late'))).toBeUndefined();
    expect(calls).toBe(4);
  });
});
