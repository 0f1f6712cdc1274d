import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, makeWorld, spawnCli, tempDir } from '../pipeline/world.js';
import { STACK_TRACE } from './helpers.js';

/**
 * A world repository another user owns: git refuses it ("dubious ownership", safe.directory). That
 * is said as git says it, with git's fix (AUR6029, exit 10), not as "not a git repository" with a
 * hint to run `git init` over a repository full of history (AUR6011).
 */
afterAll(cleanup);

const root = process.getuid?.() === 0;

describe.skipIf(!root || !builtCli())('a world repository another user owns', () => {
  it('episode run: AUR6029 with git\'s reason and the safe.directory fix, exit 10', async () => {
    const w = await makeWorld('dubious-owner');
    expect(spawnSync('chown', ['-R', '65534:65534', w]).status).toBe(0);
    // A HOME without a global git config: no safe.directory of the machine's user trusts the folder.
    const r = await spawnCli(['episode', 'run'], w, { HOME: tempDir('empty-home') });
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toContain(`AUR6029 git refuses to use the repository ${w}: detected dubious ownership in repository at '${w}'`);
    expect(r.stderr).toContain(`git config --global --add safe.directory ${w}`);
    expect(r.stderr).not.toContain('AUR6011');
    expect(r.stderr).not.toContain('git init');
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(fs.existsSync(w)).toBe(true);
  }, 120_000);

  it('episode run: a safe.directory given through GIT_CONFIG_COUNT/KEY/VALUE (as CI runners do) is honoured', async () => {
    const w = await makeWorld('dubious-env');
    expect(spawnSync('chown', ['-R', '65534:65534', w]).status).toBe(0);
    const env = { HOME: tempDir('empty-home'), GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '*' };
    expect(spawnSync('git', ['status'], { cwd: w, env: { ...process.env, ...env } }).status).toBe(0);
    const r = await spawnCli(['episode', 'run', '--seed', '7'], w, env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('AUR6029');
  }, 120_000);
});
