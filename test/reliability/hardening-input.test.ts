import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, builtCli, cleanup, cli, copyRepo, editJson, git, makeWorld, tempDir } from '../pipeline/world.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';

/**
 * Issue 12, items 3 and 8–11: hostile files and paths give their documented error, never an
 * internal error, a hang or a write outside the repository; messages cannot drive the terminal;
 * the API key is never printed.
 */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('hard-pristine');
}, 120_000);
afterAll(cleanup);

const NO_TRACE = /\n\s+at .+\(.*:\d+:\d+\)/;

/** The CLI as a child process with a time limit: a hang is a failure, not a stuck test run. */
function run(args: string[], cwd: string, timeout = 20_000) {
  const p = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout, env: { ...process.env, NO_COLOR: '1', ANTHROPIC_API_KEY: '' } });
  return { code: p.status, signal: p.signal, stdout: p.stdout, stderr: p.stderr };
}

describe('symbolic links out of the repository (item 3)', () => {
  it('a world file linking outside is a validate error (exit 3, AUR1050) and its target is never written', async () => {
    const root = copyRepo(pristine, 'link-out');
    const outside = path.join(tempDir('link-target'), 'assets.json');
    fs.copyFileSync(path.join(root, 'world/assets.json'), outside);
    const before = fs.readFileSync(outside, 'utf8');
    fs.rmSync(path.join(root, 'world/assets.json'));
    fs.symlinkSync(outside, path.join(root, 'world/assets.json'));
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'link');
    const v = await cli(['validate'], root);
    expect(v.code).toBe(3);
    expect(v.stdout + v.stderr).toMatch(/AUR1050 world\/assets\.json is a symbolic link that leaves the repository/);
    const r = await cli(['episode', 'run'], root);
    expect(r.code).toBe(3);
    expect(fs.readFileSync(outside, 'utf8')).toBe(before);
  });

  // Once accepted by validate (reading through it is harmless), but an episode commit writes world
  // files and refuses a link (AUR6050) after all the run's work: now refused up front, exit 3.
  it('a link that stays inside the repository is refused by validate and the run before any work (AUR1052)', async () => {
    const root = copyRepo(pristine, 'link-in');
    fs.renameSync(path.join(root, 'world/assets.json'), path.join(root, 'assets-real.json'));
    fs.symlinkSync('../assets-real.json', path.join(root, 'world/assets.json'));
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'link');
    const v = await cli(['validate', '--json'], root);
    expect(v.code).toBe(3);
    expect(JSON.parse(v.stdout).diagnostics).toEqual([expect.objectContaining({ code: 'AUR1052', file: 'world/assets.json' })]);
    const r = await cli(['episode', 'run'], root);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/AUR1052 world\/assets\.json is a symbolic link; an episode commit writing world\/assets\.json would have to write through it/);
    expect(r.stderr).toMatch(/hint: .*replace world\/assets\.json with the real file/);
    expect(r.stderr).not.toMatch(/AUR6050/);
    expect(fs.existsSync(path.join(root, 'seasons/season_01/episode_01'))).toBe(false);
    expect(fs.existsSync(path.join(root, '.aureus/runs'))).toBe(false);
  });

  // The episode folder the run creates, linked: found only at the commit (AUR6050, exit 10) after
  // the whole run, its run folder left behind. Now the preflight refuses it, before any work.
  it('a symlinked episode folder (or season folder) is refused by the run before any work (AUR1052, exit 3)', async () => {
    for (const [link, target] of [['seasons/season_01/episode_01', 'ep-real'], ['seasons/season_01', 's1-real']] as const) {
      const root = copyRepo(pristine, 'link-episode');
      const real = path.join(root, target);
      if (link === 'seasons/season_01') fs.renameSync(path.join(root, link), real);
      else fs.mkdirSync(real);
      fs.symlinkSync(path.relative(path.dirname(path.join(root, link)), real), path.join(root, link));
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '-m', 'link');
      const head = git(root, 'rev-parse', 'HEAD');
      const inReal = fs.readdirSync(real);
      const r = await cli(['episode', 'run'], root);
      expect(r.code, link).toBe(3);
      expect(r.stderr, link).toMatch(new RegExp(`AUR1052 ${link.replace(/\//g, '\\/')} is a symbolic link; an episode commit writing seasons\\/season_01\\/`));
      expect(r.stderr, link).toMatch(/hint: Aureus never writes through a link/);
      expect(r.stderr, link).not.toMatch(/AUR6050/);
      const json = await cli(['episode', 'run', '--json'], root);
      expect(json.code, link).toBe(3);
      expect(JSON.parse(json.stdout).error, link).toMatchObject({ exit_code: 3, codes: ['AUR1052'] });
      // World and git as before: no commit, no tag, nothing written through the link, no run folder.
      expect(git(root, 'rev-parse', 'HEAD'), link).toBe(head);
      expect(git(root, 'tag', '--list'), link).toBe('');
      expect(git(root, 'status', '--porcelain'), link).toBe('');
      expect(fs.readdirSync(real), link).toEqual(inReal);
      expect(fs.existsSync(path.join(root, '.aureus/runs')), link).toBe(false);
    }
  }, 120_000);
});

describe('internal errors and hangs become documented errors (item 8)', () => {
  it.skipIf(!builtCli())('a FIFO as a world file: validate exits 3 at once (AUR1008), no hang', () => {
    const root = copyRepo(pristine, 'fifo');
    fs.rmSync(path.join(root, 'world/secrets.json'));
    execFileSync('mkfifo', [path.join(root, 'world/secrets.json')]);
    const r = run(['validate'], root);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(3);
    expect(r.stdout + r.stderr).toMatch(/AUR1008 .*named pipe/);
  });

  it.skipIf(!builtCli())('a FIFO as the style guide: validate exits 3, no hang', () => {
    const root = copyRepo(pristine, 'fifo-style');
    fs.rmSync(path.join(root, 'style/style_guide.md'));
    execFileSync('mkfifo', [path.join(root, 'style/style_guide.md')]);
    const r = run(['validate'], root);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(3);
  });

  it.skipIf(!builtCli())('scene verify --packet /dev/zero exits 2 at once (AUR5080), no hang', () => {
    const d = tempDir('devzero');
    fs.writeFileSync(path.join(d, 'scene.txt'), 'INT. FORUM - DAY\n');
    const r = run(['scene', 'verify', '--packet', '/dev/zero', '--scene', 'scene.txt'], d);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/AUR5080 cannot read packet \/dev\/zero: it is a device/);
  });

  it('.aureus/lock a directory of junk, .aureus a file, init /proc/x: documented codes, no internal error', async () => {
    const a = copyRepo(pristine, 'lockdir');
    fs.mkdirSync(path.join(a, '.aureus/lock/sub'), { recursive: true });
    const old = new Date(Date.now() - 3600_000);
    fs.utimesSync(path.join(a, '.aureus/lock'), old, old);
    const ra = await cli(['episode', 'run'], a);
    expect(ra.code).toBe(9);
    expect(ra.stderr).toMatch(/AUR6056/);

    const b = copyRepo(pristine, 'aureusfile');
    fs.rmSync(path.join(b, '.aureus'), { recursive: true, force: true });
    fs.writeFileSync(path.join(b, '.aureus'), 'not a folder');
    const rb = await cli(['episode', 'run'], b);
    expect(rb.code).toBe(3);
    expect(rb.stderr).toMatch(/AUR6055/);

    const rc = await cli(['init', '/proc/x'], tempDir('proc'));
    expect(rc.code).toBe(2);
    expect(rc.stderr).toMatch(/AUR7004/);
    for (const r of [ra, rb, rc]) {
      expect(r.stderr).not.toMatch(/internal error/);
      expect(r.stderr).not.toMatch(NO_TRACE);
    }
  });
});

describe('terminal escapes in ids and names (item 9)', () => {
  it('validate shows control characters escaped, never raw', async () => {
    const root = copyRepo(pristine, 'escapes');
    editJson(root, 'world/characters.json', (v) => {
      v.characters[0].id = 'evil\u001b]0;pwned\u0007\u001b[2J';
      v.characters[1].name = 'Nemo\u202e';
    });
    const r = await cli(['validate'], root);
    expect(r.code).toBe(3);
    const out = r.stdout + r.stderr;
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(out).toContain('\\x1b');
  });
});

describe('usage and validate errors instead of wasted work (item 10)', () => {
  it('--season 99 is a usage error naming the seasons with goals (AUR7050), nothing committed', async () => {
    const root = copyRepo(pristine, 'season99');
    const head = git(root, 'rev-parse', 'HEAD');
    const r = await cli(['episode', 'run', '--season', '99'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/AUR7050 season 99 has no season goals .* seasons with goals: 1/);
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
    expect((await cli(['episode', 'plan', '--season', '99'], root)).code).toBe(2);
  });

  it('-C to a missing directory exits 2, not 10', async () => {
    const r = await cli(['-C', path.join(tempDir('missing'), 'nope'), 'episode', 'run'], tempDir('cwd'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/AUR7006 .*no such directory/);
  });

  it('a 5 MB character name is a validate error with its pointer (AUR1051), in well under a minute', async () => {
    const root = copyRepo(pristine, 'huge-name');
    editJson(root, 'world/characters.json', (v) => (v.characters[2].name = 'A'.repeat(5 * 1024 * 1024)));
    git(root, 'commit', '-qam', 'a huge name');
    const t0 = performance.now();
    const r = await cli(['episode', 'run', '--json'], root);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/\/characters\/2\/name: error AUR1051/);
    expect(performance.now() - t0).toBeLessThan(20_000);
  });
});

describe('the API key is never printed (item 11)', () => {
  const server = useFakeAnthropic();

  it('a server that echoes the key in its error message gets it redacted', async () => {
    const KEY = 'plain-key-without-prefix-0123456789abcdef';
    server.handler = () => ({ kind: 'status', status: 401, errorType: 'authentication_error', message: `invalid x-api-key: ${KEY}` });
    const root = copyRepo(pristine, 'echo-key');
    for (const json of [[], ['--json']]) {
      const r = await cli(['episode', 'run', '--provider', 'anthropic', ...json], root, anthropicEnv(server, KEY));
      expect(r.code).toBe(7);
      const out = r.stdout + r.stderr;
      expect(out).not.toContain(KEY);
      expect(out).not.toContain(KEY.slice(0, 20));
      expect(out).toContain('[REDACTED]');
    }
  });
});
