import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The bench scripts read their options strictly: a typo (`--rep 3`) or a bad value must stop at once
// with what was wrong and the usage, not start a five-minute run with the defaults; `--help` prints the
// usage. Every case here exits before the bench builds a world or spawns the CLI.
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = (script: string, ...args: string[]) =>
  spawnSync(process.execPath, [path.join(repo, 'bench', script), ...args], { encoding: 'utf8', timeout: 20_000 });

describe('bench options', () => {
  it('prints the usage with examples on --help and exits 0', () => {
    for (const script of ['cli.mjs', 'run.mjs']) {
      const r = run(script, '--help');
      expect(r.status, script).toBe(0);
      expect(r.stdout, script).toMatch(new RegExp(`^Usage: node bench/${script.replace('.', '\\.')}`));
      expect(r.stdout, script).toMatch(/Examples?:\n {2}node bench\//);
    }
  });

  it.each([
    [['--rep', '3'], /Unknown option '--rep'/],
    [['--reps', '0'], /--reps wants a whole number of runs of at least 1, not "0"/],
    [['--only', 'plans'], /--only: "plans" is no part \(use startup, episode, plan\)/],
    [['--sizes', '1000,5000'], /--sizes: "5000" is no planning world/],
    [['extra'], /Unexpected argument 'extra'/],
  ])('bench/cli.mjs %j exits 2 naming the mistake, with the usage', (args, said) => {
    const r = run('cli.mjs', ...(args as string[]));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(said as RegExp);
    expect(r.stderr).toContain('Usage: node bench/cli.mjs');
    expect(r.stdout).toBe('');
  });

  it('bench/run.mjs refuses an unknown option', () => {
    const r = run('run.mjs', '--quik');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/Unknown option '--quik'/);
  });
});
