import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cleanup, cli, git, spawnCli as spawnCliWith, tempDir } from '../pipeline/world.js';
import { STACK_TRACE } from '../cli/helpers.js';

/**
 * `aureus import` as a user hits it with the wrong thing: the real CLI (in-process, or as a child
 * process where a signal, a hang or another user is the point), real temp folders. Each case says
 * what it printed, its exit code, and that nothing was left behind.
 */
const DATA = path.resolve(__dirname, '../../data/dprr');
const TABLES = ['dprr_persons.csv', 'dprr_post_assertions.csv', 'dprr_relationship_assertions.csv'];
afterEach(cleanup);

/** A copy of the shipped DPRR tables, the named one changed by `edit` (bytes in, bytes out). */
function tablesWith(table: string, edit: (b: Buffer) => Buffer): string {
  const d = tempDir('dprr-data');
  for (const t of TABLES) fs.writeFileSync(path.join(d, t), t === table ? edit(fs.readFileSync(path.join(DATA, t))) : fs.readFileSync(path.join(DATA, t)));
  return d;
}

const left = (dir: string, name: string) => fs.readdirSync(dir).filter((n) => n.startsWith(name));

/** The CLI as a child process; resolves when it exits (code, or the signal that killed it). */
function spawnCli(argv: string[], cwd: string, cmd: string[] = []): { pid: number; done: Promise<{ code: number | null; signal: string | null; stderr: string }> } {
  const [exe, ...pre] = cmd.length ? cmd : [process.execPath];
  // The large worlds imported here (6,667 principals) have files over the 10 MB cap, which an import
  // refuses to write: raised knowingly, as the bench does.
  const env = { ...process.env, NO_COLOR: '1', AUREUS_MAX_FILE_BYTES: String(64 * 1024 * 1024) };
  const child = spawn(exe!, [...pre, ...(cmd.length ? [process.execPath] : []), BIN, ...argv], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b) => (stderr += b));
  const done = new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })));
  return { pid: child.pid!, done };
}

let clockTicks: number | undefined;

/** CPU time (user + system, seconds) a running process has used, from /proc: load-independent, unlike wall time. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  // After the command name: state is field 3; utime and stime are fields 14 and 15 (proc(5)).
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

/**
 * `import synthetic big --principals <n>` in `parent`, sent SIGINT once `ready(pid)` holds: it exits 130
 * (AUR7909, not killed by the signal, no stack trace) and leaves nothing in `parent`.
 */
async function interruptImport(parent: string, principals: string, ready: (pid: number) => boolean, never: string): Promise<void> {
  const run = spawnCli(['import', 'synthetic', 'big', '--principals', principals], parent);
  const t0 = Date.now();
  while (!ready(run.pid)) {
    if (Date.now() - t0 > 60_000) throw new Error(never);
    await new Promise((r) => setTimeout(r, 5));
  }
  process.kill(run.pid, 'SIGINT');
  const r = await run.done;
  expect(r.signal).toBeNull();
  expect(r.code, r.stderr).toBe(130);
  expect(r.stderr).toMatch(/AUR7909 interrupted: the import into .*big stopped and its partial repository was removed/);
  expect(r.stderr).not.toMatch(STACK_TRACE);
  expect(fs.readdirSync(parent)).toEqual([]);
}

describe('Ctrl-C in the middle of a large import: a complete world or nothing', () => {
  it('SIGINT while the repository is written: exit 130 (AUR7909), no staging folder, no target; the next import succeeds', async () => {
    const parent = tempDir('import-intr');
    await interruptImport(parent, '6667', () => left(parent, 'big.aureus-import-').length > 0, 'the import never started writing');
    // Nothing half-written for the second import to refuse or misread.
    const again = await cli(['import', 'synthetic', 'big', '--principals', '10'], parent);
    expect(again.code, again.stderr).toBe(0);
    expect(fs.readdirSync(parent)).toEqual(['big']);
    expect(git(path.join(parent, 'big'), 'status', '--porcelain')).toBe('');
  }, 120_000);

  it('SIGINT while the world is still generated in memory: exit 130 (AUR7909), not a silent death by the signal; nothing on disk', async () => {
    const parent = tempDir('import-intr-gen');
    // 20,000 principals: seconds of synchronous generation (CPU time), well past the start-up (~0.2 s).
    let seenEmpty = false;
    await interruptImport(parent, '20000', (pid) => {
      const busy = cpuSeconds(pid) >= 0.8;
      // Still generating when the signal goes: nothing was written yet.
      if (busy) seenEmpty = fs.readdirSync(parent).length === 0;
      return busy;
    }, 'the import never got going');
    expect(seenEmpty).toBe(true);
  }, 120_000);

  it('a staging folder an import killed outright left (SIGKILL: no handler runs) is removed by the next import; a live one is kept', async () => {
    const parent = tempDir('import-stale');
    // A pid that ran and is gone.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    fs.mkdirSync(path.join(parent, `w.aureus-import-${dead}`, 'world'), { recursive: true });
    fs.writeFileSync(path.join(parent, `w.aureus-import-${dead}`, 'world', 'characters.json'), '{"format": 1, "charac');
    fs.mkdirSync(path.join(parent, 'w.aureus-import-1')); // pid 1 always runs: another import at work
    const r = await cli(['import', 'synthetic', 'w', '--principals', '10'], parent);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readdirSync(parent).sort()).toEqual(['w', 'w.aureus-import-1']);
  });
});

/**
 * The CLI sent `signal` by itself at a named point in the middle of the generation
 * (AUREUS_TEST_SIGINT_AT / AUREUS_TEST_SIGTERM_AT, import/test-hook.ts), where the generation then
 * waits forever: only an import that stops its generation on the signal exits. One that noticed
 * the signal only once the generation ended is killed after a minute and fails the test.
 */
function importStoppedAt(argv: string[], parent: string, signal: 'SIGINT' | 'SIGTERM'): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  let timer: NodeJS.Timeout | undefined;
  const env = { [signal === 'SIGINT' ? 'AUREUS_TEST_SIGINT_AT' : 'AUREUS_TEST_SIGTERM_AT']: 'import-characters' };
  return spawnCliWith(argv, parent, env, (pid) => (timer = setTimeout(() => process.kill(pid, 'SIGKILL'), 60_000))).finally(() => clearTimeout(timer));
}

describe('a signal while the world is generated stops the import there, not when the generation ends', () => {
  it('SIGINT in the middle of a synthetic generation: exit 130, AUR7909 once, one notice, no target folder', async () => {
    const parent = tempDir('import-gen-sigint');
    const r = await importStoppedAt(['import', 'synthetic', 'big', '--principals', '1000'], parent, 'SIGINT');
    expect(r.signal, 'killed after a minute: the import did not stop while its generation was unfinished').toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr.match(/aureus: interrupted; stopping/g)).toHaveLength(1);
    expect(r.stderr.match(/AUR7909 interrupted: the import into .*big stopped/g)).toHaveLength(1);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(fs.readdirSync(parent)).toEqual([]);
  }, 90_000);

  it('SIGINT in the middle of a DPRR generation: exit 130, AUR7909, nothing on disk', async () => {
    const parent = tempDir('import-gen-dprr');
    const r = await importStoppedAt(['import', 'dprr', 'rome', '--from', '-100', '--to', '-63', '--limit', '200'], parent, 'SIGINT');
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/AUR7909 interrupted: the import into .*rome stopped/);
    expect(fs.readdirSync(parent)).toEqual([]);
  }, 90_000);

  it('SIGTERM into an existing empty folder: exit 130, "terminated", the folder left as it was (empty)', async () => {
    const parent = tempDir('import-gen-sigterm');
    fs.mkdirSync(path.join(parent, 'big'));
    const r = await importStoppedAt(['import', 'synthetic', 'big', '--principals', '1000'], parent, 'SIGTERM');
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr.match(/aureus: terminated; stopping/g)).toHaveLength(1);
    expect(r.stderr.match(/AUR7909/g)).toHaveLength(1);
    expect(fs.readdirSync(parent)).toEqual(['big']);
    expect(fs.readdirSync(path.join(parent, 'big'))).toEqual([]);
  }, 90_000);
});

describe('a target the user may not write', () => {
  const setpriv = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;
  const asNobody = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];
  it.skipIf(!setpriv)('an empty folder of another user in /tmp (sticky): exit 2 (AUR7005) naming it, not an internal error; nothing left', async () => {
    // The real /tmp (world-writable, sticky): the run's own temp folder is private to this user.
    const target = fs.mkdtempSync('/tmp/aureus-notmine-');
    fs.chmodSync(target, 0o555);
    try {
      const r = await spawnCli(['import', 'synthetic', target, '--principals', '10'], '/tmp', asNobody).done;
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`AUR7005 cannot write ${target}: permission denied in /tmp`);
      expect(r.stderr).not.toMatch(STACK_TRACE);
      expect(fs.readdirSync(target)).toEqual([]);
      expect(fs.readdirSync('/tmp').filter((n) => n.startsWith(`${path.basename(target)}.aureus-import-`))).toEqual([]);
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  }, 60_000);

  it.skipIf(!setpriv)('a target under a folder the user may not enter: exit 2 (AUR7005), not an internal error', async () => {
    const closed = tempDir('import-closed');
    fs.chmodSync(closed, 0o700);
    const target = path.join(closed, 'w');
    const r = await spawnCli(['import', 'synthetic', target, '--principals', '10'], '/tmp', asNobody).done;
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`AUR7005 cannot write ${target}: permission denied`);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(fs.readdirSync(closed)).toEqual([]);
  }, 60_000);
});

describe('a target inside another world repository', () => {
  it("inside its world files (world/, seasons/, …): exit 2 (AUR7910) naming the world, which stays clean; beside them it is allowed, as for init", async () => {
    const parent = tempDir('import-nested');
    expect((await cli(['import', 'synthetic', 'outer', '--principals', '10'], parent)).code).toBe(0);
    const outer = path.join(parent, 'outer');
    for (const inside of ['world/nested', 'seasons/season_02/x']) {
      const r = await cli(['import', 'synthetic', path.join('outer', inside), '--principals', '10'], parent);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`AUR7910 the target ${path.join(outer, inside)} is inside the ${inside.split('/')[0]}/ folder of the world repository ${outer}`);
      expect(r.stderr).not.toMatch(STACK_TRACE);
    }
    // aureus init refuses the same targets, the same way.
    for (const inside of ['world/nested', 'style/x']) {
      const r = await cli(['init', path.join('outer', inside)], parent);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`AUR7910 the target .*${inside.replace('/', '.')} is inside the ${inside.split('/')[0]}/ folder of the world repository ${outer}`));
      expect(r.stderr).not.toMatch(STACK_TRACE);
    }
    expect(git(outer, 'status', '--porcelain')).toBe('');
    expect(left(parent, '')).toEqual(['outer']);
    const beside = await cli(['import', 'synthetic', 'outer/variants/a', '--principals', '10'], parent);
    expect(beside.code, beside.stderr).toBe(0);
  });

  it('commit.gpgsign without a working key: exit 10, nothing left, a hint that names how to import unsigned (the staging folder is gone)', async () => {
    const parent = tempDir('import-signed');
    const home = tempDir('home');
    fs.writeFileSync(path.join(home, '.gitconfig'), '[commit]\n\tgpgsign = true\n[gpg]\n\tprogram = false\n[user]\n\tname = X\n\temail = x@example.com\n');
    const env = { HOME: home, XDG_CONFIG_HOME: home };
    const r = await spawnCliWith(['import', 'synthetic', 'w', '--principals', '10'], parent, env);
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toContain('AUR6010 git commit failed: error: gpg failed to sign the data');
    expect(r.stderr).toContain('running the same `aureus import` command with `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=commit.gpgsign GIT_CONFIG_VALUE_0=false` in front');
    expect(r.stderr).toContain(`git -C ${path.join(parent, 'w')} config commit.gpgsign false`);
    expect(r.stderr).not.toContain('.aureus-import-');
    expect(left(parent, '')).toEqual([]);
    // The hint's way works.
    const unsigned = await spawnCliWith(['import', 'synthetic', 'w', '--principals', '10'], parent, { ...env, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'commit.gpgsign', GIT_CONFIG_VALUE_0: 'false' });
    expect(unsigned.code, unsigned.stderr).toBe(0);
  }, 60_000);
});

describe('option values', () => {
  it('text that is no number is named as typed, not as NaN', async () => {
    const parent = tempDir('import-opts');
    for (const [flag, value, want] of [
      ['--from', 'abc', 'AUR7903 bad value for --from: "abc" (not a whole number)'],
      ['--to', '', 'AUR7903 bad value for --to: "" (not a whole number)'],
      ['--limit', '1e3', 'AUR7903 bad value for --limit: "1e3" (not a whole number)'],
    ] as const) {
      const argv = { '--from': '-100', '--to': '-44', '--limit': '10', [flag]: value };
      const r = await cli(['import', 'dprr', 'x', ...Object.entries(argv).flat(), '--data', DATA], parent);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(want);
      expect(r.stderr).not.toContain('NaN');
    }
    expect(fs.readdirSync(parent)).toEqual([]);
  });

  it('--principals over what the import can give is refused (exit 2) with the maximum, not silently capped; the default takes what there is', async () => {
    const parent = tempDir('import-principals');
    const dprr = ['import', 'dprr', 'x', '--from', '-100', '--to', '-44', '--data', DATA];
    const huge = await cli([...dprr, '--principals', '100000000'], parent);
    expect(huge.code, huge.stderr).toBe(2);
    expect(huge.stderr).toMatch(/AUR7903 bad value for --principals: 100000000 \(at most \d+, the persons active 100–44 BC and alive in 44 BC\)/);
    const limited = await cli([...dprr, '--limit', '30', '--principals', '31'], parent);
    expect(limited.code, limited.stderr).toBe(2);
    expect(limited.stderr).toContain('AUR7903 bad value for --principals: 31 (at most 30, the persons active 100–44 BC and alive in 44 BC among the --limit 30)');
    expect(limited.stderr).toContain('hint: Ask for fewer principals, or widen the window (--from) or raise --limit.');
    const synthetic = await cli(['import', 'synthetic', 'y', '--principals', '100000000'], parent);
    expect(synthetic.code).toBe(2);
    expect(synthetic.stderr).toContain('AUR7903 bad value for --principals: 100000000 (an integer from 10 to 100000)');
    expect(fs.readdirSync(parent)).toEqual([]);
    // Without --principals, a window of fewer than 10 living persons makes them all principals, down to
    // the kit's floor of 8 (below it the world would fail validate: AUR7911, test/import/cli.test.ts).
    const few = await cli([...dprr, '--limit', '9', '--json'], parent);
    expect(few.code, few.stderr).toBe(0);
    expect(JSON.parse(few.stdout).principals).toBe(9);
  });

  it('an empty --seed is refused by both imports (exit 2), not a world silently different from the default', async () => {
    const parent = tempDir('import-seed');
    for (const argv of [['import', 'synthetic', 'x', '--principals', '10', '--seed', ''], ['import', 'dprr', 'y', '--from', '-100', '--to', '-44', '--limit', '10', '--data', DATA, '--seed', ' ']]) {
      const r = await cli(argv, parent);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/AUR7903 bad value for --seed: " ?" \(the seed is empty\)/);
    }
    expect(fs.readdirSync(parent)).toEqual([]);
  });
});

describe('DPRR tables given with --data', () => {
  const argv = (data: string) => ['import', 'dprr', 'w', '--from', '-100', '--to', '-44', '--limit', '30', '--data', data];

  it('a table that is a FIFO is refused at once (exit 2, AUR7901), never waited on', async () => {
    const data = tablesWith('dprr_persons.csv', (b) => b);
    fs.rmSync(path.join(data, 'dprr_persons.csv'));
    execFileSync('mkfifo', [path.join(data, 'dprr_persons.csv')]);
    const parent = tempDir('import-fifo');
    const run = spawnCli(argv(data), parent);
    const timer = setTimeout(() => process.kill(run.pid, 'SIGKILL'), 20_000);
    const r = await run.done;
    clearTimeout(timer);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/AUR7901 cannot read the DPRR table dprr_persons\.csv: it is a named pipe \(FIFO\)/);
    expect(fs.readdirSync(parent)).toEqual([]);
  }, 30_000);

  it('a byte that is not UTF-8 is exit 3 (AUR7902) at its line:column, not a U+FFFD in a name', async () => {
    // Line 3 of the persons table, in "Collatinus": the byte after "Co".
    const data = tablesWith('dprr_persons.csv', (b) => {
      const c = Buffer.from(b);
      c[c.indexOf('Collatinus') + 2] = 0xff;
      return c;
    });
    const line3 = fs.readFileSync(path.join(DATA, 'dprr_persons.csv'), 'utf8').split('\n')[2]!;
    const parent = tempDir('import-utf8');
    const r = await cli(argv(data), parent);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(path.join(data, 'dprr_persons.csv'));
    expect(r.stderr).toContain(`3:${line3.indexOf('Collatinus') + 3}: error AUR7902 malformed CSV: byte 0xFF is not UTF-8`);
    expect(fs.readdirSync(parent)).toEqual([]);
  });

  it('CRLF line endings import the same world as LF', async () => {
    const data = tablesWith('dprr_persons.csv', (b) => Buffer.from(b.toString('utf8').replace(/\n/g, '\r\n')));
    const parent = tempDir('import-crlf');
    expect((await cli(argv(data), parent)).code).toBe(0);
    expect((await cli(['import', 'dprr', 'lf', '--from', '-100', '--to', '-44', '--limit', '30', '--data', DATA], parent)).code).toBe(0);
    expect(git(path.join(parent, 'w'), 'rev-parse', 'HEAD^{tree}')).toBe(git(path.join(parent, 'lf'), 'rev-parse', 'HEAD^{tree}'));
  });
});
