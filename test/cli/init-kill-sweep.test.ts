import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCli, cleanup, spawnCli, tempDir } from '../pipeline/world.js';

/**
 * `aureus init` killed outright (SIGKILL: no handler runs) leaves its hidden staging folder
 * `.<name>.aureus-init-<pid>` and its owner lock beside it. The next init of ANY name in that parent
 * removes them once their owner is gone (before: only the next init of that same name did, so a
 * loop of killed inits of different names piled them up). A build at work is never removed: its
 * lock is fresh (another host's: whatever its pid), or, without a lock (an older aureus), its pid runs.
 */
afterEach(cleanup);

const staged = (parent: string) => fs.readdirSync(parent).filter((n) => n.includes('.aureus-init-')).sort();

/** `init <name>` in `parent`, SIGKILLed once its staging folder is there. */
async function killedInit(parent: string, name: string): Promise<void> {
  let seen = false;
  const r = await spawnCli(['init', name], parent, {}, (pid) => {
    const poll = setInterval(() => {
      if (!fs.readdirSync(parent).some((n) => n.startsWith(`.${name}.aureus-init-`) && !n.endsWith('.lock'))) return;
      seen = true;
      clearInterval(poll);
      process.kill(pid, 'SIGKILL');
    }, 1);
    setTimeout(() => clearInterval(poll), 20_000);
  });
  expect(seen, r.stderr).toBe(true);
  expect(r.signal).toBe('SIGKILL');
}

describe.runIf(builtCli())('aureus init killed outright, then init of another name', () => {
  it('a kill loop of inits of different names leaves nothing once the next init runs', async () => {
    const parent = tempDir('init-kill-loop');
    for (const name of ['a', 'b', 'c']) await killedInit(parent, name);
    // Each init swept the ones killed before it: only the last one's staging (and lock) is left.
    expect(staged(parent).filter((n) => !n.startsWith('.c.'))).toEqual([]);
    expect(staged(parent).some((n) => n.startsWith('.c.aureus-init-'))).toBe(true);
    const r = await spawnCli(['init', 'w'], parent);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readdirSync(parent).sort()).toEqual(['w']);
  }, 120_000);

  it('keeps a live build: a fresh lock of another host, a lockless folder whose pid runs; removes a stale lock\'s', async () => {
    const parent = tempDir('init-kill-live');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const other = createHash('sha256').update(`${os.hostname()}-other`).digest('hex').slice(0, 8);
    const elsewhere = `.x.aureus-init-${dead}`;
    fs.mkdirSync(path.join(parent, elsewhere, 'world'), { recursive: true });
    fs.mkdirSync(path.join(parent, `${elsewhere}@${other}.lock`));
    fs.mkdirSync(path.join(parent, '.y.aureus-init-1')); // no lock, pid 1 always runs: an older aureus at work
    const first = await spawnCli(['init', 'w1'], parent);
    expect(first.code, first.stderr).toBe(0);
    expect(fs.readdirSync(parent).sort()).toEqual([elsewhere, `${elsewhere}@${other}.lock`, '.y.aureus-init-1', 'w1']);
    // The other host's build stopped refreshing its lock a minute ago: it is dead.
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(parent, `${elsewhere}@${other}.lock`), old, old);
    const second = await spawnCli(['init', 'w2'], parent);
    expect(second.code, second.stderr).toBe(0);
    expect(fs.readdirSync(parent).sort()).toEqual(['.y.aureus-init-1', 'w1', 'w2']);
  }, 120_000);
});
