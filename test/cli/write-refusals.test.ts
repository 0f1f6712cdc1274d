import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, builtCli, cleanup, cli, makeWorld, tempDir } from '../pipeline/world.js';
import { STACK_TRACE } from './helpers.js';

/**
 * A world the file system will not let the user write (a folder of another user, a file where
 * .aureus/runs must be): a clear error naming the path and the problem (AUR1053, exit 11), never
 * "internal error" (exit 1), whichever command's write it is.
 */
afterAll(cleanup);

const setpriv = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;

/**
 * A HOME whose global git config trusts every repository: git trusts one another user owns only by
 * a setting outside it (Aureus drops GIT_* variables from git's environment, so not GIT_CONFIG_*).
 */
function trustingHome(): string {
  const home = tempDir('nobody-home');
  fs.chmodSync(home, 0o755);
  fs.writeFileSync(path.join(home, '.gitconfig'), '[safe]\n\tdirectory = *\n');
  return home;
}

/** The built CLI run as nobody (uid 65534), which may read the world but not write it. */
function asNobody(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'env', `HOME=${trustingHome()}`, 'NO_COLOR=1', process.execPath, BIN, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A world root's own folders opened to every user for reading (as `chmod -R a+rX`). */
async function readableWorld(label: string): Promise<string> {
  const w = await makeWorld(label);
  // nobody must get through the folders the test run made (mkdtemp: 0700): the run's temp root and the world's parent.
  for (const d of [os.tmpdir(), path.dirname(w)]) fs.chmodSync(d, fs.statSync(d).mode | 0o011);
  spawnSync('chmod', ['-R', 'a+rX', w]);
  return w;
}

describe('a world the user cannot write', () => {
  it('.aureus/runs a file: episode run is exit 11 (AUR1053) naming the file that is not a folder', async () => {
    const w = await makeWorld('refused-notdir');
    fs.rmSync(path.join(w, '.aureus/runs'), { recursive: true, force: true });
    fs.writeFileSync(path.join(w, '.aureus/runs'), '');
    const r = await cli(['episode', 'run'], w);
    expect(r.code, r.stderr).toBe(11);
    expect(r.stderr).toContain(`AUR1053 cannot write ${path.join(w, '.aureus/runs')}`);
    expect(r.stderr).toContain(`${path.join(w, '.aureus/runs')} is not a directory`);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    const j = await cli(['episode', 'plan', '--json'], w);
    expect(j.code, j.stderr).toBe(11);
    expect(JSON.parse(j.stdout)).toMatchObject({ error: { exit_code: 11, codes: ['AUR1053'] } });
  }, 120_000);

  it.skipIf(!setpriv || !builtCli())('a world of another user: episode plan is exit 11 (AUR1053), permission denied in .aureus', async () => {
    const w = await readableWorld('refused-eacces');
    const r = asNobody(['-C', w, 'episode', 'plan']);
    expect(r.code, r.stderr).toBe(11);
    // The plan takes the run lock first (it writes into the run folder a run uses): refused there.
    expect(r.stderr).toContain(`AUR1053 cannot write ${path.join(w, '.aureus/lock.guard')}: permission denied in ${path.join(w, '.aureus')}`);
    expect(r.stderr).not.toMatch(STACK_TRACE);
  }, 120_000);

  it.skipIf(!setpriv || !builtCli())('a world of another user: episode run is exit 11 (AUR1053) at the run lock, not exit 9 "another run holds the lock" (AUR6055)', async () => {
    const w = await readableWorld('refused-lock');
    const r = asNobody(['-C', w, 'episode', 'run']);
    expect(r.code, r.stderr).toBe(11);
    expect(r.stderr).toContain(`AUR1053 cannot write ${path.join(w, '.aureus/lock.guard')}: permission denied in ${path.join(w, '.aureus')}`);
    expect(r.stderr).not.toContain('AUR6055');
    expect(r.stderr).not.toMatch(STACK_TRACE);
  }, 120_000);
});

/**
 * `export -o` onto a file the user made read-only: the atomic write renames a new file over the path,
 * which needs only the folder's permission, so it replaced a `chmod 444` file the shell's `>` refuses.
 * Root may write any file (as `>` does), so the user here is nobody (setpriv), owning the folder.
 */
describe('export -o onto a read-only file', () => {
  it.skipIf(!setpriv || !builtCli())('nobody, in a folder nobody owns: exit 2 (AUR7005) naming the file as read-only; the file is kept', async () => {
    const w = await makeWorld('export-ro');
    const ran = await cli(['episode', 'run', '--json'], w);
    expect(ran.code, ran.stderr).toBe(0);
    for (const d of [os.tmpdir(), path.dirname(w)]) fs.chmodSync(d, fs.statSync(d).mode | 0o011);
    spawnSync('chmod', ['-R', 'a+rX', w]);
    const d = tempDir('export-ro-out');
    fs.chownSync(d, 65534, 65534);
    const ro = path.join(d, 'ro.txt');
    fs.writeFileSync(ro, 'keep\n');
    fs.chownSync(ro, 65534, 65534);
    fs.chmodSync(ro, 0o444);
    const r = asNobody(['-C', w, 'export', 's01e01', '-o', ro]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`AUR7005 cannot write ${ro}: it is read-only for this user (mode 0444)`);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.stdout).not.toContain('wrote');
    expect(fs.readFileSync(ro, 'utf8')).toBe('keep\n');
    expect(fs.statSync(ro).mode & 0o777).toBe(0o444);
    expect(fs.readdirSync(d)).toEqual(['ro.txt']);
    // Made writable, the same command replaces it (the refusal is the permission, not the path).
    fs.chmodSync(ro, 0o644);
    const ok = asNobody(['-C', w, 'export', 's01e01', '-o', ro]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(fs.readFileSync(ro, 'utf8')).not.toBe('keep\n');
  }, 120_000);
});
