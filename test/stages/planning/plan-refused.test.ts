import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyScenario, scenario } from './helpers.js';
import { builtCli, spawnCli } from '../../pipeline/world.js';

/**
 * An `episode plan` refused for its steering flags (an unknown id in --cast, AUR3061) writes
 * nothing: it used to leave an empty run folder under .aureus/runs, made before the flags were
 * checked against the world, which `status` and the next run then had to step around.
 */
const base = scenario('planning-base');

describe.skipIf(!builtCli())('episode plan refused', () => {
  it('an unknown --cast id: exit 2, AUR3061, and no run folder left behind', async () => {
    const root = copyScenario(base);
    const r = await spawnCli(['episode', 'plan', '--cast', 'nobody_x'], root);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('AUR3061');
    expect(fs.existsSync(path.join(root, '.aureus/runs'))).toBe(false);
  }, 60_000);

  it('a run folder that was there before is kept, with what it held', async () => {
    const root = copyScenario(base);
    expect((await spawnCli(['episode', 'plan', '--seed', 'kept'], root)).code).toBe(0);
    const runs = fs.readdirSync(path.join(root, '.aureus/runs'));
    const r = await spawnCli(['episode', 'plan', '--cast', 'nobody_x'], root);
    expect(r.code, r.stderr).toBe(2);
    expect(fs.readdirSync(path.join(root, '.aureus/runs'))).toEqual(runs);
  }, 60_000);
});
