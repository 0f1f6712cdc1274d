import { describe, expect, it } from 'vitest';
import { builtCli, spawnCli } from '../pipeline/world.js';
import { useTempDirs } from '../support/git-repo.js';

/**
 * Usage errors of the command line itself (README, Exit codes: 2 is a usage error, an unknown
 * command among them): a command group named without its subcommand, and `help` of a command that
 * does not exist. `--help`, `help <command>` and a plain `aureus` still print the help with 0.
 */
describe.skipIf(!builtCli())('command groups and help as usage errors', () => {
  const tempDir = useTempDirs('usage');

  it('a group without its subcommand prints the group help and exits 2, naming what is missing', async () => {
    const cwd = tempDir();
    for (const [group, subs] of [['episode', 'plan, run, review, commit, discard'], ['scene', 'verify, rewrite, edit, pin, unpin'], ['session', 'list, show'], ['season', 'run'], ['import', 'dprr, synthetic']] as const) {
      const r = await spawnCli([group], cwd);
      expect(r.code, `${group}: ${r.stderr}`).toBe(2);
      expect(r.stderr, group).toContain(`Usage: aureus ${group} [options] [command]`);
      expect(r.stderr, group).toContain(`error: aureus ${group} needs a command: ${subs}`);
      expect(r.stdout, group).toBe('');
    }
  });

  it('help of an unknown command is the unknown command: exit 2, with "did you mean" when a name is close', async () => {
    const cwd = tempDir();
    const bogus = await spawnCli(['help', 'bogus'], cwd);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("error: unknown command 'bogus'");
    expect(bogus.stderr).not.toContain('Usage: aureus [options] [command]');
    const typo = await spawnCli(['help', 'epsiode'], cwd);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('(Did you mean episode?)');
    const sub = await spawnCli(['episode', 'help', 'rn'], cwd);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain("error: unknown command 'rn'");
    expect(sub.stderr).toContain('(Did you mean run?)');
  });

  it('the help itself still exits 0', async () => {
    const cwd = tempDir();
    for (const argv of [['--help'], ['help'], ['help', 'episode'], ['episode', '--help'], ['episode', 'help'], ['episode', 'help', 'run'], ['help', 'help'], []]) {
      const r = await spawnCli(argv, cwd);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout + r.stderr, argv.join(' ')).toContain('Usage: aureus');
    }
  });
});
