import { describe, expect, it } from 'vitest';
import { characterState, debts } from '../../src/play/query.js';
import { AureusError, ExitCode } from '../../src/errors.js';
import { smallWorld } from '../core/fixture.js';

/** `aureus query` answers from canon; an id that names nothing is a usage error, never an empty answer. */
describe('query (play/query.ts)', () => {
  it('debts of a character: the edges with a debt weight, either way round', () => {
    const w = smallWorld();
    expect(debts(w, 'cicero')).toEqual([{ debtor: 'crassus', creditor: 'cicero', debt: 0.2, flags: [] }]);
    expect(debts(w).length).toBeGreaterThanOrEqual(1);
  });

  it('debts of an id that is no character is exit 2 with the characters listed, as `query character` is', () => {
    const w = smallWorld();
    for (const ask of [() => debts(w, 'nobody'), () => characterState(w, 'nobody')]) {
      let err: unknown;
      try {
        ask();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(AureusError);
      expect((err as AureusError).exitCode).toBe(ExitCode.USAGE);
      expect((err as AureusError).message).toBe('no character "nobody" in the world');
      // The hint is the diagnostic's (AUR7101), the one the CLI prints and --json names.
      expect((err as AureusError).diagnostics.map((d) => d.code)).toEqual(['AUR7101']);
      expect((err as AureusError).diagnostics[0]!.hint).toMatch(/^character ids: .*\bcicero\b/);
    }
  });
});
