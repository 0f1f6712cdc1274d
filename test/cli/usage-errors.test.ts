import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, spawnCli } from '../pipeline/world.js';
import { useTempDirs } from '../support/git-repo.js';

/**
 * Usage errors of the command line itself (README, Exit codes: 2 is a usage error, an unknown
 * command among them): a command group named without its subcommand, and `help` of a command that
 * does not exist. `--help`, `help <command>` and a plain `aureus` still print the help with 0.
 */
describe.skipIf(!builtCli())('command groups and help as usage errors', () => {
  const tempDir = useTempDirs('usage');

  it('a group without its subcommand prints the group help and exits 2, naming what is missing', async () => {
    const cwd = tempDir();
    for (const [group, subs] of [['episode', 'plan, run, review, commit, discard'], ['scene', 'verify, rewrite, edit, pin, unpin'], ['session', 'list, show'], ['season', 'run'], ['import', 'dprr, synthetic']] as const) {
      const r = await spawnCli([group], cwd);
      expect(r.code, `${group}: ${r.stderr}`).toBe(2);
      expect(r.stderr, group).toContain(`Usage: aureus ${group} [options] [command]`);
      expect(r.stderr, group).toContain(`error: aureus ${group} needs a command: ${subs}`);
      expect(r.stdout, group).toBe('');
    }
  });

  it('help of an unknown command is the unknown command: exit 2, with "did you mean" when a name is close', async () => {
    const cwd = tempDir();
    const bogus = await spawnCli(['help', 'bogus'], cwd);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("error: unknown command 'bogus'");
    expect(bogus.stderr).not.toContain('Usage: aureus [options] [command]');
    const typo = await spawnCli(['help', 'epsiode'], cwd);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('(Did you mean episode?)');
    const sub = await spawnCli(['episode', 'help', 'rn'], cwd);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain("error: unknown command 'rn'");
    expect(sub.stderr).toContain('(Did you mean run?)');
  });

  it('the help itself still exits 0', async () => {
    const cwd = tempDir();
    for (const argv of [['--help'], ['help'], ['help', 'episode'], ['episode', '--help'], ['episode', 'help'], ['episode', 'help', 'run'], ['help', 'help'], ['episode', 'help', 'help'], ['help', 'episode', 'help'], []]) {
      const r = await spawnCli(argv, cwd);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout + r.stderr, argv.join(' ')).toContain('Usage: aureus');
    }
  });

  it('help of a subcommand by its whole name (help season run) is that subcommand\'s help; an unknown one is exit 2', async () => {
    const cwd = tempDir();
    for (const [group, sub] of [['season', 'run'], ['episode', 'run'], ['scene', 'verify']]) {
      const r = await spawnCli(['help', group!, sub!], cwd);
      expect(r.code, `help ${group} ${sub}: ${r.stderr}`).toBe(0);
      expect(r.stdout, `help ${group} ${sub}`).toContain(`Usage: aureus ${group} ${sub} [options]`);
    }
    const typo = await spawnCli(['help', 'episode', 'rn'], cwd);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("error: unknown command 'rn'");
    expect(typo.stderr).toContain('(Did you mean run?)');
  });

  it('help of a command with a word after it is an unknown command, as help of an unknown one: exit 2, no help printed', async () => {
    const cwd = tempDir();
    const cases: [string[], string][] = [
      [['help', 'season', 'run', 'extra'], 'season run extra'],
      [['help', 'season', 'run', 'extra', 'more'], 'season run extra'],
      [['season', 'help', 'run', 'extra'], 'season run extra'],
      [['episode', 'help', 'run', 'extra'], 'episode run extra'],
      [['help', 'validate', 'extra'], 'validate extra'],
      [['help', 'bogus', 'extra'], 'bogus'],
      [['help', 'help', 'extra'], 'help extra'],
      [['help', 'help', 'episode'], 'help episode'],
      [['help', 'help', 'help'], 'help help'],
      [['episode', 'help', 'help', 'extra'], 'episode help extra'],
      [['help', 'episode', 'help', 'extra'], 'episode help extra'],
    ];
    for (const [argv, unknown] of cases) {
      const r = await spawnCli(argv, cwd);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr, argv.join(' ')).toBe(`error: unknown command '${unknown}'\n(run with --help for usage)\n`);
      expect(r.stdout, argv.join(' ')).toBe('');
    }
  });
});

/**
 * Every usage error a command finds has a code of the catalog, a message naming what was wrong and
 * what was expected, and a hint (README, Diagnostics); with --json the codes are in the one-line
 * failure document. Before, these said `"codes": []` and some had no hint. Exit codes unchanged.
 */
describe.skipIf(!builtCli())('usage errors carry a diagnostic code', () => {
  const tempDir = useTempDirs('usage-codes');

  it('season, init, play, session, query, recap and branch', async () => {
    const parent = tempDir();
    expect((await spawnCli(['init', 'w'], parent)).code).toBe(0);
    const w = path.join(parent, 'w');
    const full = path.join(parent, 'full');
    fs.mkdirSync(full);
    fs.writeFileSync(path.join(full, 'x'), 'x');
    expect((await spawnCli(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--session', 'taken'], w)).code).toBe(0);
    const play = ['play', '--as', 'cicero', '--json'];
    const improvised = [...play, '--at', 'forum', '--with', 'catiline'];
    const cases: [string[], number, string, string][] = [
      [['season', 'run', '--count', 'abc', '--json'], 2, 'AUR7010', '--count abc: expected a whole number from 1 to 99'],
      [['episode', 'run', '--season', '0', '--json'], 2, 'AUR7010', '--season 0: expected a whole number from 1 to 99'],
      [['season', 'run', '--count', '3', '--no-commit', '--json'], 2, 'AUR7012', '--no-commit cannot be used with --count 3'],
      [['init', full, '--json'], 2, 'AUR7001', `cannot create a world in ${full}: the directory is not empty (x)`],
      [[...play, '--at', 'nowhere', '--with', 'catiline'], 2, 'AUR7101', '--at nowhere: no such location in world/world.json'],
      [[...play, '--at', 'forum', '--with', 'nobody'], 2, 'AUR7101', '--with nobody: no such character in world/characters.json'],
      [['play', '--at', 'forum', '--json'], 2, 'AUR7011', 'aureus play needs --as <character_id> (or --resume <session>)'],
      [play, 2, 'AUR7011', 'aureus play needs --scene <SCxx> or --at <location> --with <ids>'],
      [[...improvised, '--turns', '0'], 2, 'AUR7010', '--turns 0: expected a whole number from 1 to 1000'],
      // Number() read these as numbers: a 16-turn scene from 0x10, a 1000-turn one from 1e3.
      [[...improvised, '--turns', '0x10'], 2, 'AUR7010', '--turns 0x10: expected a whole number from 1 to 1000'],
      [[...improvised, '--turns', '1e3'], 2, 'AUR7010', '--turns 1e3: expected a whole number from 1 to 1000'],
      [[...improvised, '--turns', ' 3'], 2, 'AUR7010', '--turns  3: expected a whole number from 1 to 1000'],
      [[...improvised, '--turns', '1001'], 2, 'AUR7010', '--turns 1001: expected a whole number from 1 to 1000'],
      [[...improvised, '--max-input', '99999999999999999999'], 2, 'AUR7010', '--max-input 99999999999999999999: expected a whole number from 10 to 100000'],
      [[...improvised, '--brief-budget', '0x100'], 2, 'AUR7010', '--brief-budget 0x100: expected a whole number from 50 to 20000'],
      [['play', '--resume', '', '--json'], 2, 'AUR7106', 'session id "" is not valid'],
      [[...improvised, '--mode', 'objective', '--objective', '__proto__'], 2, 'AUR7010', '--objective __proto__: expected a flag name'],
      [[...improvised, '--mode', 'fast'], 2, 'AUR7010', '--mode fast: expected one of'],
      [[...improvised, '--mode', 'objective'], 2, 'AUR7011', '--mode objective needs --objective <key>'],
      [[...play, '--at', 'forum', '--with', 'cicero'], 2, 'AUR7103', '--with names no one besides cicero'],
      [[...play, '--scene', 'scene3'], 2, 'AUR7010', '--scene scene3: expected SCxx or sNNeNN/SCxx'],
      [[...play, '--scene', 'SC09'], 2, 'AUR7104', 'scene SC09 not found in any planned or committed episode'],
      [[...improvised, '--session', 'Bad!'], 2, 'AUR7106', 'session id "Bad!" is not valid'],
      [[...improvised, '--session', 'taken'], 2, 'AUR7107', 'session taken already exists'],
      [['play', '--resume', 'nope', '--json'], 2, 'AUR7108', 'no session nope'],
      [['session', 'show', 'nope', '--json'], 2, 'AUR7108', 'no session nope'],
      [['query', 'knows', 'nope', '--json'], 2, 'AUR7101', 'query knows nope: no such secret in world/secrets.json'],
      [['query', 'character', 'nope', '--json'], 2, 'AUR7101', 'query character nope: no such character in world/characters.json'],
      [['query', 'knows', '--json'], 2, 'AUR7011', 'aureus query knows needs a secret id'],
      [['query', 'bogus', '--json'], 2, 'AUR7105', 'unknown query "bogus"'],
      [['query', 'history', 'x..y', '--json'], 2, 'AUR2020', "unknown delta path 'x..y'"],
      [['recap', '--json'], 2, 'AUR6027', 'no episode has been committed yet'],
      [['branch', 'what-if', '--json'], 2, 'AUR7011', 'aureus branch needs --from <episode> or --set <path>=<value>'],
    ];
    for (const [argv, code, diagCode, message] of cases) {
      const r = await spawnCli(argv, w);
      const what = `${argv.join(' ')}: ${r.stderr}`;
      expect(r.code, what).toBe(code);
      expect(r.stderr, what).toContain(`error ${diagCode} ${message}`);
      expect(r.stderr, what).toMatch(/\n {4}hint: \S/);
      const lines = r.stdout.trim().split('\n');
      expect(lines, what).toHaveLength(1);
      const doc = JSON.parse(lines[0]!) as { error: { exit_code: number; codes: string[] } };
      expect(doc.error, what).toMatchObject({ exit_code: code, codes: [diagCode] });
    }
  });

  it('a missing option or argument, of any command: AUR7011 with the usage line as hint, the one-line JSON error under --json', async () => {
    // Before, commander's plain "error: required option '--scene <file>' not specified" (or "missing
    // required argument 'dir'"): no code, and nothing on stdout under --json.
    const cwd = tempDir();
    const cases: [string[], string, string][] = [
      [['scene', 'verify', '--packet', 'x'], 'aureus scene verify needs --scene <file>', 'usage: aureus scene verify [options] (see aureus scene verify --help)'],
      [['import', 'synthetic', 'x'], 'aureus import synthetic needs --principals <n>', 'usage: aureus import synthetic [options] <dir> (see aureus import synthetic --help)'],
      [['import', 'dprr', 'x', '--from', '-100'], 'aureus import dprr needs --to <year>', 'usage: aureus import dprr [options] <dir>'],
      [['init'], 'aureus init needs the argument <dir>', 'usage: aureus init [options] <dir> (see aureus init --help)'],
      [['scene', 'verify', '--scene', 's.md', '--packet'], 'aureus scene verify needs a value after --packet (--packet <file>)', 'usage: aureus scene verify [options]'],
    ];
    for (const [argv, message, hint] of cases) {
      for (const json of [false, true]) {
        // --json before a trailing option that lacks its value (after it, it would be that value).
        const withJson = argv.at(-1) === '--packet' ? [...argv.slice(0, -1), '--json', '--packet'] : [...argv, '--json'];
        const r = await spawnCli(json ? withJson : argv, cwd);
        const what = `${argv.join(' ')}${json ? ' --json' : ''}: ${r.stderr}`;
        expect(r.code, what).toBe(2);
        expect(r.stderr, what).toContain(`error AUR7011 ${message}\n    hint: ${hint}`);
        expect(r.stderr, what).not.toContain('error: ');
        if (!json) expect(r.stdout, what).toBe('');
        else expect(r.stdout, what).toBe(`${JSON.stringify({ error: { message, exit_code: 2, codes: ['AUR7011'] } })}\n`);
      }
    }
    expect(fs.readdirSync(cwd)).toEqual([]);
    // Commander's own (an unknown flag) stays text alone, as README says.
    const unknown = await spawnCli(['init', 'x', '--bogus', '--json'], cwd);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: unknown option '--bogus'");
    expect(unknown.stdout).toBe('');
  });
});
