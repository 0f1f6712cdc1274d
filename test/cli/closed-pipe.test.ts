import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, builtCli, cleanup, cli, copyRepo, git, makeWorld } from '../pipeline/world.js';

/**
 * A reader that closes the pipe early (`aureus episode run | head -3`) ends a command whose whole
 * job is its output (`status | head`: exit 0, as before), but never stops work half done: the
 * command goes on to its end with what it writes to the closed stream dropped, and exits with its
 * work's own code. Before the fix bin/aureus.js exited 0 at the first EPIPE: `episode run` with
 * nothing committed (its run folder left), `season run --count 3` after 2 episodes, `play` with its
 * session still in progress, all exit 0 without a word. The real built CLI as a child process,
 * offline, real git; the test closes its end of the pipe as `head` does.
 */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('closed-pipe');
}, 120_000);
afterAll(cleanup);

type Close = 'stdout-at-once' | 'stdout-after-first' | 'stderr-after-first' | 'both-after-first';

/** The built CLI in `cwd`, the test's end of its stdout and/or stderr closed as `how` says; `input` on its stdin. */
function run(args: string[], cwd: string, how: Close, input?: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env.ANTHROPIC_API_KEY;
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    if (how === 'stdout-at-once') child.stdout!.destroy();
    if (how === 'stdout-after-first') child.stdout!.once('data', () => child.stdout!.destroy());
    if (how === 'stderr-after-first') child.stderr!.once('data', () => child.stderr!.destroy());
    // As `2>&1 | head -3`: one reader of both, gone after the first lines.
    if (how === 'both-after-first') child.stderr!.once('data', () => (child.stderr!.destroy(), child.stdout!.destroy()));
    if (input !== undefined) child.stdin!.end(input);
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const tags = (w: string) => git(w, 'tag', '--list').split('\n').filter(Boolean);

describe.runIf(builtCli())('a reader closing the pipe early', () => {
  for (const how of ['both-after-first', 'stdout-at-once', 'stderr-after-first'] as const) {
    it(`episode run, ${how}: the episode is committed and tagged, exit 0, no run left half done`, async () => {
      const w = copyRepo(pristine, `closed-pipe-run-${how}`);
      const head = git(w, 'rev-parse', 'HEAD');
      const r = await run(['episode', 'run', '--seed', '7'], w, how);
      expect(r.signal).toBeNull();
      expect(r.code, r.stderr).toBe(0);
      expect(git(w, 'rev-parse', 'HEAD')).not.toBe(head);
      expect(tags(w)).toEqual(['s01e01']);
      expect(git(w, 'status', '--porcelain')).toBe('');
      expect(fs.existsSync(path.join(w, '.aureus/lock.json'))).toBe(false);
      // The stream still open says what the other lost: the summary on stdout, the progress on stderr.
      if (how === 'stderr-after-first') expect(r.stdout).toContain('✓ committed S01E01');
      if (how === 'stdout-at-once') expect(r.stderr).toContain('commit and tag … done');
    }, 180_000);
  }

  it('episode run refused (a dirty world), stdout closed: its own exit code (8), not 0', async () => {
    const w = copyRepo(pristine, 'closed-pipe-dirty');
    fs.appendFileSync(path.join(w, 'world/world.json'), '\n');
    const r = await run(['episode', 'run', '--seed', '7'], w, 'stdout-at-once');
    expect(r.code, r.stderr).toBe(8);
    expect(tags(w)).toEqual([]);
  }, 120_000);

  it('season run --count 3, stdout closed after the first episode: all three committed, exit 0', async () => {
    const w = copyRepo(pristine, 'closed-pipe-season');
    const r = await run(['season', 'run', '--count', '3'], w, 'stdout-after-first');
    expect(r.code, r.stderr).toBe(0);
    expect(tags(w)).toEqual(['s01e01', 's01e02', 's01e03']);
    expect(git(w, 'status', '--porcelain')).toBe('');
  }, 300_000);

  it('play, stdout closed after its first line: the input is played to its end and the session completes', async () => {
    const w = copyRepo(pristine, 'closed-pipe-play');
    const r = await run(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--turns', '3'], w, 'stdout-after-first', 'a\nb\nc\n');
    expect(r.code, r.stderr).toBe(0);
    const list = await cli(['session', 'list'], w);
    expect(list.stdout).toMatch(/cicero-001\s+cicero\s+\S+\s+3 turns\s+complete/);
  }, 180_000);

  it('status, the pipe closed after the first line: ends there, exit 0, nothing said', async () => {
    const r = await run(['status'], pristine, 'stdout-after-first');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  }, 60_000);
});
