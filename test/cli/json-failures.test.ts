import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, cli } from '../pipeline/world.js';
import { useTempDirs } from '../support/git-repo.js';

/**
 * Every command run with --json answers on stdout when it fails: one JSON document
 * {"error": {message, exit_code, codes}} (main.ts's error boundary), the diagnostics on stderr as
 * without --json, the exit code unchanged. A CI job reading stdout gets the failure, not nothing.
 */
describe.skipIf(!builtCli())('--json failures answer on stdout', () => {
  const tempDir = useTempDirs('json-fail');

  it('for every command that reads the world, outside one (AUR1000, exit 3), and for bad arguments (exit 2)', async () => {
    const empty = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: empty });
    fs.writeFileSync(path.join(empty, 'x.txt'), 'x');
    const cases: [string[], number, string[]][] = [
      [['status', '--json'], 3, ['AUR1000']],
      [['recap', '--json'], 3, ['AUR1000']],
      [['diff', 'e1', 'e2', '--json'], 3, ['AUR1000']],
      [['cost', '--json'], 3, ['AUR1000']],
      [['query', 'characters', '--json'], 3, ['AUR1000']],
      [['query', 'history', 'world.global.unrest', '--json'], 3, ['AUR1000']],
      [['session', 'list', '--json'], 3, ['AUR1000']],
      [['session', 'show', 'cicero-001', '--json'], 3, ['AUR1000']],
      [['episode', 'review', '--json'], 3, ['AUR1000']],
      [['episode', 'plan', '--json'], 3, ['AUR1000']],
      [['scene', 'verify', '--packet', 'nope.json', '--scene', 'x.txt', '--json'], 2, ['AUR5080']],
      [['import', 'synthetic', 'w', '--principals', '-1', '--json'], 2, ['AUR7903']],
    ];
    for (const [argv, code, codes] of cases) {
      const r = await cli(argv, empty);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(code);
      const doc = JSON.parse(r.stdout) as { error: { exit_code: number; codes: string[]; message: string } };
      expect(doc.error.exit_code, argv.join(' ')).toBe(code);
      expect(doc.error.codes, argv.join(' ')).toEqual(codes);
      expect(r.stdout.trim().split('\n')).toHaveLength(1);
      // The diagnostics stay on stderr, as without --json.
      expect(r.stderr).toContain(codes[0]);
    }
  });

  it('outside a git repository too: an empty folder is no world (AUR1000, exit 3), not a git error (exit 10)', async () => {
    const empty = tempDir(); // no git, no world/: a newcomer who forgot -C
    const cases: string[][] = [
      ['status', '--json'], ['recap', '--json'], ['diff', 's01e01', 's01e02', '--json'], ['export', 's01e01'], ['rollback', 's01e01', '--json'],
      ['branch', 'x', '--from', 's01e01', '--json'], ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--json'],
      ['episode', 'run', '--json'], ['season', 'run', '--json'], ['episode', 'review', '--json'], ['scene', 'edit', 'SC01', '--json'],
      ['query', 'history', 'world.global.unrest', '--json'], ['session', 'list'], ['session', 'list', '--json'],
    ];
    for (const argv of cases) {
      const r = await cli(argv, empty);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(3);
      expect(r.stderr, argv.join(' ')).toContain(`AUR1000 not a world repository: ${empty} has no world/ folder`);
      if (!argv.includes('--json')) continue;
      const doc = JSON.parse(r.stdout) as { error: { codes: string[] } };
      expect(doc.error.codes, argv.join(' ')).toEqual(['AUR1000']);
      // One line, season run's too (its episodes and warnings beside the error): README's Exit codes.
      expect(r.stdout.trim().split('\n'), argv.join(' ')).toHaveLength(1);
    }
    expect(fs.readdirSync(empty)).toEqual([]); // nothing written
  });

  it('a world outside git: the review commands say so (AUR6011, exit 10), not that nothing is staged (AUR6101)', async () => {
    const w = path.join(tempDir(), 'w');
    expect((await cli(['init', w], path.dirname(w))).code).toBe(0);
    fs.rmSync(path.join(w, '.git'), { recursive: true, force: true });
    fs.writeFileSync(path.join(w, 'sc01.txt'), 'Cicero waits.\n');
    const cases: string[][] = [
      ['scene', 'pin', 'SC01'], ['scene', 'unpin', 'SC01'], ['scene', 'rewrite', 'SC01', '--json'],
      ['scene', 'edit', 'SC01', '--from', 'sc01.txt', '--json'], ['scene', 'edit', 'SC01', '--json'],
      ['episode', 'review', '--json'], ['episode', 'commit', '--json'], ['episode', 'discard'],
    ];
    for (const argv of cases) {
      const r = await cli(argv, w, { EDITOR: 'true' });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(10);
      expect(r.stderr, argv.join(' ')).toContain(`AUR6011 ${w} is not a git repository`);
      expect(r.stderr, argv.join(' ')).not.toContain('AUR6101');
      if (!argv.includes('--json')) continue;
      expect((JSON.parse(r.stdout) as { error: { codes: string[] } }).error.codes, argv.join(' ')).toEqual(['AUR6011']);
    }
  });

  it('season run: every refusal of its own has one shape, {error, episodes: [], warnings}, whether found in its flags or by the preflight', async () => {
    const parent = tempDir();
    expect((await cli(['init', 'w'], parent)).code).toBe(0);
    const w = path.join(parent, 'w');
    const cases: [string[], number, string][] = [
      // Its flags, read before the world is.
      [['--count', '0'], 2, 'AUR7010'],
      [['--count', '2', '--no-commit'], 2, 'AUR7012'],
      [['--chaos', '5'], 2, 'AUR4003'],
      [['--seed='], 2, 'AUR4003'],
      [['--provider', 'bogus'], 2, 'AUR4001'],
      // The preflight's: a season without goals.
      [['--season', '7'], 2, 'AUR7050'],
    ];
    for (const [flags, code, diagCode] of cases) {
      const argv = ['season', 'run', '--json', ...flags];
      const r = await cli(argv, w);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(code);
      expect(r.stdout.trim().split('\n'), argv.join(' ')).toHaveLength(1);
      const doc = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(Object.keys(doc), argv.join(' ')).toEqual(['error', 'episodes', 'warnings']);
      expect(doc, argv.join(' ')).toEqual({ error: { message: expect.any(String), exit_code: code, codes: [diagCode] }, episodes: [], warnings: [] });
      expect(r.stderr, argv.join(' ')).toContain(diagCode);
    }
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: w, encoding: 'utf8' })).toBe('');
  });

  it('episode run: a bad flag value answers in the run\'s failure shape, {error, warnings: []}, as a refusal found later does', async () => {
    const parent = tempDir();
    expect((await cli(['init', 'w'], parent)).code).toBe(0);
    const w = path.join(parent, 'w');
    for (const [flags, diagCode] of [[['--chaos', '5'], 'AUR4003'], [['--season', '0'], 'AUR7010'], [['--provider', 'bogus'], 'AUR4001']] as [string[], string][]) {
      const argv = ['episode', 'run', '--json', ...flags];
      const r = await cli(argv, w);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout.trim().split('\n'), argv.join(' ')).toHaveLength(1);
      expect(JSON.parse(r.stdout), argv.join(' ')).toEqual({ error: { message: expect.any(String), exit_code: 2, codes: [diagCode] }, warnings: [] });
    }
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: w, encoding: 'utf8' })).toBe('');
  });

  it('a usage error commander finds (an unknown flag) stays text: no command ran', async () => {
    const r = await cli(['status', '--json', '--frobnicate'], tempDir());
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});
