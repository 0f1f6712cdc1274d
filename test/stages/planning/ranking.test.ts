import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bestFirst } from '../../../src/stages/c-director/ranking.js';
import type { Candidate } from '../../../src/stages/c-director/candidates.js';

const cand = (key: string, n: number): Candidate => ({ key, n }) as unknown as Candidate;

/** The order rankSlot had before the heap: a stable sort by total descending, then key. */
function sortedOrder(cands: Candidate[], totals: number[]): Candidate[] {
  return cands
    .map((c, i) => ({ c, t: totals[i]! }))
    .sort((a, b) => b.t - a.t || (a.c.key < b.c.key ? -1 : a.c.key > b.c.key ? 1 : 0))
    .map((x) => x.c);
}

describe('the Director\'s best-first ranking (c-director/ranking.ts)', () => {
  it('yields exactly the stable sort\'s order, ties of total and of key included', () => {
    // Few distinct totals and keys, so ties on both are common; each candidate is a distinct object.
    const entry = fc.record({ total: fc.constantFrom(-1.5, 0, 0.25, 0.25 + 1e-12, 3, 100), key: fc.constantFrom('a', 'b', 'b|x', 'c') });
    fc.assert(fc.property(fc.array(entry, { maxLength: 60 }), (xs) => {
      const cands = xs.map((x, i) => cand(x.key, i));
      const totals = xs.map((x) => x.total);
      const got = [...bestFirst(cands, totals)];
      const want = sortedOrder(cands, totals);
      expect(got.length).toBe(want.length);
      want.forEach((c, i) => expect(got[i]).toBe(c));
    }), { numRuns: 300 });
  });

  it('gives the same first few when the caller stops early', () => {
    const cands = Array.from({ length: 500 }, (_, i) => cand(`k${i % 37}`, i));
    const totals = cands.map((_, i) => ((i * 7919) % 101) / 10);
    const want = sortedOrder(cands, totals).slice(0, 5);
    const got: Candidate[] = [];
    for (const c of bestFirst(cands, totals)) { got.push(c); if (got.length === 5) break; }
    want.forEach((c, i) => expect(got[i]).toBe(c));
  });
});
