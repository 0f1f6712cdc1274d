import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, builtCli, cleanup, makeWorld, spawnCli, tempDir } from '../pipeline/world.js';

/**
 * Help examples a newcomer copies run as written. `import synthetic big --principals 10000` failed
 * (AUR1002: its files pass the 10 MB cap from about 4,700 principals); `play --as cicero --scene
 * s01e01/SC03` failed on the starter world, whose SC03 under the default seed casts cato and servilia.
 */
afterAll(cleanup);

/** The `$ aureus …` example lines of `aureus <args> --help` whose command starts with `prefix`. */
function examples(args: string[], prefix: string): string[] {
  const help = execFileSync(process.execPath, [BIN, ...args, '--help'], { encoding: 'utf8' });
  return [...help.matchAll(/^\s+\$ (aureus .*?)(?: {2,}.*)?$/gm)].map((m) => m[1]!.trim()).filter((l) => l.startsWith(prefix));
}

/** Run an example line through sh in `cwd`, `aureus` being the built CLI, stdin empty. */
function run(line: string, cwd: string): { status: number | null; out: string } {
  const r = spawnSync('sh', ['-c', line.replace(/^aureus /, `"${process.execPath}" "${BIN}" `)], { cwd, encoding: 'utf8', input: '', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe.runIf(builtCli())('help examples run as written', () => {
  it('import synthetic, in `import --help` and `import synthetic --help`', () => {
    const lines = [...new Set([...examples(['import'], 'aureus import synthetic'), ...examples(['import', 'synthetic'], 'aureus import synthetic')])];
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const x = run(line, tempDir('help-import'));
      expect(x.status, `${line}\n${x.out}`).toBe(0);
    }
  }, 180_000);

  it('play --scene, after the first episode of the starter world', async () => {
    const world = await makeWorld('help-play');
    const r = await spawnCli(['episode', 'run'], world);
    expect(r.code, r.stderr).toBe(0);
    const lines = examples(['play'], 'aureus play --as').filter((l) => l.includes('--scene'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const x = run(line, world);
      expect(x.status, `${line}\n${x.out}`).toBe(0);
      expect(x.out).toContain('paused');
    }
  }, 180_000);
});
