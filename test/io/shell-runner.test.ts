import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { openShellRunner, runWithShell, shellRunnerDir } from '../../src/io/shell-runner.js';
import { cleanEnv, gitRun } from '../../src/git/exec.js';

const dirs: string[] = [];
const temp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-shell-runner-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe.runIf(process.platform === 'linux')('the run shell (issue 18: child processes without a fork of the grown process)', () => {
  it('runs a command in its folder from the shell, not from this process, with its output, exit code and exact words', async () => {
    const d = temp();
    expect(await runWithShell(d, ['true'])).toBeUndefined(); // none open: the caller spawns
    const close = openShellRunner();
    // This shell's own folder: other test files' shells may come and go in the same temp folder.
    const own = shellRunnerDir();
    expect(own && fs.existsSync(own)).toBeTruthy();
    try {
      const words = ["it's", 'two\nlines', 'cr\rhere', '$HOME', '`id`', '"; touch ran; "', '*', ''];
      const r = await runWithShell(d, ['sh', '-c', 'printf "%s|" "$@"; printf "%s" "$PPID" >&2; pwd >ppwd; exit 3', 'sh', ...words]);
      expect(r?.code).toBe(3);
      expect(r?.stdout).toBe(words.map((w) => `${w}|`).join(''));
      expect(Number(r?.stderr)).not.toBe(process.pid); // started by the shell
      expect(fs.readFileSync(path.join(d, 'ppwd'), 'utf8').trim()).toBe(fs.realpathSync(d));
      expect(fs.readdirSync(d).sort()).toEqual(['ppwd']); // nothing ran as shell code
      // In order, several at once.
      const many = await Promise.all([1, 2, 3].map((i) => runWithShell(d, ['sh', '-c', `echo ${i}`])));
      expect(many.map((m) => m?.stdout)).toEqual(['1\n', '2\n', '3\n']);
      // A background command runs alongside the next ones: the foreground one answers first.
      const order: string[] = [];
      const slow = runWithShell(d, ['sh', '-c', 'sleep 1; echo slow'], undefined, { background: true }).then((x) => order.push(x!.stdout));
      const quick = runWithShell(d, ['sh', '-c', 'echo quick']).then((x) => order.push(x!.stdout));
      await Promise.all([slow, quick]);
      expect(order).toEqual(['quick\n', 'slow\n']);
      // Stdin is empty, as a spawn whose input was closed.
      expect((await runWithShell(d, ['cat']))?.stdout).toBe('');
    } finally {
      close();
    }
    expect(await runWithShell(d, ['true'])).toBeUndefined();
    // The shell removes its output folder when its input closes.
    expect(shellRunnerDir()).toBeNull();
    for (let i = 0; i < 100 && fs.existsSync(own!); i++) await new Promise((r) => setTimeout(r, 20));
    expect(fs.existsSync(own!)).toBe(false);
  });

  it('gives a command exactly the environment asked for, and leaves to the caller what it cannot start', async () => {
    const d = temp();
    const close = openShellRunner();
    const closeNested = openShellRunner();
    try {
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ONLY: 'this one', EMPTY: '', MULTI: 'a\nb' };
      const r = await runWithShell(d, ['env'], env);
      expect(r?.code).toBe(0);
      expect(r?.stdout.split('\n').filter(Boolean).sort()).toEqual(['EMPTY=', 'MULTI=a', 'b', 'ONLY=this one', `PATH=${env.PATH}`].sort());
      expect(await runWithShell(d, ['no-such-program-aureus'], env)).toBeUndefined(); // 127: spawned by the caller
      expect(await runWithShell(path.join(d, 'missing'), ['true'])).toBeUndefined(); // no folder: likewise
      expect(await runWithShell(d, ['echo', 'a\0b'])).toBeUndefined();
      expect(await runWithShell(d, ['true'], { '-u': 'x' })).toBeUndefined();
      closeNested();
      expect((await runWithShell(d, ['true']))?.code).toBe(0); // still open for the outer user
    } finally {
      close();
    }
  });

  it('a command handed to the shell is never run twice: a lost answer or unreadable output is an error, not a fallback', async () => {
    const d = temp();
    const ran = path.join(d, 'ran');
    const runs = () => fs.readFileSync(ran, 'utf8').split('\n').filter(Boolean).length;
    let close = openShellRunner();
    try {
      // The command removes its own output file (its stdout): it ran, its answer cannot be read.
      const gone = runWithShell(d, ['sh', '-c', 'rm -f "$(readlink /proc/$$/fd/1)"; echo x >>ran']);
      await expect(gone).rejects.toThrow(/`sh -c` ran, but its output could not be read back .*: it is not run again/);
      expect(runs()).toBe(1);
      expect((await runWithShell(d, ['sh', '-c', 'echo ok']))?.stdout).toBe('ok\n'); // the shell goes on
      // The shell ends (SIGTERM) while the command runs: whether it ran is unknown, so it is not run again.
      const lost = runWithShell(d, ['sh', '-c', 'kill -TERM $PPID; echo x >>ran']);
      await expect(lost).rejects.toThrow(/shell ended while `sh -c` was handed to it/);
      expect(runs()).toBe(2);
      // Through gitRun: a failure (code null with the reason), never a second spawn.
      expect(await runWithShell(d, ['true'])).toBeUndefined(); // a dead shell takes nothing new
    } finally {
      close();
    }
    close = openShellRunner();
    try {
      const r = await gitRun(d, ['-c', `alias.gone=!rm -f "$(readlink /proc/$$/fd/1)"; echo x >>ran`, 'gone']);
      expect(r.code).toBeNull();
      expect(r.stderr).toMatch(/it is not run again/);
      expect(runs()).toBe(3);
    } finally {
      close();
    }
  });

  it('a command killed by Ctrl-C answers as a spawned one (no exit code), one that exits 130 itself keeps its code', async () => {
    const d = temp();
    // As Ctrl-C does, SIGINT reaches the shell and the command (the command's parent is the shell).
    const ctrlC = ['sh', '-c', 'echo before; kill -INT $PPID; kill -INT $$; sleep 2; echo after'];
    const spawned = spawnSync('sh', ['-c', 'kill -INT $$; sleep 2'], { cwd: d, encoding: 'utf8' }); // not $PPID: that is this process
    expect(spawned.status).toBeNull();
    expect(spawned.signal).toBe('SIGINT');
    const close = openShellRunner();
    try {
      expect(await runWithShell(d, ctrlC)).toEqual({ code: null, stdout: 'before\n', stderr: '', interrupted: true });
      // Its code kept, a 130 is also marked as what it means to git (git/exec.ts GitInterrupted: git never exits 130 itself).
      expect(await runWithShell(d, ['sh', '-c', 'exit 130'])).toEqual({ code: 130, stdout: '', stderr: '', interrupted: true });
      // Only a command the interruption reached: the next one's 130 is its own.
      expect((await runWithShell(d, ['sh', '-c', 'kill -INT $PPID; exit 3']))?.code).toBe(3);
      expect((await runWithShell(d, ['sh', '-c', 'exit 130']))?.code).toBe(130);
    } finally {
      close();
    }
  });

  it("names only what differs from the shell's environment, PWD and OLDPWD (which the shell sets) included", async () => {
    const d = temp();
    const PATH = process.env.PATH ?? '/usr/bin:/bin';
    const close = openShellRunner({ PATH, A: '1', PWD: '/nowhere', OLDPWD: '/before' });
    try {
      const envOf = async (want: Record<string, string>) => (await runWithShell(d, ['env'], want))?.stdout.split('\n').filter(Boolean).sort();
      expect(await envOf({ PATH, A: '2', B: 'x' })).toEqual([`PATH=${PATH}`, 'A=2', 'B=x'].sort());
      expect(await envOf({ PATH, A: '1', PWD: '/p' })).toEqual([`PATH=${PATH}`, 'A=1', 'PWD=/p'].sort());
      expect(await envOf({ PATH })).toEqual([`PATH=${PATH}`]); // A missing: the whole environment given
      // Set by the subshell itself: a value with quotes, a line break and shell syntax arrives as it is and runs nothing.
      const odd = `it's "$(touch ran)" \`touch ran\`\nline`;
      expect(await envOf({ PATH, A: odd })).toEqual([`PATH=${PATH}`, `A=${odd.split('\n')[0]}`, 'line'].sort());
      // A name a shell cannot export goes through \`env\`, exactly as well.
      expect(await envOf({ PATH, A: '1', 'x.y': 'dot', 'a-b': '' })).toEqual([`PATH=${PATH}`, 'A=1', 'x.y=dot', 'a-b='].sort());
      expect(fs.readdirSync(d)).toEqual([]);
    } finally {
      close();
    }
  });

  it('a git command through the shell answers as a spawned one: output, failures, the same commit for a multi-line message', async () => {
    const repo = () => {
      const d = temp();
      spawnSync('git', ['init', '-q'], { cwd: d });
      fs.writeFileSync(path.join(d, 'a.txt'), 'a\n');
      return d;
    };
    const id = { GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@x', GIT_AUTHOR_DATE: '2000-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2000-01-01T00:00:00Z' };
    const message = "S01E01: it's done\n\nline 'two'\r\n  indented $X `y`\n";
    const steps = async (d: string) => [
      await gitRun(d, ['status', '--porcelain=v1', '-z', '--untracked-files=all']),
      await gitRun(d, ['cat-file', '-t', 'nope']),
      await gitRun(d, ['add', '--', 'a.txt']),
      await gitRun(d, ['commit', '--quiet', '--no-verify', '--cleanup=verbatim', '-m', message], id),
      await gitRun(d, ['tag', '-a', 's01e01', '-m', message], id),
      await gitRun(d, ['rev-parse', 'HEAD', 's01e01']),
    ];
    const spawned = await steps(repo());
    const close = openShellRunner();
    let viaShell;
    try {
      viaShell = await steps(repo());
    } finally {
      close();
    }
    expect(viaShell).toEqual(spawned);
    expect(spawned[1]!.code).not.toBe(0);
    expect(spawned[1]!.stderr).toMatch(/nope/);
    expect(spawned.slice(2).map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(cleanEnv().GIT_DIR).toBeUndefined();
  });
});
