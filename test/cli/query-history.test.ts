import { afterAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, cli, makeWorld } from '../pipeline/world.js';

/**
 * `aureus query history <path>` names the episode of each episode commit that changed the value
 * (README: "date, episode, or play session, scene and turns"), read from the commit's subject
 * `S01E01: <title>`; a commit that is not an episode's (the init, a revert of one) names none.
 */
describe.skipIf(!builtCli())('aureus query history', () => {
  afterAll(() => cleanup());

  it('names the episode of an episode commit, and none for the init commit or a revert', async () => {
    const w = await makeWorld('query-history');
    const run = await cli(['episode', 'run'], w);
    expect(run.code, run.stderr).toBe(0);
    // Stage H of S01E01 moves the grain index (op_grain_dole in SC01, seed of the starter kit).
    const q = await cli(['query', 'history', 'world.global.grain_index', '--json'], w);
    expect(q.code, q.stderr).toBe(0);
    const h = JSON.parse(q.stdout) as { subject: string; episode: string | null }[];
    expect(h.map((e) => [e.subject.slice(0, 7), e.episode])).toEqual([
      ['Create ', null],
      ['S01E01:', 's01e01'],
    ]);

    expect((await cli(['rollback', 's01e01'], w)).code).toBe(0);
    const after = JSON.parse((await cli(['query', 'history', 'world.global.grain_index', '--json'], w)).stdout) as { subject: string; episode: string | null }[];
    expect(after.at(-1)!.subject).toMatch(/^Revert "S01E01: /);
    expect(after.at(-1)!.episode).toBeNull();
  });
});
