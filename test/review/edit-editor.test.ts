import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashTree, STACK_TRACE } from '../cli/helpers.js';
import { BIN, builtCli, cleanup, cli, makeWorld, spawnCli, tempDir } from '../pipeline/world.js';

afterAll(cleanup);

/**
 * `scene edit` without --from writes the scene to a temporary file under TMPDIR and opens $EDITOR
 * on it (in a real child process, where TMPDIR decides os.tmpdir()). A TMPDIR that does not exist
 * is the user's environment (exit 11, AUR1053), and the file's path reaches the editor as it is:
 * a `$` in it is not expanded by the shell that splits EDITOR's own arguments.
 */
describe.skipIf(!builtCli())('scene edit with $EDITOR', () => {
  let w = '';
  beforeAll(async () => {
    w = await makeWorld('edit-editor');
    const staged = await cli(['episode', 'run', '--seed', '7', '--review'], w);
    expect(staged.code, staged.stderr).toBe(0);
  }, 120_000);

  it('a TMPDIR that does not exist: AUR1053 naming it, exit 11, nothing staged changes', async () => {
    const before = hashTree(path.join(w, '.aureus'));
    const missing = path.join(tempDir('edit-tmp'), 'gone');
    const r = await spawnCli(['scene', 'edit', 'SC01'], w, { EDITOR: 'true', TMPDIR: missing });
    expect(r.code, r.stderr).toBe(11);
    expect(r.stderr).toContain(`AUR1053 cannot write ${missing}/aureus-edit-XXXXXX/SC01.txt: the temporary folder ${missing} does not exist`);
    expect(r.stderr).toContain('hint: set TMPDIR to a folder this user may write, or give the file: aureus scene edit SC01 --from FILE');
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(hashTree(path.join(w, '.aureus'))).toBe(before);
  }, 60_000);

  it('a `$` in TMPDIR is not expanded, and EDITOR keeps its own arguments', async () => {
    const scratch = tempDir('edit-tmp');
    const tmp = path.join(scratch, 'tmp $HOME x');
    fs.mkdirSync(tmp);
    const log = path.join(scratch, 'args');
    // The editor records its arguments, refuses a path that does not exist, and adds a line.
    const editor = path.join(scratch, 'ed.sh');
    fs.writeFileSync(editor, `#!/bin/sh\nprintf '%s\\n' "$@" > '${log}'\nfor last; do :; done\ntest -f "$last" || exit 9\nprintf '\\nCICERO: Hm.\\n' >> "$last"\n`, { mode: 0o755 });
    const r = await spawnCli(['scene', 'edit', 'SC01'], w, { EDITOR: `${editor} --wait`, TMPDIR: tmp });
    const args = fs.readFileSync(log, 'utf8').trimEnd().split('\n');
    expect(args[0]).toBe('--wait');
    expect(args[1]).toMatch(new RegExp(`^${tmp.replace(/[$.*+?^(){}|[\]\\]/g, '\\$&')}/aureus-edit-[^/]+/SC01\\.txt$`));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('SC01 replaced by your text');
    // The temporary folder is removed after the edit.
    expect(fs.readdirSync(tmp)).toEqual([]);
  }, 60_000);

  it('an editor that saves a byte that is not UTF-8: AUR1003 at line:col, exit 3, nothing staged, no temporary file left', async () => {
    const before = hashTree(path.join(w, '.aureus'));
    const scratch = tempDir('edit-tmp');
    const tmp = path.join(scratch, 'tmp');
    fs.mkdirSync(tmp);
    // A Latin-1 editor: "café" with é as the single byte 0xE9, as --from refuses it.
    const editor = path.join(scratch, 'ed.sh');
    fs.writeFileSync(editor, `#!/bin/sh\nprintf 'caf\\351 the end\\n' >> "$1"\n`, { mode: 0o755 });
    const r = await spawnCli(['scene', 'edit', 'SC03', '--json'], w, { EDITOR: editor, TMPDIR: tmp });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/SC03\.txt\n\s+\d+:4: error AUR1003 file is not valid UTF-8/);
    expect(r.stderr).toContain('nothing was changed: SC03 stays as staged and the temporary file is removed');
    expect(JSON.parse(r.stdout).error.codes).toEqual(['AUR1003']);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(hashTree(path.join(w, '.aureus'))).toBe(before);
    expect(fs.readdirSync(tmp)).toEqual([]);
  }, 60_000);

  it('an editor that fails: its status, nothing changed, no hint about the scene format', async () => {
    const before = hashTree(path.join(w, '.aureus'));
    const tmp = tempDir('edit-tmp');
    const r = await spawnCli(['scene', 'edit', 'SC03'], w, { EDITOR: 'false', TMPDIR: tmp });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('AUR6110 the edit of SC03 cannot be read: the editor (false) exited with status 1');
    expect(r.stderr).toContain('hint: nothing was changed: SC03 stays as staged; fix $VISUAL/$EDITOR, or give the file: aureus scene edit SC03 --from FILE');
    expect(r.stderr).not.toContain('three sections');
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(hashTree(path.join(w, '.aureus'))).toBe(before);
    expect(fs.readdirSync(tmp)).toEqual([]);
  }, 60_000);

  it('Ctrl-C with the editor open: exit 130, says nothing was changed, no temporary file left', async () => {
    const before = hashTree(path.join(w, '.aureus'));
    const scratch = tempDir('edit-tmp');
    const tmp = path.join(scratch, 'tmp');
    fs.mkdirSync(tmp);
    const opened = path.join(scratch, 'opened');
    const editor = path.join(scratch, 'ed.sh');
    fs.writeFileSync(editor, `#!/bin/sh\n: > '${opened}'\nsleep 30\n`, { mode: 0o755 });
    // Its own process group, as a terminal's foreground job: Ctrl-C signals aureus and the editor alike.
    const child = spawn(process.execPath, [BIN, 'scene', 'edit', 'SC03'], { cwd: w, detached: true, env: { ...process.env, NO_COLOR: '1', EDITOR: editor, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    for (let i = 0; i < 200 && !fs.existsSync(opened); i++) await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(opened)).toBe(true);
    process.kill(-child.pid!, 'SIGINT');
    expect(await done, stderr).toBe(130);
    expect(stderr).toContain('AUR6008 interrupted during scene edit SC03, with the editor open');
    expect(stderr).toContain('nothing was changed: SC03 stays as staged');
    expect(stderr).not.toMatch(STACK_TRACE);
    expect(hashTree(path.join(w, '.aureus'))).toBe(before);
    expect(fs.readdirSync(tmp)).toEqual([]);
  }, 60_000);

  // The CLI's one interrupt handler (run-shared.ts interruptSignal, as `episode run`): the first
  // Ctrl-C is said at once; a second, while an editor that ignores it is still open, quits once the
  // editor ends, the temporary file removed first. Before, scene edit had a handler of its own that
  // said nothing until the editor ended.
  it('Ctrl-C twice with an editor that ignores it: said at once, quits once the editor ends; nothing changed, no temporary file', async () => {
    const before = hashTree(path.join(w, '.aureus'));
    const scratch = tempDir('edit-tmp');
    const tmp = path.join(scratch, 'tmp');
    fs.mkdirSync(tmp);
    const opened = path.join(scratch, 'opened');
    const release = path.join(scratch, 'release');
    const editor = path.join(scratch, 'ed.sh');
    fs.writeFileSync(editor, `#!/bin/sh\ntrap '' INT\nprintf '\\nCICERO: Hm.\\n' >> "$1"\n: > '${opened}'\nwhile [ ! -f '${release}' ]; do sleep 0.05; done\n`, { mode: 0o755 });
    const child = spawn(process.execPath, [BIN, 'scene', 'edit', 'SC03'], { cwd: w, detached: true, env: { ...process.env, NO_COLOR: '1', EDITOR: editor, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const until = async (ok: () => boolean) => {
      for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
      expect(ok(), stderr).toBe(true);
    };
    try {
      await until(() => fs.existsSync(opened));
      process.kill(-child.pid!, 'SIGINT');
      await until(() => stderr.includes('aureus: interrupted; stopping at the next safe point (Ctrl-C again to quit now). Nothing is changed: SC03 stays as staged once the editor closes.'));
      process.kill(-child.pid!, 'SIGINT');
      await until(() => stderr.includes('aureus: interrupted again; quitting once the editor ends. SC03 stays as staged.'));
    } finally {
      // The editor ends either way: a failed step above leaves no process behind.
      fs.writeFileSync(release, '');
    }
    expect(await done, stderr).toBe(130);
    expect(stderr).not.toMatch(STACK_TRACE);
    expect(hashTree(path.join(w, '.aureus'))).toBe(before);
    expect(fs.readdirSync(tmp)).toEqual([]);
  }, 60_000);
});
