import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Rng } from '../../src/core/rng.js';

describe('Rng.fill (core/rng.ts)', () => {
  it('draws what as many next() calls draw, scaled as next() * scale, and leaves the stream where they leave it', () => {
    fc.assert(fc.property(fc.string(), fc.nat(3000), fc.double({ noNaN: true, min: -10, max: 10 }), fc.nat(5), (seed, n, scale, before) => {
      const a = new Rng(seed);
      const b = new Rng(seed);
      for (let i = 0; i < before; i++) { a.next(); b.next(); }
      const out = new Float64Array(n);
      a.fill(out, n, scale);
      const want = Array.from({ length: n }, () => b.next() * scale);
      expect(Array.from(out)).toEqual(want);
      expect([a.next(), a.next(), a.int(1000)]).toEqual([b.next(), b.next(), b.int(1000)]);
    }), { numRuns: 200 });
  });

  it('fills only the first n places', () => {
    const out = new Float64Array(4).fill(-1);
    new Rng('x').fill(out, 2, 1);
    expect(out[2]).toBe(-1);
    expect(out[3]).toBe(-1);
    expect(out[0]).toBeGreaterThanOrEqual(0);
    expect(out[0]).toBeLessThan(1);
  });
});
