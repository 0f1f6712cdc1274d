import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeWorldRepo } from '../../src/import/write.js';

/**
 * The import writes its repository through the one git port (src/git/port.ts, adapter
 * src/git/adapter.ts), like `aureus init`: exactly the written files are committed, the
 * environment passes through the port's rules (identity and dates kept, a caller's GIT_DIR
 * dropped), and the repository is built beside the target and renamed into place.
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
let tmp = '';
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-import-write-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const saved: Record<string, string | undefined> = {};
function setEnv(vars: Record<string, string>): void {
  for (const [k, v] of Object.entries(vars)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
}
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
    delete saved[k];
  }
});

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const files = () =>
  new Map<string, string | Buffer>([
    ['world/world.json', '{"format": 1}\n'],
    ['README.md', '# imported\n'],
    ['.gitignore', '.aureus/\n'],
  ]);

describe('writeWorldRepo', () => {
  it('goes through the git port: no file of src/ imports simple-git (git runs as plain child processes)', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.ts') && /from 'simple-git'|import\('simple-git'\)/.test(fs.readFileSync(p, 'utf8'))) offenders.push(path.relative(SRC, p));
      }
    };
    walk(SRC);
    expect(offenders).toEqual([]);
  });

  it('commits exactly the written files on main, with the dates the caller set (passed through like every Aureus commit)', async () => {
    const date = '2001-02-03T04:05:06+00:00';
    setEnv({ GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
    const target = path.join(tmp, 'dated');
    await writeWorldRepo(target, files(), 'Import test\n\nbody line');
    expect(git(target, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(git(target, 'ls-files').split('\n').sort()).toEqual(['.gitignore', 'README.md', 'world/world.json']);
    expect(git(target, 'log', '-1', '--format=%aI %cI')).toBe('2001-02-03T04:05:06+00:00 2001-02-03T04:05:06+00:00');
    expect(git(target, 'log', '-1', '--format=%B')).toBe('Import test\n\nbody line');
    expect(git(target, 'status', '--porcelain')).toBe('');
    // Built beside the target and renamed: no staging folder is left.
    expect(fs.readdirSync(tmp).filter((n) => n.includes('aureus-import'))).toEqual([]);
  });

  it('ignores a caller GIT_DIR (e.g. inside a hook) instead of committing into another repository', async () => {
    const other = path.join(tmp, 'other');
    fs.mkdirSync(other);
    git(other, 'init', '--quiet');
    setEnv({ GIT_DIR: path.join(other, '.git'), GIT_WORK_TREE: other });
    const target = path.join(tmp, 'hooked');
    await writeWorldRepo(target, files(), 'Import test');
    delete process.env.GIT_DIR;
    delete process.env.GIT_WORK_TREE;
    expect(git(target, 'log', '--format=%s')).toBe('Import test');
    expect(() => git(other, 'rev-parse', 'HEAD')).toThrow();
  });
});

describe('a target that can never be a world directory is a usage error, not a crash', () => {
  it('under a plain file: exit 2 (AUR7904), nothing written', async () => {
    const file = path.join(tmp, 'plain-file');
    fs.writeFileSync(file, 'x');
    const err = await writeWorldRepo(path.join(file, 'w'), files(), 'import').then(() => null, (e) => e);
    expect(err?.exitCode).toBe(2);
    expect(err?.diagnostics?.[0]?.code).toBe('AUR7904');
    expect(fs.readFileSync(file, 'utf8')).toBe('x');
  });

  it('where no directory can be created (/proc): exit 2 (AUR7005) naming the path and why', async () => {
    const target = `/proc/aureus-import-test-${process.pid}`;
    const err = await writeWorldRepo(target, files(), 'import').then(() => null, (e) => e);
    expect(err?.exitCode).toBe(2);
    expect(err?.diagnostics?.[0]?.code).toBe('AUR7005');
    expect(err?.diagnostics?.[0]?.message).toContain(target);
  });
});
