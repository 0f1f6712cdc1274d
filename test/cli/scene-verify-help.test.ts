import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, builtCli, cleanup, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * The example paths of `scene verify --help` and `scene --help` are real: each example that names
 * a run folder or an episode folder is run, by a shell (its globs expanded), against a world where
 * the run it describes happened. Before, they named `.aureus/runs/s01e01-7/packets/…`, a folder that
 * never exists (run folders are `s01e01-7-<hash8>`, and packets live elsewhere in them).
 */
afterAll(cleanup);

/** The `$ aureus …` example lines of a help text that name files of a run or an episode. */
function examples(help: string): string[] {
  return [...help.matchAll(/^\s+\$ (aureus .*)$/gm)].map((m) => m[1]!.trim()).filter((l) => /\.aureus\/runs\/|seasons\//.test(l));
}

/** Run an example line through sh in `cwd`, `aureus` being the built CLI and `my-world` the world. */
function runExample(line: string, cwd: string, world: string): { status: number | null; out: string } {
  const cmd = line.replace(/^aureus /, `"${process.execPath}" "${BIN}" `).replace(/-C my-world /, `-C "${world}" `);
  const r = spawnSync('sh', ['-c', cmd], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe.runIf(builtCli())('scene verify --help examples', () => {
  it('name files that exist after the run they describe, and verify them (exit 0)', async () => {
    const world = await makeWorld('verify-help');
    const help = ['scene verify --help', 'scene --help'].map((a) => execFileSync(process.execPath, [BIN, ...a.split(' ')], { encoding: 'utf8' })).join('\n');
    const lines = examples(help);
    const staged = lines.filter((l) => l.includes('.aureus/runs/'));
    const committed = lines.filter((l) => !l.includes('.aureus/runs/'));
    expect(staged.length).toBeGreaterThan(0);
    expect(committed.length).toBeGreaterThan(0);
    // A run not committed: its folder keeps the packets and drafts.
    let r = await spawnCli(['episode', 'run', '--seed', '7', '--no-commit'], world);
    expect(r.code, r.stderr).toBe(0);
    for (const line of staged) {
      const x = runExample(line, world, world);
      expect(x.status, `${line}\n${x.out}`).toBe(0);
    }
    // The same episode committed: its folder keeps them.
    r = await spawnCli(['episode', 'run', '--seed', '7'], world);
    expect(r.code, r.stderr).toBe(0);
    for (const line of committed) {
      const x = runExample(line, line.includes('-C my-world') ? path.dirname(world) : world, world);
      expect(x.status, `${line}\n${x.out}`).toBe(0);
    }
  }, 240_000);
});
