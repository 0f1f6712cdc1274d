import { it } from 'vitest';
import { createHash } from 'node:crypto';
import { loadWorldOrThrow } from '../../src/store/index.js';
import { REPO } from '../stages/planning/helpers.js';
import { simulateSeason } from '../stages/planning/season-sim.js';
it('hash', async () => {
  const { world, seasonGoals } = await loadWorldOrThrow(REPO);
  const out: string[] = [];
  for (const seed of (process.env.SEEDS ?? 'alpha,beta').split(',')) {
    const eps = simulateSeason(world, seed, Number(process.env.EPS ?? 12), seasonGoals[0]?.goals);
    out.push(seed + ' ' + createHash('sha256').update(eps.map((e) => JSON.stringify(e.plan)).join('\n')).digest('hex').slice(0, 16));
  }
  console.log('HASH', out.join(' '));
}, 600_000);
