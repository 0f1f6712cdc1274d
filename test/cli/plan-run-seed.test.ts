import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, makeWorld } from '../pipeline/world.js';

afterAll(cleanup);

describe('episode plan previews episode run', () => {
  it('uses the same default seed, giving the same plan title and plan file bytes', async () => {
    const root = await makeWorld('planseed');
    const p = await cli(['episode', 'plan', '--json'], root);
    expect(p.code, p.stderr).toBe(0);
    const plan = JSON.parse(p.stdout) as { seed: string; title: string; dir: string };
    expect(plan.seed).not.toBe('s01e01');
    const planned = fs.readFileSync(path.join(root, plan.dir, 'episode_plan.json'));

    const r = await cli(['episode', 'run', '--json'], root);
    expect(r.code, r.stderr).toBe(0);
    const run = JSON.parse(r.stdout) as { seed: string };
    expect(run.seed).toBe(plan.seed);
    const committed = fs.readFileSync(path.join(root, 'seasons/season_01/episode_01/episode_plan.json'));
    expect(JSON.parse(committed.toString('utf8')).title).toBe(plan.title);
    expect(committed.equals(planned)).toBe(true);
  }, 300_000);
});
