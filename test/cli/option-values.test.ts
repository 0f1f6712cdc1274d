import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, git, makeWorld } from '../pipeline/world.js';

afterAll(cleanup);

/**
 * Option values on the command line, for every command: a value an option's parser refuses before
 * any action runs still answers `{"error": …}` on stdout under --json (README), and an option given
 * without its value no longer swallows the next flag as it (AUR7011), unless said with `=`.
 */
describe('option values', () => {
  it('a bad value refused by an option parser answers in JSON under --json, wherever --json stands', async () => {
    const w = await makeWorld('opt-json');
    // AUR7010, as `episode run --episode abc` says it (episode plan said AUR3008 for the same kind of value).
    const cases: [string[], string][] = [
      [['episode', 'plan', '--episode', 'abc', '--json'], '--episode abc: expected a whole number from 1 to 99'],
      [['episode', 'plan', '--json', '--season', '0'], '--season 0: expected a whole number from 1 to 99'],
      [['episode', 'plan', '--k', 'x', '--json'], '--k x: expected a whole number from 1 to 2'],
      [['episode', 'plan', '--k', '3', '--json'], '--k 3: expected a whole number from 1 to 2'],
      [['episode', 'plan', '--token-budget', '5', '--json'], '--token-budget 5: expected a whole number from 200 to 200000'],
      [['episode', 'run', '--episode', 'abc', '--json'], '--episode abc: expected a whole number from 1 to 99'],
    ];
    for (const [argv, said] of cases) {
      const r = await cli(argv, w);
      expect(r.code, argv.join(' ')).toBe(2);
      const doc = JSON.parse(r.stdout) as { error: { codes: string[]; exit_code: number } };
      expect(doc.error, argv.join(' ')).toMatchObject({ codes: ['AUR7010'], exit_code: 2 });
      expect(r.stderr).toContain(`error AUR7010 ${said}`);
    }
    // Without --json: text only, nothing on stdout.
    const text = await cli(['episode', 'plan', '--episode', 'abc'], w);
    expect([text.code, text.stdout]).toEqual([2, '']);
  });

  it('an option without its value does not take the next flag as it (AUR7011); with = the value is literal', async () => {
    const w = await makeWorld('opt-flag');
    const head = git(w, 'rev-parse', 'HEAD');
    const cases: [string[], string][] = [
      [['episode', 'run', '--seed', '--json'], '--seed'],
      [['episode', 'plan', '--seed', '--json'], '--seed'],
      [['cost', '--session', '--json'], '--session'],
      [['branch', 'x', '--from', '--json'], '--from'],
    ];
    for (const [argv, flag] of cases) {
      const r = await cli(argv, w);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(JSON.parse(r.stdout).error.codes, argv.join(' ')).toEqual(['AUR7011']);
      expect(r.stderr).toContain(`needs a value after ${flag}`);
    }
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head); // no episode seeded "--json" was committed
    expect(git(w, 'branch', '--list', 'x')).toBe('');
    const literal = await cli(['episode', 'plan', '--seed=--x', '--json'], w);
    expect(literal.code, literal.stderr).toBe(0);
    expect(JSON.parse(literal.stdout).seed).toBe('--x');
  });
});
