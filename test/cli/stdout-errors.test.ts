import fs from 'node:fs';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, builtCli, cleanup, makeWorld } from '../pipeline/world.js';
import { STACK_TRACE } from './helpers.js';

/**
 * A command whose stdout cannot be written (`> /dev/full`: ENOSPC, as a full disk under `export … >
 * report.html`) exits 11 with AUR1053 on stderr, as `cat f > /dev/full` fails; a reader that closes
 * the pipe early (`| head`) is still no error (EPIPE: quiet, the command's own exit code).
 */
let w = '';
beforeAll(async () => {
  w = await makeWorld('stdout-errors');
}, 120_000);
afterAll(cleanup);

/** The built CLI with its stdout on `out` (a file descriptor, or a pipe closed after `keep` bytes). */
function run(args: string[], out: number | 'head'): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: w, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', out === 'head' ? 'pipe' : out, 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    // As `| head -c1`: the reader takes its first bytes and closes the pipe.
    if (out === 'head') child.stdout!.once('data', () => child.stdout!.destroy());
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe.skipIf(!builtCli() || !fs.existsSync('/dev/full'))('a failed write to stdout', () => {
  for (const args of [['validate', '--json'], ['episode', 'plan', '--seed', '7', '--json'], ['--help']]) {
    it(`aureus ${args.join(' ')} > /dev/full: exit 11, AUR1053 on stderr`, async () => {
      const full = fs.openSync('/dev/full', 'w');
      try {
        const r = await run(args, full);
        expect(r.code, r.stderr).toBe(11);
        expect(r.stderr).toContain('AUR1053 cannot write standard output: ENOSPC');
        expect(r.stderr.match(/AUR1053/g)).toHaveLength(1);
        expect(r.stderr).not.toMatch(STACK_TRACE);
      } finally {
        fs.closeSync(full);
      }
    }, 60_000);
  }

  it('a reader that closes the pipe early (EPIPE) is still quiet, exit 0', async () => {
    const r = await run(['status'], 'head');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  }, 60_000);
});
