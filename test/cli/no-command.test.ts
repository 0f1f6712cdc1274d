import { afterAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, makeWorld, spawnCli, tempDir } from '../pipeline/world.js';

/**
 * `aureus` with no command printed its help on stderr (exit 0) while `aureus --help` prints it on
 * stdout: the help asked for is the answer, so both print it on stdout with 0 (README, Exit codes).
 * A -C that is no folder stays a usage error (help on stderr, exit 2).
 */
afterAll(cleanup);

describe.runIf(builtCli())('aureus with no command', () => {
  it('prints the help on stdout, exit 0, as --help does; -C to a world too', async () => {
    const cwd = tempDir('no-command');
    const help = await spawnCli(['--help'], cwd);
    const bare = await spawnCli([], cwd);
    expect([bare.code, bare.stderr]).toEqual([0, '']);
    expect(bare.stdout).toContain('Usage: aureus');
    expect(bare.stdout).toBe(help.stdout);
    const world = await makeWorld('no-command-world');
    const withC = await spawnCli(['-C', world], cwd);
    expect([withC.code, withC.stderr, withC.stdout]).toEqual([0, '', help.stdout]);
  });

  it('-C to a missing folder: the help on stderr and a usage error (exit 2), nothing on stdout', async () => {
    const cwd = tempDir('no-command-bad');
    const r = await spawnCli(['-C', 'nope'], cwd);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain('Usage: aureus');
    expect(r.stderr).toContain('AUR7006');
  });
});
