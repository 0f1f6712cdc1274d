import { describe, expect, it } from 'vitest';
import { COOLDOWN_EPISODES, COOLDOWN_PENALTY, SeasonMemory, recentMovesOf, targetOf } from '../../../src/stages/c-director/memory.js';
import type { Candidate } from '../../../src/stages/c-director/candidates.js';

const cand = (op: string, actor: string, bindings: Record<string, string>): Candidate =>
  ({ op: { id: op }, actor: { id: actor }, bindings: { actor, ...bindings }, key: '', chars: [], threads: [], base: 0, proposal: null }) as unknown as Candidate;

describe('the Director\'s season memory (c-director/memory.ts)', () => {
  it('names a move by its target binding, else its first other role', () => {
    expect(targetOf({ actor: 'a', target: 'b', secret: 's' })).toBe('b');
    expect(targetOf({ actor: 'a', secret: 's', refuge: 'r' })).toBe('r');
    expect(targetOf({ actor: 'a' })).toBeNull();
  });

  it(`cools an (operator, actor, target) for ${COOLDOWN_EPISODES} episodes, then forgets it`, () => {
    const plans = [{ episode: 1, beats: [{ applications: [{ operator_id: 'op_x', bindings: { actor: 'cicero', target: 'catiline' } }] }] }];
    const recent = recentMovesOf(plans as never);
    expect(recent).toEqual([{ episode: 1, operator: 'op_x', actor: 'cicero', target: 'catiline' }]);
    const same = cand('op_x', 'cicero', { target: 'catiline' });
    const other = cand('op_x', 'cicero', { target: 'cato' });
    for (let e = 2; e <= 1 + COOLDOWN_EPISODES; e++) {
      const m = new SeasonMemory(e, recent);
      expect(m.isCooled(same), `episode ${e}`).toBe(true);
      expect(m.penalty(same)).toBeGreaterThanOrEqual(COOLDOWN_PENALTY);
      // Another target is not barred, only a little dearer (the same scheme by the same man).
      expect(m.isCooled(other)).toBe(false);
      expect(m.penalty(other)).toBeGreaterThan(0);
      expect(m.penalty(other)).toBeLessThan(COOLDOWN_PENALTY);
    }
    // The fresher the repeat, the dearer.
    expect(new SeasonMemory(2, recent).penalty(other)).toBeGreaterThan(new SeasonMemory(5, recent).penalty(other));
    const later = new SeasonMemory(2 + COOLDOWN_EPISODES, recent);
    expect(later.isCooled(same)).toBe(false);
    expect(later.penalty(same)).toBe(0);
    // The episode itself and later ones are not memory (a replan of episode 1 is not cooled by itself).
    expect(new SeasonMemory(1, recent).penalty(same)).toBe(0);
  });
});
