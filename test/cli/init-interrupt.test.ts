import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, spawnCli, tempDir } from '../pipeline/world.js';
import { STACK_TRACE } from './helpers.js';

/**
 * Ctrl-C (or SIGTERM) during `aureus init`: the real CLI as a child process, real git, a real temp
 * folder. Before the fix the process died by the signal, silently, and left its hidden staging
 * folder `.<dir>.aureus-init-XXXX` (~520 KB) beside the target. Now: exit 130, AUR7008 saying the
 * folder was not created and nothing was left, and nothing left. The signal comes from the CLI
 * itself at a named point (AUREUS_TEST_SIGINT_AT / AUREUS_TEST_SIGTERM_AT, store/staging.ts), or
 * from outside once the staging folder is seen.
 */
afterEach(cleanup);

const NOTICE = /AUR7008 interrupted: .*ini was not created, and nothing of it was left behind/;

describe('aureus init interrupted: exit 130 (AUR7008), no folder, no hidden staging folder', () => {
  it('SIGINT while the kit is copied (--json): the one-line JSON error, the parent as it was', async () => {
    const parent = tempDir('init-intr-copy');
    const r = await spawnCli(['init', 'ini', '--json'], parent, { AUREUS_TEST_SIGINT_AT: 'init-copy' });
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/aureus: interrupted; stopping at the next safe point .* The partial world is removed\./);
    expect(r.stderr).toMatch(NOTICE);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(JSON.parse(r.stdout)).toEqual({ error: { message: `interrupted: no world created at ${path.join(parent, 'ini')}`, exit_code: 130, codes: ['AUR7008'] } });
    expect(fs.readdirSync(parent)).toEqual([]);
  });

  it('SIGTERM as git adds the files, into an existing empty folder: the folder left as it was (empty)', async () => {
    const parent = tempDir('init-intr-git');
    fs.mkdirSync(path.join(parent, 'ini'));
    const r = await spawnCli(['init', 'ini'], parent, { AUREUS_TEST_SIGTERM_AT: 'init-git-add' });
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/aureus: terminated; stopping/);
    expect(r.stderr).toMatch(NOTICE);
    expect(r.stdout).toBe('');
    expect(fs.readdirSync(parent)).toEqual(['ini']);
    expect(fs.readdirSync(path.join(parent, 'ini'))).toEqual([]);
  });

  it('a Ctrl-C from outside once the staging folder exists, into missing parents: nothing left, not even the parents', async () => {
    const parent = tempDir('init-intr-outside');
    const nested = path.join(parent, 'a', 'b');
    let seen = false;
    const r = await spawnCli(['init', 'a/b/ini'], parent, {}, (pid) => {
      const poll = setInterval(() => {
        const names = fs.existsSync(nested) ? fs.readdirSync(nested) : [];
        if (!names.some((n) => n.startsWith('.ini.aureus-init-'))) return;
        seen = true;
        clearInterval(poll);
        process.kill(pid, 'SIGINT');
      }, 1);
      setTimeout(() => clearInterval(poll), 20_000);
    });
    // The staging folder lives through the copy and git's init, add and commit (~0.1 s): polled every ms, it is seen.
    expect(seen).toBe(true);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(NOTICE);
    expect(fs.readdirSync(parent)).toEqual([]);
  });

  it('a staging folder an init killed outright left (SIGKILL: no handler runs) is removed by the next init; a live one is kept', async () => {
    const parent = tempDir('init-stale');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    fs.mkdirSync(path.join(parent, `.w.aureus-init-${dead}`, 'world'), { recursive: true });
    fs.mkdirSync(path.join(parent, '.w.aureus-init-1')); // pid 1 always runs: another init at work
    const r = await spawnCli(['init', 'w'], parent);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readdirSync(parent).sort()).toEqual(['.w.aureus-init-1', 'w']);
  });
});
