import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, builtCli, cleanup, git, makeWorld, tempDir } from '../pipeline/world.js';

/**
 * A terminal's Ctrl-C is sent to the whole foreground process group, not to Aureus alone (the other interrupt tests send
 * SIGINT to the process, AUREUS_TEST_SIGINT_AT). README promises that an interrupt during an episode's commit lets the
 * atomic commit finish first (exit 0). With the run's shell in the terminal's group, the Ctrl-C also killed the commit's
 * own git commands: the commit was rolled back and the run ended with exit 130, nothing committed, right after saying the
 * commit would be finished. The shell now runs in a group of its own (io/shell-runner.ts).
 *
 * The Ctrl-C comes the moment git commits: a reference-transaction hook (it runs inside git) sends SIGINT to the
 * CLI's process group, the CLI being started as a group leader, as a shell starts a foreground job.
 */
afterAll(cleanup);

function runAsForegroundJob(world: string, pgidFile: string, args = ['episode', 'run'], input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env.ANTHROPIC_API_KEY;
    const child = spawn(process.execPath, [BIN, ...args], { cwd: world, env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    fs.writeFileSync(pgidFile, String(child.pid));
    if (input !== undefined) child.stdin!.end(input);
  });
}

/** Once, at the first ref git prepares to move (the commit's own): Ctrl-C to the CLI's group; then it waits, as a git at work would. */
function ctrlCAtCommit(world: string, pgid: string): void {
  const hook = path.join(world, '.git/hooks/reference-transaction');
  fs.writeFileSync(hook, `#!/bin/sh\ncat >/dev/null\nif [ "$1" = prepared ] && [ -f '${pgid}' ]; then p=$(cat '${pgid}'); rm -f '${pgid}'; kill -INT -$p 2>/dev/null || /bin/kill -INT -- -$p; sleep 1; fi\nexit 0\n`, { mode: 0o755 });
}

describe.skipIf(!builtCli() || process.platform !== 'linux')("a terminal's Ctrl-C during an episode's or a canonization's commit", () => {
  it('the commit is finished first, as said: committed and tagged, exit 0', async () => {
    const w = await makeWorld('terminal-ctrl-c');
    const pgid = path.join(tempDir('terminal-ctrl-c-pgid'), 'pgid');
    ctrlCAtCommit(w, pgid);
    const before = git(w, 'rev-parse', 'HEAD');
    const r = await runAsForegroundJob(w, pgid);
    expect(fs.existsSync(pgid), 'the hook sent its Ctrl-C').toBe(false);
    expect(r.stderr).toContain('aureus: interrupted; stopping at the next safe point');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('the commit was finished first: s01e01 is committed');
    expect(git(w, 'rev-parse', 'HEAD~1')).toBe(before);
    expect(git(w, 'tag', '-l', 's01e01')).toBe('s01e01');
    expect(git(w, 'status', '--porcelain')).toBe('');
  }, 120_000);

  // play's canonization commits through the same transaction: its git commands were spawned in the terminal's group,
  // so the Ctrl-C killed `git commit` and the canonization was rolled back (AUR6008, AUR6052, nothing canonized).
  it("play: a canonization under way is finished first, then the session pauses (130), nothing to redo", async () => {
    const w = await makeWorld('terminal-ctrl-c-play');
    const pgid = path.join(tempDir('terminal-ctrl-c-play-pgid'), 'pgid');
    ctrlCAtCommit(w, pgid);
    const before = git(w, 'rev-parse', 'HEAD');
    const args = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open', '--session', 't1'];
    const r = await runAsForegroundJob(w, pgid, args, 'Catiline, where were you last night?\n/commit\n');
    expect(fs.existsSync(pgid), 'the hook sent its Ctrl-C').toBe(false);
    expect(r.stderr).toContain('aureus: interrupted; stopping at the next safe point');
    expect(r.stderr).not.toMatch(/AUR6008|AUR6052/);
    expect(r.stdout).toMatch(/\[canon\] commit [0-9a-f]+: accepted p1/);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('aureus: session t1 paused; continue with `aureus play --resume t1`');
    expect(git(w, 'rev-parse', 'HEAD~1')).toBe(before);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(git(w, 'rev-parse', 'play/t1/1^{commit}'));
    expect(git(w, 'status', '--porcelain')).toBe('');
  }, 120_000);

  // `note` and `branch --set` commit outside the transaction, with no handler: the Ctrl-C killed Aureus and its git
  // between the write and the commit, leaving the note written and staged (the next note refused it, AUR6001).
  it('note: its commit is finished first, exit 0, and it says so', async () => {
    const w = await makeWorld('terminal-ctrl-c-note');
    const pgid = path.join(tempDir('terminal-ctrl-c-note-pgid'), 'pgid');
    ctrlCAtCommit(w, pgid);
    const before = git(w, 'rev-parse', 'HEAD');
    const r = await runAsForegroundJob(w, pgid, ['note', 'The trial must feel close to collapse']);
    expect(fs.existsSync(pgid), 'the hook sent its Ctrl-C').toBe(false);
    expect(r.stderr).toContain("aureus: interrupted; stopping at the next safe point (Ctrl-C again to quit now). The note's commit under way is finished first.");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/the interrupt came during the note's commit; it was finished first: note n001 is committed \([0-9a-f]{12}\)/);
    expect(git(w, 'rev-parse', 'HEAD~1')).toBe(before);
    expect(git(w, 'log', '-1', '--format=%s')).toBe('Note for S01E01: The trial must feel close to collapse');
    expect(git(w, 'status', '--porcelain')).toBe('');
  }, 120_000);

  it('branch --set: the switch and its commit are finished first, exit 0', async () => {
    const w = await makeWorld('terminal-ctrl-c-branch');
    const pgid = path.join(tempDir('terminal-ctrl-c-branch-pgid'), 'pgid');
    const before = git(w, 'rev-parse', 'HEAD');
    ctrlCAtCommit(w, pgid);
    const r = await runAsForegroundJob(w, pgid, ['branch', 'exiled', '--set', 'characters.varo.status=exiled']);
    expect(fs.existsSync(pgid), 'the hook sent its Ctrl-C').toBe(false);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('the interrupt came during the branch; it was finished first: on exiled, committed');
    expect(git(w, 'branch', '--show-current')).toBe('exiled');
    expect(git(w, 'rev-parse', 'HEAD~1')).toBe(before);
    expect(git(w, 'status', '--porcelain')).toBe('');
  }, 120_000);
});
