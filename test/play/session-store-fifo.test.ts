import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, spawnCli } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { fileSessionStore } from '../../src/play/store.js';
import { AureusError } from '../../src/errors.js';

/**
 * A FIFO (or any file that is not a regular file) where a session's turns.jsonl should be: the
 * store reads without waiting (store/regular-file.ts), so `session list` marks it unreadable
 * (exit 0), `session show` and `play --resume` refuse it (exit 3, AUR6201 + AUR1008), and an append
 * refuses to write into it. Before, fs.readFileSync blocked in open() waiting for a writer, and
 * only SIGKILL ended the command.
 */
const FIFO_REASON = 'it is a named pipe (FIFO), not a regular file';

/** The CLI, killed (SIGKILL) if it has not ended within `ms`: a hang is a failed test, not a hung suite. */
async function bounded(args: string[], cwd: string, ms = 8000) {
  let timer: NodeJS.Timeout | undefined;
  const r = await spawnCli(args, cwd, {}, (pid) => {
    timer = setTimeout(() => process.kill(pid, 'SIGKILL'), ms);
  });
  clearTimeout(timer);
  return r;
}

function fifoSession(w: string, id: string): string {
  const dir = path.join(w, '.aureus/sessions', id);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'turns.jsonl');
  execFileSync('mkfifo', [file]);
  return file;
}

describe.skipIf(!builtCli())('a session log that is a FIFO', () => {
  const base = useWorld('session-fifo');

  it('session list marks it unreadable (exit 0); session show and play --resume exit 3 with AUR6201; none waits', async () => {
    const w = copyRepo(base(), 'session-fifo-cli');
    fifoSession(w, 'ff');
    const list = await bounded(['session', 'list'], w);
    expect([list.code, list.signal], list.stderr).toEqual([0, null]);
    expect(list.stdout).toMatch(new RegExp(`^ff +unreadable: cannot read \\.aureus/sessions/ff/turns\\.jsonl: ${FIFO_REASON.replace(/[()]/g, '\\$&')}$`, 'm'));
    const json = await bounded(['session', 'list', '--json'], w);
    expect(json.code).toBe(0);
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain('"state":"unreadable"');
    for (const argv of [['session', 'show', 'ff'], ['play', '--resume', 'ff']]) {
      const r = await bounded(argv, w);
      expect([r.code, r.signal], argv.join(' ')).toEqual([3, null]);
      expect(r.stderr).toContain(`error AUR6201 session ff cannot be read: ${FIFO_REASON}`);
      expect(r.stderr).toContain(`error AUR1008 cannot read .aureus/sessions/ff/turns.jsonl: ${FIFO_REASON}`);
    }
    // Still the FIFO: nothing was written in its place.
    expect(fs.statSync(path.join(w, '.aureus/sessions/ff/turns.jsonl')).isFIFO()).toBe(true);
  }, 60_000);

  it('an append refuses a FIFO (exit 3) at once, and leaves it as it is', async () => {
    const w = copyRepo(base(), 'session-fifo-append');
    const store = fileSessionStore(w);
    const file = fifoSession(w, 'ap');
    // Before the fix the append blocked in open(): a writer that opens the FIFO after 3 s ends
    // that wait (the reader sees end of file), so the test fails instead of hanging.
    const writer = spawn('sh', ['-c', `sleep 3; : > "${file}"`], { stdio: 'ignore' });
    const t0 = Date.now();
    let thrown: unknown;
    try {
      store.appendMany('ap', [{ type: 'undo', id: 't0002', target: 't0001' }]);
    } catch (e) {
      thrown = e;
    } finally {
      writer.kill('SIGKILL');
    }
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(thrown).toBeInstanceOf(AureusError);
    expect((thrown as AureusError).exitCode).toBe(3);
    expect((thrown as AureusError).diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([`AUR6201 session ap cannot be read: ${FIFO_REASON}`, `AUR1008 cannot read .aureus/sessions/ap/turns.jsonl: ${FIFO_REASON}`]);
    expect(fs.statSync(file).isFIFO()).toBe(true);
  }, 20_000);
});
