import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, makeWorld } from '../pipeline/world.js';

/**
 * `episode plan` previews the run (README): `episode plan --episode 3` on a fresh world planned an
 * episode out of order while `episode run --episode 3` refused it (AUR6015). The plan refuses the
 * same way now, writing nothing; the next episode, named or not, is planned as before.
 */
afterAll(cleanup);

describe('episode plan of an episode out of order', () => {
  it('is refused as episode run refuses it (AUR6015, exit 2), with nothing written', async () => {
    const w = await makeWorld('plan-order');
    const run = await cli(['episode', 'run', '--episode', '3'], w);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('AUR6015');
    const plan = await cli(['episode', 'plan', '--episode', '3'], w);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stderr).toContain('AUR6015 episode s01e03 cannot be compiled: the previous episode s01e02 is not committed (next is s01e01)');
    const json = await cli(['episode', 'plan', '--episode', '3', '--json'], w);
    expect(JSON.parse(json.stdout).error.codes).toEqual(['AUR6015']);
    const runs = path.join(w, '.aureus/runs');
    expect(fs.existsSync(runs) ? fs.readdirSync(runs) : []).toEqual([]);
    // The next episode, named, is planned.
    const next = await cli(['episode', 'plan', '--episode', '1', '--json'], w);
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout).episode_id).toBe('s01e01');
  }, 60_000);
});
