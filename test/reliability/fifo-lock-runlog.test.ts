import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, spawnCli } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { playScript } from '../play/support.js';

/**
 * A FIFO where a lock's owner record (`.aureus/lock.json`, a session's `lock.json`) or a run log
 * (run_log.jsonl of a run folder or of a play session) should be. They were read with
 * fs.readFileSync, which waited in open() for a writer that never came: the command hung past
 * Ctrl-C. Now they are read through the store's non-blocking, bounded reader: a lock whose owner
 * record cannot be read is AUR6062 (exit 9), a run log that cannot be read is AUR1008 (exit 3).
 */
const FIFO_REASON = 'it is a named pipe (FIFO), not a regular file';

/** The CLI, killed (SIGKILL) if it has not ended within `ms`: a hang is a failed test, not a hung suite. */
async function bounded(args: string[], cwd: string, ms = 10_000) {
  let timer: NodeJS.Timeout | undefined;
  const r = await spawnCli(args, cwd, {}, (pid) => {
    timer = setTimeout(() => process.kill(pid, 'SIGKILL'), ms);
  });
  clearTimeout(timer);
  return r;
}

const mkfifo = (file: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync('mkfifo', [file]);
};

describe.skipIf(!builtCli())('a FIFO in place of a lock owner record or a run log', () => {
  const base = useWorld('fifo-lock-runlog');

  it('the run lock held with a FIFO for its owner record: `note` refuses at once (exit 9, AUR6062), no wait', async () => {
    const w = copyRepo(base(), 'fifo-run-lock');
    fs.mkdirSync(path.join(w, '.aureus/lock'), { recursive: true });
    mkfifo(path.join(w, '.aureus/lock.json'));
    const r = await bounded(['note', 'Cato should lose his temper'], w);
    expect([r.code, r.signal], r.stderr).toEqual([9, null]);
    expect(r.stderr).toContain('error AUR6062 the lock .aureus/lock is held, but its owner record .aureus/lock.json is missing or unreadable');
    expect(fs.statSync(path.join(w, '.aureus/lock.json')).isFIFO()).toBe(true);
  }, 60_000);

  it("a session's lock with a FIFO for its owner record: `play --resume` refuses at once (exit 9, AUR6062)", async () => {
    const w = copyRepo(base(), 'fifo-session-lock');
    expect((await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--session', 'g1'], w, 'Hello Catiline\n')).code).toBe(0);
    fs.mkdirSync(path.join(w, '.aureus/sessions/g1/lock'));
    mkfifo(path.join(w, '.aureus/sessions/g1/lock.json'));
    const r = await bounded(['play', '--resume', 'g1'], w);
    expect([r.code, r.signal], r.stderr).toEqual([9, null]);
    expect(r.stderr).toContain('error AUR6062 the lock .aureus/sessions/g1/lock is held, but its owner record .aureus/sessions/g1/lock.json is missing or unreadable');
  }, 60_000);

  it('a run log that is a FIFO: `aureus cost` of its run folder, and of a session, exit 3 with AUR1008 naming it, no wait', async () => {
    const w = copyRepo(base(), 'fifo-run-log');
    mkfifo(path.join(w, '.aureus/runs/s01e01-x/run_log.jsonl'));
    const r = await bounded(['cost', '.aureus/runs/s01e01-x'], w);
    expect([r.code, r.signal], r.stderr).toEqual([3, null]);
    expect(r.stderr).toContain(`error AUR1008 cannot read .aureus/runs/s01e01-x/run_log.jsonl: ${FIFO_REASON}`);
    expect(r.stderr).not.toContain('internal error');
    mkfifo(path.join(w, '.aureus/sessions/s1/run_log.jsonl'));
    fs.writeFileSync(path.join(w, '.aureus/sessions/s1/turns.jsonl'), '');
    const s = await bounded(['cost', '--session', 's1'], w);
    expect([s.code, s.signal], s.stderr).toEqual([3, null]);
    expect(s.stderr).toContain(`error AUR1008 cannot read .aureus/sessions/s1/run_log.jsonl: ${FIFO_REASON}`);
  }, 60_000);

  it('a run log over its bound is refused (AUR1008), not read whole', async () => {
    const w = copyRepo(base(), 'big-run-log');
    const file = path.join(w, '.aureus/runs/s01e01-y/run_log.jsonl');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '');
    fs.truncateSync(file, 65 * 1024 * 1024); // sparse: no disk used
    const r = await bounded(['cost', '.aureus/runs/s01e01-y'], w);
    expect([r.code, r.signal], r.stderr).toEqual([3, null]);
    expect(r.stderr).toMatch(/error AUR1008 cannot read \.aureus\/runs\/s01e01-y\/run_log\.jsonl: it is 68157440 bytes, over the \d+-byte limit/);
  }, 60_000);
});
