import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git, makeWorld, tempDir } from '../pipeline/world.js';
import { STACK_TRACE } from './helpers.js';

let root = '';
beforeAll(async () => {
  root = await makeWorld('export-o');
  const r = await cli(['episode', 'run', '--json'], root);
  if (r.code !== 0) throw new Error(`episode run failed (${r.code}): ${r.stderr}`);
}, 300_000);
afterAll(cleanup);

describe('aureus export --format fountain', () => {
  it('credits the title page sensibly: "Written by" Aureus and the provider', async () => {
    const r = await cli(['export', 's01e01', '--format', 'fountain'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Title: S01E01: .+\nCredit: Written by\nAuthor: Aureus \(offline\)\n/);
    expect(r.stdout).not.toContain('compiled by');
  });
});

describe('aureus export -o with a bad output path', () => {
  it('a missing directory is a usage error (exit 2) naming the path and why, no temp-file name', async () => {
    const out = path.join(tempDir('export-missing'), 'nonexistent', 'dir', 'x.md');
    const r = await cli(['export', 's01e01', '--format', 'md', '-o', out], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`AUR7005 cannot write ${out}: the directory ${path.dirname(out)} does not exist`);
    expect(r.stderr).not.toMatch(/x\.md\.\d+/);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.stdout).toBe('');
  });

  it('a parent that is a file, and a target that is a directory, are usage errors too', async () => {
    const d = tempDir('export-bad');
    fs.writeFileSync(path.join(d, 'plain'), 'x');
    const underFile = await cli(['export', 's01e01', '-o', path.join(d, 'plain', 'x.fountain')], root);
    expect(underFile.code).toBe(2);
    expect(underFile.stderr).toMatch(/AUR7005 cannot write .*x\.fountain: .*not a directory/);
    const onDir = await cli(['export', 's01e01', '-o', d], root);
    expect(onDir.code).toBe(2);
    expect(onDir.stderr).toContain(`AUR7005 cannot write ${d}: it is a directory`);
    expect(fs.readdirSync(d)).toEqual(['plain']);
  });

  it('a good path is written: relative to the cwd, or to <dir> under -C (as `git -C`: as if started there)', async () => {
    const d = tempDir('export-ok');
    const r = await cli(['export', 's01e01', '--format', 'md', '-o', path.relative(root, path.join(d, 'x.md'))], root);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(d, 'x.md'), 'utf8').length).toBeGreaterThan(100);
    const c = await cli(['-C', root, 'export', 's01e01', '--format', 'md', '-o', 'y.md'], d);
    expect(c.code, c.stderr).toBe(0);
    expect(fs.readFileSync(path.join(root, 'y.md'), 'utf8')).toBe(fs.readFileSync(path.join(d, 'x.md'), 'utf8'));
    expect(fs.existsSync(path.join(d, 'y.md'))).toBe(false);
    fs.rmSync(path.join(root, 'y.md'));
  });
});

describe('-C <dir>: file arguments are taken from <dir>, as if started there', () => {
  it('scene verify --packet and --scene relative to the repository; from elsewhere they are not found (exit 2)', async () => {
    const ep = 'seasons/season_01/episode_01';
    const argv = ['scene', 'verify', '--packet', `${ep}/packets/SC01.json`, '--scene', `${ep}/drafts/SC01.1.txt`];
    const away = tempDir('verify-away');
    const r = await cli(['-C', root, ...argv], away);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^SC01: PASS/m);
    const lost = await cli(argv, away);
    expect(lost.code).toBe(2);
    expect(lost.stderr).toContain(path.join(away, ep, 'packets/SC01.json'));
  });
});

describe('aureus export -o refuses special files (issue 12)', () => {
  it('-o /dev/null is refused and the device stays a device; a FIFO too', async () => {
    const r = await cli(['export', 's01e01', '--format', 'md', '-o', '/dev/null'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/AUR7005 cannot write \/dev\/null: it is not a regular file/);
    expect(fs.statSync('/dev/null').isCharacterDevice()).toBe(true);
    const fifo = path.join(tempDir('export-fifo'), 'pipe');
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [fifo]);
    const f = await cli(['export', 's01e01', '--format', 'md', '-o', fifo], root);
    expect(f.code).toBe(2);
    expect(fs.statSync(fifo).isFIFO()).toBe(true);
  });

  it('-o - writes to standard output; a regular file is replaced', async () => {
    const r = await cli(['export', 's01e01', '--format', 'md', '-o', '-'], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# /m);
    const file = path.join(tempDir('export-reg'), 'out.md');
    fs.writeFileSync(file, 'old');
    expect((await cli(['export', 's01e01', '--format', 'md', '-o', file], root)).code).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(r.stdout);
  });
});

describe('aureus export -o onto a symbolic link: refused, the link left as the user made it', () => {
  it('a dangling link is exit 2 naming the path as a symbolic link, not replaced by a file', async () => {
    const d = tempDir('export-dangling');
    const link = path.join(d, 'out.md');
    fs.symlinkSync('missing/x.md', link);
    const r = await cli(['export', 's01e01', '--format', 'md', '-o', link], root);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`AUR7005 cannot write ${link}: it is a symbolic link (to missing/x.md, which does not exist)`);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.stdout).toBe('');
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readlinkSync(link)).toBe('missing/x.md');
    expect(fs.readdirSync(d)).toEqual(['out.md']);
  });

  it('a link to a regular file is refused the same way: neither the link nor its target is written', async () => {
    const d = tempDir('export-link');
    fs.writeFileSync(path.join(d, 'real.md'), 'mine');
    const link = path.join(d, 'out.md');
    fs.symlinkSync('real.md', link);
    const r = await cli(['export', 's01e01', '--format', 'fountain', '-o', link], root);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`AUR7005 cannot write ${link}: it is a symbolic link (to real.md); -o never writes through or replaces a link`);
    expect(fs.readlinkSync(link)).toBe('real.md');
    expect(fs.readFileSync(path.join(d, 'real.md'), 'utf8')).toBe('mine');
    expect(fs.readdirSync(d).sort()).toEqual(['out.md', 'real.md']);
  });
});

/** A copy of the repository whose tag s01e01 holds `bytes` as its episode's `file`: a hand edit committed and the tag moved onto it. */
const commitEpisodeFile = (label: string, file: string, bytes: Buffer): string => {
  const w = copyRepo(root, label);
  fs.writeFileSync(path.join(w, 'seasons/season_01/episode_01', file), bytes);
  git(w, 'commit', '-qam', 'hand edit');
  git(w, 'tag', '-f', '-a', 's01e01', '-m', 'moved');
  return w;
};
/** Text whose line 3 has byte 0xE6 (Latin-1 "æ") as its 5th character. */
const LATIN1 = Buffer.concat([Buffer.from('# S01E01\n\nCaes'), Buffer.from([0xe6]), Buffer.from('r speaks.\n')]);

describe('aureus export of a committed script that is not text it can export', () => {
  const rel = 'seasons/season_01/episode_01/episode_script.md';
  const commitScript = (label: string, bytes: Buffer): string => commitEpisodeFile(label, 'episode_script.md', bytes);

  it('a byte that is not UTF-8: exit 3 (AUR6025) at its line:column with a hint to restore it, for every format; nothing on stdout', async () => {
    const w = commitScript('export-latin1', LATIN1);
    for (const format of ['md', 'fountain', 'html']) {
      const r = await cli(['export', 's01e01', '--format', format], w);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(`${rel}\n  3:5: error AUR6025 the committed episode_script.md cannot be exported: byte 0xE6 is not UTF-8`);
      expect(r.stderr).toContain(`hint: restore episode_script.md as the episode's commit wrote it (git log -- ${rel})`);
      expect(r.stderr).not.toMatch(STACK_TRACE);
      expect(r.stdout).toBe('');
    }
    const out = path.join(tempDir('export-latin1-o'), 'x.md');
    expect((await cli(['export', 's01e01', '--format', 'md', '-o', out], w)).code).toBe(3);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('an empty (or blank) script: exit 3 (AUR6025) saying so, not an empty export', async () => {
    for (const bytes of ['', '\n \n']) {
      const w = commitScript('export-empty', Buffer.from(bytes));
      for (const format of ['md', 'fountain']) {
        const r = await cli(['export', 's01e01', '--format', format], w);
        expect(r.code, r.stderr).toBe(3);
        expect(r.stderr).toContain(`${rel}\n  error AUR6025 the committed episode_script.md cannot be exported: it is empty`);
        expect(r.stdout).toBe('');
      }
    }
  });
});

describe('aureus recap of a committed recap.md that is not text it can print', () => {
  const rel = 'seasons/season_01/episode_01/recap.md';

  it('a byte that is not UTF-8: exit 3 (AUR6025) at the first bad byte\'s line:column with a hint to restore it, as export says; not U+FFFD printed', async () => {
    const w = commitEpisodeFile('recap-latin1', 'recap.md', LATIN1);
    for (const argv of [['recap'], ['recap', 's01e01'], ['recap', 's01e01', '--json']]) {
      const r = await cli(argv, w);
      expect(r.code, argv.join(' ')).toBe(3);
      expect(r.stderr).toContain(`${rel}\n  3:5: error AUR6025 the committed recap.md cannot be printed: byte 0xE6 is not UTF-8`);
      expect(r.stderr).toContain(`hint: restore recap.md as the episode's commit wrote it (git log -- ${rel})\n`);
      expect(r.stderr).not.toMatch(STACK_TRACE);
      expect(r.stdout).not.toContain('\uFFFD');
    }
    expect((await cli(['recap'], w)).stdout).toBe('');
    // The file is read as the tag holds it: the working tree restored, the tag still says the same.
    git(w, 'checkout', 'HEAD~1', '--', rel);
    expect((await cli(['recap'], w)).code).toBe(3);
  });

  it('an empty (or blank) recap.md: exit 3 (AUR6025) saying so, as export says of a script, with a hint to restore it; not nothing printed with exit 0', async () => {
    for (const bytes of ['', '\n \n']) {
      const w = commitEpisodeFile('recap-empty', 'recap.md', Buffer.from(bytes));
      for (const argv of [['recap'], ['recap', 's01e01'], ['recap', 's01e01', '--json']]) {
        const r = await cli(argv, w);
        expect(r.code, argv.join(' ')).toBe(3);
        expect(r.stderr).toContain(`${rel}\n  error AUR6025 the committed recap.md cannot be printed: it is empty\n`);
        expect(r.stderr).toContain(`hint: restore recap.md as the episode's commit wrote it (git log -- ${rel})\n`);
        expect(r.stderr).not.toMatch(STACK_TRACE);
        expect(r.stdout).toBe(argv.includes('--json') ? '{"error":{"message":"seasons/season_01/episode_01/recap.md of s01e01 is empty","exit_code":3,"codes":["AUR6025"]}}\n' : '');
      }
    }
  });
});

describe('aureus export with hostile input', () => {
  it('-o "" (an unset variable) is a usage error, not a silent print to stdout', async () => {
    const r = await cli(['export', 's01e01', '--format', 'md', '-o', ''], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('AUR7005 cannot write "": the path is empty; use -o - for standard output');
    expect(r.stdout).toBe('');
  });

  it('-o into a file system that takes no new file (/proc) says so, not that /proc does not exist', async () => {
    const r = await cli(['export', 's01e01', '--format', 'md', '-o', '/proc/aureus-export.md'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('AUR7005 cannot write /proc/aureus-export.md: no new file can be created in /proc');
    expect(r.stderr).not.toMatch(STACK_TRACE);
  });

  it('--format html of an episode whose committed episode_metrics.json is not JSON: exit 3 at its line:col, not an internal error', async () => {
    const w = copyRepo(root, 'export-badjson');
    const rel = 'seasons/season_01/episode_01/episode_metrics.json';
    fs.writeFileSync(path.join(w, rel), '{"format": 1, "tension_curve": [\n  {"act": 1,,}\n');
    git(w, 'commit', '-qam', 'hand edit');
    git(w, 'tag', '-f', '-a', 's01e01', '-m', 'moved');
    const r = await cli(['export', 's01e01', '--format', 'html'], w);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/^seasons\/season_01\/episode_01\/episode_metrics\.json\n\s+2:13: error AUR1005 invalid JSON/m);
    expect(r.stderr).toMatch(/hint: restore episode_metrics\.json as the episode's commit wrote it/);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.stdout).toBe('');
    // The formats that do not read it still export.
    expect((await cli(['export', 's01e01', '--format', 'md'], w)).code).toBe(0);
  });

  it('--format html of a committed verifier_report.json or episode_metrics.json that is JSON of another shape: exit 3 (AUR6024) at the JSON pointer, not an internal error', async () => {
    const w = copyRepo(root, 'export-badshape');
    const dir = 'seasons/season_01/episode_01';
    const retag = () => {
      git(w, 'commit', '-qam', 'hand edit');
      git(w, 'tag', '-f', '-a', 's01e01', '-m', 'moved');
    };
    fs.writeFileSync(path.join(w, dir, 'verifier_report.json'), '[]\n');
    retag();
    const r = await cli(['export', 's01e01', '--format', 'html'], w);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`${dir}/verifier_report.json\n  1:1 /: error AUR6024 not of the shape the html report reads: an object expected here`);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    git(w, 'checkout', 's01e01~1', '--', `${dir}/verifier_report.json`);
    const metrics = JSON.parse(fs.readFileSync(path.join(w, dir, 'episode_metrics.json'), 'utf8'));
    metrics.tension_curve[1].scene = 7;
    fs.writeFileSync(path.join(w, dir, 'episode_metrics.json'), JSON.stringify(metrics, null, 2) + '\n');
    retag();
    const m = await cli(['export', 's01e01', '--format', 'html'], w);
    expect(m.code, m.stderr).toBe(3);
    expect(m.stderr).toMatch(/^\s+\d+:\d+ \/tension_curve\/1\/scene: error AUR6024 not of the shape the html report reads: a string expected here/m);
    expect(m.stderr).not.toMatch(STACK_TRACE);
    expect(m.stdout).toBe('');
  });
});
