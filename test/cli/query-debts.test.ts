import { afterAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, cli, makeWorld } from '../pipeline/world.js';

interface Debt {
  debtor: string;
  creditor: string;
  debt: number;
  flags: string[];
}

/**
 * `aureus query debts`: an edge from→to is what `from` has toward `to`. Its debt weight or a `debtor`
 * flag says `from` owes `to` (op_call_in_debt: the creditor calls in `rel(debtor, creditor).debt`); a
 * `creditor` flag says `to` owes `from`. The starter kit holds both kinds: varo→murena is flagged
 * `creditor` and murena→varo `debtor` with debt 0.5; crassus→caesar `creditor` and caesar→crassus
 * `debtor` with debt 0.8. Each is one debt, printed the right way round, once.
 */
describe.skipIf(!builtCli())('aureus query debts', () => {
  afterAll(() => cleanup());

  it('reads a creditor flag as the other end owing, and lists each debt once', async () => {
    const w = await makeWorld('query-debts');
    const ask = async (id: string) => {
      const q = await cli(['query', 'debts', id, '--json'], w);
      expect(q.code, q.stderr).toBe(0);
      return JSON.parse(q.stdout) as Debt[];
    };
    const murena = await ask('murena');
    expect(murena.filter((d) => d.creditor === 'varo' || d.debtor === 'varo')).toEqual([{ debtor: 'murena', creditor: 'varo', debt: 0.5, flags: ['debtor', 'creditor'] }]);
    const crassus = await ask('crassus');
    expect(crassus.filter((d) => d.debtor === 'caesar' || d.creditor === 'caesar')).toEqual([{ debtor: 'caesar', creditor: 'crassus', debt: 0.8, flags: ['debtor', 'creditor'] }]);
    // No starter edge has Crassus owing anyone: the creditor of half the Senate is nobody's debtor here.
    expect(crassus.filter((d) => d.debtor === 'crassus')).toEqual([]);

    const all = (JSON.parse((await cli(['query', 'debts', '--json'], w)).stdout) as Debt[]).map((d) => `${d.debtor}>${d.creditor}`);
    expect(new Set(all).size).toBe(all.length);
    expect(all).not.toContain('varo>murena');
  });
});
