import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, builtCli, cleanup, cli, git, makeWorld } from '../pipeline/world.js';
import { STACK_TRACE } from './helpers.js';

/**
 * The CLI under a shell's resource limits (`ulimit -n`, `ulimit -f`), as a user's shell or a CI job
 * sets them: the limit reached is the user's environment, said with a code and a hint, never a
 * crash dump or "internal error", and a modest limit is enough for an episode.
 */
afterAll(cleanup);

const bash = spawnSync('bash', ['-c', 'true']).status === 0;

/** The built CLI in `cwd` under `ulimit <limit>` (bash's: the soft limit), offline; stdout to the file `out` if given. */
export function underLimit(limit: string, args: string[], cwd: string, out?: string): { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.ANTHROPIC_API_KEY;
  const script = out === undefined ? `ulimit ${limit} && exec "$@"` : `ulimit ${limit} && exec "$@" > "$AUREUS_TEST_OUT"`;
  const r = spawnSync('bash', ['-c', script, 'bash', process.execPath, BIN, ...args], { cwd, env: { ...env, AUREUS_TEST_OUT: out }, encoding: 'utf8' });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

const head = (w: string) => git(w, 'rev-parse', 'HEAD').trim();

describe.skipIf(!builtCli() || !bash)('too few file descriptors (ulimit -n)', () => {
  it('ulimit -n 64 is enough for an episode run and its commit', async () => {
    const w = await makeWorld('fd-64');
    const r = underLimit('-n 64', ['episode', 'run', '--provider', 'offline', '--seed', '4'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(git(w, 'tag', '--list').trim()).toBe('s01e01');
  }, 180_000);

  it('ulimit -n 20: exit 11, AUR1054 with a hint naming ulimit -n, no crash dump; world, git and lock as before', async () => {
    const w = await makeWorld('fd-20');
    const before = await head(w);
    const r = underLimit('-n 20', ['episode', 'run', '--provider', 'offline', '--seed', '4'], w);
    expect(r.code, r.stderr).toBe(11);
    expect(r.stderr).toMatch(/AUR1054 too many open files: cannot open .+ \(EMFILE\)/);
    expect(r.stderr).toContain('ulimit -n');
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.stderr).not.toMatch(/spawnargs|Unhandled 'error' event|node:events/);
    expect(head(w)).toBe(before);
    expect(git(w, 'status', '--porcelain').trim()).toBe('');
    expect(fs.readdirSync(path.join(w, '.aureus')).filter((n) => n.startsWith('lock'))).toEqual([]);
  }, 180_000);
});

describe.skipIf(!builtCli() || !bash)('a file-size limit reached mid-write (ulimit -f: EFBIG)', () => {
  it('episode run under ulimit -f 200: exit 11, AUR1053 naming the file, a hint naming ulimit -f; the next run resumes and commits', async () => {
    const w = await makeWorld('fsize-run');
    const before = head(w);
    const r = underLimit('-f 200', ['episode', 'run', '--provider', 'offline', '--seed', '3'], w);
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(11);
    expect(r.stderr).toContain(`AUR1053 cannot write ${w}/`);
    expect(r.stderr).toContain(': the file would exceed the largest file size allowed');
    expect(r.stderr).toContain('ulimit -f');
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(head(w)).toBe(before);
    expect(git(w, 'status', '--porcelain').trim()).toBe('');
    const again = underLimit('-f unlimited', ['episode', 'run', '--provider', 'offline', '--seed', '3'], w);
    expect(again.code, again.stderr).toBe(0);
    expect(git(w, 'tag', '--list').trim()).toBe('s01e01');
  }, 180_000);
});

describe.skipIf(!builtCli() || !bash)('output cut short by a file-size limit (ulimit -f 4: 4096 bytes)', () => {
  let w = '';
  beforeAll(async () => {
    w = await makeWorld('fsize-out');
    const r = await cli(['episode', 'run', '--provider', 'offline'], w);
    if (r.code !== 0) throw new Error(r.stderr);
  }, 180_000);

  for (const args of [['status', '--json'], ['export', 's01e01', '--format', 'md']]) {
    it(`aureus ${args.join(' ')} > file: exit 11, AUR1053 on stderr, not exit 0 with the output cut`, () => {
      const whole = underLimit('-f unlimited', args, w);
      expect(whole.code, whole.stderr).toBe(0);
      expect(Buffer.byteLength(whole.stdout)).toBeGreaterThan(4096);
      const out = path.join(path.dirname(w), `${args[0]}.out`);
      const r = underLimit('-f 4', args, w, out);
      expect(r.signal).toBeNull();
      expect(r.code, r.stderr).toBe(11);
      expect(r.stderr).toContain('AUR1053 cannot write standard output: EFBIG');
      expect(r.stderr.match(/AUR1053/g)).toHaveLength(1);
      expect(r.stderr).not.toMatch(STACK_TRACE);
    }, 60_000);
  }

  it('export -o under ulimit -f 4: exit 11, AUR1053 naming the file, not killed by SIGXFSZ nor "wrote" a cut file; nothing left', () => {
    const dir = path.join(path.dirname(w), 'o');
    fs.mkdirSync(dir);
    const file = path.join(dir, 'e.md');
    const r = underLimit('-f 4', ['export', 's01e01', '--format', 'md', '-o', file], w);
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(11);
    expect(r.stderr).toContain(`AUR1053 cannot write ${file}: the file would exceed the largest file size allowed`);
    expect(r.stderr).not.toContain('wrote');
    expect(fs.readdirSync(dir)).toEqual([]);
  }, 60_000);
});
