import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AureusError } from '../../src/errors.js';
import { scaffoldWorld, WORLD_GITIGNORE } from '../../src/store/scaffold.js';
import { FIXTURES, REPO, runCli, STACK_TRACE, tempDir } from './helpers.js';
import { BIN, builtCli, spawnCli } from '../pipeline/world.js';

const made: string[] = [];
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const tmp = (label: string) => {
  const d = tempDir(label);
  made.push(d);
  return d;
};
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const kitPresent = fs.existsSync(path.join(REPO, 'world/world.json'));

/** A kit like the package's, built from the minimal fixture world (for tests independent of the starter kit). */
function minimalKit(): string {
  const kit = tmp('kit');
  fs.cpSync(path.join(FIXTURES, 'minimal'), kit, { recursive: true });
  fs.cpSync(path.join(REPO, 'schemas'), path.join(kit, 'schemas'), { recursive: true });
  return kit;
}

describe('aureus init', () => {
  it.runIf(kitPresent)('scaffolds the starter kit into a new directory, commits it on main, and the result validates', async () => {
    const parent = tmp('init');
    const r = await runCli(['init', 'my-world'], { cwd: parent });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const root = path.join(parent, 'my-world');
    expect(r.stdout).toContain(`created the world repository ${root}`);
    expect(r.stdout).toContain('aureus -C my-world validate');

    for (const rel of ['world/world.json', 'world/characters.json', 'world/canon.json', 'operators/operators.json', 'seasons/season_01/season_goals.json', 'schemas/characters.schema.json', '.gitignore']) {
      expect(fs.existsSync(path.join(root, rel)), rel).toBe(true);
    }
    for (const dir of ['world', 'operators', 'style']) {
      expect(fs.readdirSync(path.join(root, dir)).sort()).toEqual(fs.readdirSync(path.join(REPO, dir)).sort());
    }
    expect(fs.existsSync(path.join(root, 'aureus.config.yaml'))).toBe(fs.existsSync(path.join(REPO, 'aureus.config.yaml')));
    expect(fs.readFileSync(path.join(root, '.gitignore'), 'utf8')).toBe(WORLD_GITIGNORE);
    expect(fs.readFileSync(path.join(root, 'world/characters.json'))).toEqual(fs.readFileSync(path.join(REPO, 'world/characters.json')));

    expect(git(root, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(git(root, 'rev-list', '--count', 'HEAD')).toBe('1');
    expect(git(root, 'status', '--porcelain')).toBe('');
    expect(git(root, 'ls-files')).toContain('world/characters.json');
    // Nothing but the repository is left in the parent (the staging folder was renamed into place).
    expect(fs.readdirSync(parent)).toEqual(['my-world']);

    const v = await runCli(['-C', root, 'validate']);
    expect(v.stdout).toContain('is a valid world');
    expect(v.code).toBe(0);
  });

  it('fills an existing empty directory and creates missing parents; --json gives the result as data', async () => {
    const kit = minimalKit();
    const parent = tmp('init');
    fs.mkdirSync(path.join(parent, 'empty'));
    const r = await scaffoldWorld(path.join(parent, 'empty'), { kitRoot: kit });
    expect(r.files).toContain('world/characters.json');
    expect(git(r.root, 'rev-parse', 'HEAD')).toBe(r.commit);
    const deep = await scaffoldWorld(path.join(parent, 'a/b/c'), { kitRoot: kit });
    expect(git(deep.root, 'log', '--format=%s')).toBe('Create the world from the Aureus starter kit');
    const v = await runCli(['-C', deep.root, 'validate']);
    expect(v.stdout).toContain('is a valid world: 3 characters');
    expect(v.code).toBe(0);

    if (kitPresent) {
      const j = await runCli(['-C', parent, 'init', 'jw', '--json']);
      expect(j.code).toBe(0);
      const out = JSON.parse(j.stdout) as { root: string; commit: string; files: string[] };
      expect(out.root).toBe(path.join(parent, 'jw'));
      expect(out.commit).toBe(git(out.root, 'rev-parse', 'HEAD'));
      expect(out.files).toEqual([...out.files].sort());
    }
  });

  it('works without any git identity configured (fresh CI machine)', async () => {
    const kit = minimalKit();
    const parent = tmp('init');
    const home = tmp('home');
    const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME, GIT_CONFIG_NOSYSTEM: process.env.GIT_CONFIG_NOSYSTEM };
    Object.assign(process.env, { HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1' });
    try {
      const r = await scaffoldWorld(path.join(parent, 'w'), { kitRoot: kit });
      expect(git(r.root, 'log', '--format=%an <%ae>')).toBe('Aureus <aureus@localhost>');
      // Ours for our commit only: the user's own later commits there are not authored as Aureus.
      expect(spawnSync('git', ['config', '--local', '--get-regexp', '^user\\.'], { cwd: r.root }).stdout.toString()).toBe('');
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it.runIf(builtCli())('takes the identity from a config GIT_CONFIG_GLOBAL names, and writes none into the repository', async () => {
    const parent = tmp('init');
    const gc = path.join(parent, 'gc');
    fs.writeFileSync(gc, '[user]\n\tname = X\n\temail = x@example.com\n');
    const r = await spawnCli(['init', 'id1'], parent, { HOME: tmp('home'), XDG_CONFIG_HOME: tmp('xdg'), GIT_CONFIG_GLOBAL: gc });
    expect(r.code, r.stderr).toBe(0);
    const root = path.join(parent, 'id1');
    expect(git(root, 'log', '--format=%an <%ae>')).toBe('X <x@example.com>');
    expect(spawnSync('git', ['config', '--local', '--get-regexp', '^user\\.'], { cwd: root }).stdout.toString()).toBe('');
  }, 60_000);

  it.runIf(builtCli())('commit.gpgsign without a working key: exit 10, nothing left, a hint to fix or skip signing', async () => {
    const parent = tmp('init');
    const home = tmp('home');
    fs.writeFileSync(path.join(home, '.gitconfig'), '[commit]\n\tgpgsign = true\n[gpg]\n\tprogram = false\n[user]\n\tname = X\n\temail = x@example.com\n');
    const r = await spawnCli(['init', 'w'], parent, { HOME: home, XDG_CONFIG_HOME: home });
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toContain('AUR6010 git commit failed: error: gpg failed to sign the data');
    expect(r.stderr).toContain('hint: git is set to sign commits (commit.gpgsign) and its signing program failed');
    expect(r.stderr).toContain(`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=commit.gpgsign GIT_CONFIG_VALUE_0=false aureus init ${path.join(parent, 'w')}`);
    expect(r.stderr).not.toContain('git status');
    expect(fs.readdirSync(parent)).toEqual([]);
    // The hint's command works.
    const unsigned = await spawnCli(['init', 'w'], parent, { HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'commit.gpgsign', GIT_CONFIG_VALUE_0: 'false' });
    expect(unsigned.code, unsigned.stderr).toBe(0);
  }, 60_000);

  it.runIf(builtCli())('follows the umask for everything it creates, the starter kit included; the committed tree is the same', () => {
    const modes = (root: string, dir = root): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.name !== '.git').flatMap((e) => {
        const abs = path.join(dir, e.name);
        const mode = (fs.lstatSync(abs).mode & 0o777).toString(8);
        return [`${mode} ${path.relative(root, abs)}`, ...(e.isDirectory() ? modes(root, abs) : [])];
      });
    const trees: string[] = [];
    for (const [mask, file, dir] of [['077', '600', '700'], ['022', '644', '755']]) {
      const parent = tmp('init');
      // A real child process started under that umask, as a user's shell starts it.
      const r = spawnSync('/bin/sh', ['-c', `umask ${mask} && exec "$0" "$@"`, process.execPath, BIN, 'init', 'w'], { cwd: parent, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const root = path.join(parent, 'w');
      const wrong = modes(root).filter((l) => {
        const [mode, rel] = l.split(' ') as [string, string];
        return mode !== (fs.statSync(path.join(root, rel)).isDirectory() ? dir : file);
      });
      expect(wrong, `umask ${mask}`).toEqual([]);
      expect(modes(root).some((l) => l.endsWith(' world'))).toBe(true);
      trees.push(git(root, 'rev-parse', 'HEAD^{tree}'));
    }
    expect(trees[0]).toBe(trees[1]);
  }, 60_000);

  it('refuses a non-empty directory, says why, exit 2, and touches nothing', async () => {
    const parent = tmp('init');
    const target = path.join(parent, 'busy');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'notes.txt'), 'mine');
    const r = await runCli(['-C', parent, 'init', 'busy']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot create a world in ${target}: the directory is not empty (notes.txt)`);
    expect(r.stderr).toContain('hint: pick a new or empty directory');
    expect(r.stderr + r.stdout).not.toMatch(STACK_TRACE);
    expect(fs.readdirSync(target)).toEqual(['notes.txt']);
    expect(fs.readdirSync(parent)).toEqual(['busy']);
  });

  it('refuses a path that is a file (exit 2)', async () => {
    const parent = tmp('init');
    fs.writeFileSync(path.join(parent, 'f'), 'x');
    const r = await runCli(['-C', parent, 'init', 'f']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('it exists and is not a directory');
    expect(fs.readFileSync(path.join(parent, 'f'), 'utf8')).toBe('x');
  });

  it('leaves nothing behind when it fails midway (incomplete kit, failing git)', async () => {
    const parent = tmp('init');
    // A kit without schemas/: refused before anything is created.
    const broken = minimalKit();
    fs.rmSync(path.join(broken, 'schemas'), { recursive: true });
    const e1 = await scaffoldWorld(path.join(parent, 'x/y'), { kitRoot: broken }).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(AureusError);
    expect((e1 as AureusError).message).toContain('the starter kit is incomplete: schemas not found');
    expect(fs.readdirSync(parent)).toEqual([]);

    // git fails at the commit (an invalid author date, which the adapter passes through): the
    // copied kit and the half-made repository are all removed.
    const kit = minimalKit();
    const saved = process.env.GIT_AUTHOR_DATE;
    process.env.GIT_AUTHOR_DATE = 'not a date';
    const e2 = await scaffoldWorld(path.join(parent, 'p/q'), { kitRoot: kit }).catch((e: unknown) => e);
    if (saved === undefined) delete process.env.GIT_AUTHOR_DATE;
    else process.env.GIT_AUTHOR_DATE = saved;
    expect(e2).toBeInstanceOf(AureusError);
    expect((e2 as AureusError).exitCode).toBe(10);
    expect((e2 as AureusError).message).toContain('git commit failed');
    expect(fs.readdirSync(parent)).toEqual([]);

    // An empty target directory that was there before is there again after a failure.
    fs.mkdirSync(path.join(parent, 'kept'));
    await scaffoldWorld(path.join(parent, 'kept'), { kitRoot: broken }).catch(() => undefined);
    expect(fs.readdirSync(parent)).toEqual(['kept']);
    expect(fs.readdirSync(path.join(parent, 'kept'))).toEqual([]);
  });

  it('has --help with an example and rejects a missing argument as a usage error', async () => {
    const h = await runCli(['init', '--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('aureus init my-world');
    const u = await runCli(['init']);
    expect(u.code).toBe(2);
    expect(u.stderr).toContain('error AUR7011 aureus init needs the argument <dir>');
  });
});

// A folder name of 240 bytes is legal (NAME_MAX 255), but the hidden staging sibling named after it
// (`.<name>.aureus-init-<pid>`, `<name>.aureus-import-<pid>`) was not: ENAMETOOLONG, exit 2.
describe('a target whose name is near the file system limit', () => {
  const long = 'w'.repeat(240);

  it('init of an existing empty 240-character folder succeeds and leaves no staging sibling', async () => {
    const parent = tmp('long-init');
    fs.mkdirSync(path.join(parent, long));
    const r = await runCli(['init', long], { cwd: parent });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(parent, long, 'world/world.json'))).toBe(true);
    expect(fs.readdirSync(parent)).toEqual([long]);
  }, 120_000);

  it('import synthetic into a new 240-character folder succeeds and leaves no staging sibling', async () => {
    const parent = tmp('long-import');
    const r = await runCli(['import', 'synthetic', long, '--principals', '10'], { cwd: parent });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(parent, long, 'world/world.json'))).toBe(true);
    expect(fs.readdirSync(parent)).toEqual([long]);
  }, 120_000);
});
