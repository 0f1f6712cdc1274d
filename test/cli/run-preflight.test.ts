import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git, makeWorld, tempDir } from '../pipeline/world.js';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';

afterAll(cleanup);

/** Commit every change of the world repository (a run refuses uncommitted world edits). */
function commitAll(root: string, msg: string): void {
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', msg);
}

describe('season notes are part of the world validate checks', () => {
  it('a notes.json that is not JSON fails validate (AUR1005 at line:col) and the run before any work', async () => {
    const root = await makeWorld('notes-json');
    fs.writeFileSync(path.join(root, 'seasons/season_01/notes.json'), '{bad\n');
    commitAll(root, 'bad notes');
    const v = await cli(['validate', '--json'], root);
    expect(v.code).toBe(3);
    const d = (JSON.parse(v.stdout) as { diagnostics: { code: string; file: string; line: number; column: number }[] }).diagnostics;
    expect(d).toEqual([expect.objectContaining({ code: 'AUR1005', file: 'seasons/season_01/notes.json', line: 1, column: 2 })]);
    const r = await cli(['episode', 'run'], root);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/1:2: error AUR1005/);
    expect(r.stderr).not.toMatch(/position \d/);
    expect(fs.existsSync(path.join(root, 'seasons/season_01/episode_01'))).toBe(false);
  }, 120_000);

  it('a notes.json that breaks its schema is AUR3063, then the missing key with pointer, line:col and hint', async () => {
    const root = await makeWorld('notes-schema');
    fs.writeFileSync(path.join(root, 'seasons/season_01/notes.json'), '{"format":1,"season":1,"notes":[{"id":"n001"}]}\n');
    commitAll(root, 'bad notes');
    const v = await cli(['validate'], root);
    expect(v.code).toBe(3);
    const out = v.stdout + v.stderr;
    expect(out).toMatch(/error AUR3063 the season notes seasons\/season_01\/notes\.json are invalid: 3 problems against schemas\/notes\.schema\.json/);
    // ajv's raw message is translated as for a world file (was "1:33: error AUR3063 /notes/0 must have required property 'text'").
    expect(out).toMatch(/1:33 \/notes\/0: error AUR1012 missing required key "text"\n\s+hint: add "text" here \(see schemas\/notes\.schema\.json\)/);
    expect(out).not.toMatch(/must have required property/);
  }, 120_000);

  it('every schema error of notes.json is reported like a world file\'s, each with pointer, line:col and hint', async () => {
    const root = await makeWorld('notes-schema-all');
    const notes = '{\n  "format": 1,\n  "season": 1,\n  "notes": [\n    {"id": "n001", "text": "x", "episode": "s1", "source": "web", "extra": 1}\n  ]\n}\n';
    fs.writeFileSync(path.join(root, 'seasons/season_01/notes.json'), notes);
    commitAll(root, 'bad notes');
    const v = await cli(['validate', '--json'], root);
    expect(v.code).toBe(3);
    type D = { code: string; file: string; pointer?: string; line?: number; column?: number; hint: string; message: string };
    const d = (JSON.parse(v.stdout) as { diagnostics: D[] }).diagnostics.filter((x) => x.file === 'seasons/season_01/notes.json');
    expect(d.map((x) => x.code)).toEqual(['AUR3063', 'AUR1010', 'AUR1015', 'AUR1014']);
    expect(d[0]!.message).toContain('3 problems against schemas/notes.schema.json');
    expect(d.slice(1)).toEqual([
      expect.objectContaining({ pointer: '/notes/0/extra', line: 5, column: 67, hint: expect.stringContaining('allowed keys here: id, text, episode, thread, character, source') }),
      expect.objectContaining({ pointer: '/notes/0/episode', line: 5, column: 33, hint: 'see schemas/notes.schema.json for the expected form' }),
      expect.objectContaining({ pointer: '/notes/0/source', line: 5, column: 50, message: 'value "web" is not allowed here', hint: 'allowed: "cli", "play"' }),
    ]);
    // A run stops before any work with the same diagnostics (exit 3).
    const r = await cli(['episode', 'plan'], root);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/AUR3063[\s\S]*5:67 \/notes\/0\/extra: error AUR1010 unknown key "extra"/);
  }, 120_000);
});

describe('the ids a season note names are checked against the world', () => {
  it('a hand-edited note naming an unknown character, thread or another season\'s episode fails validate and the season run (exit 3)', async () => {
    const root = await makeWorld('notes-refs');
    const made = await cli(['note', 'x', '--character', 'terentia', '--episode', 's01e02'], root);
    expect(made.code, made.stderr).toBe(0);
    // `aureus note` refuses these ids (AUR3061); a hand edit used to pass validate, and the run
    // dropped the note in silence.
    const rel = 'seasons/season_01/notes.json';
    const notes = JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8'));
    notes.notes[0].character = 'terentiaa';
    notes.notes[0].thread = 'thr_bogus';
    notes.notes.push({ id: 'n002', text: 'y', episode: 's02e01', source: 'cli' });
    fs.writeFileSync(path.join(root, rel), JSON.stringify(notes, null, 2) + '\n');
    commitAll(root, 'hand-edited notes');
    const v = await cli(['validate', '--json'], root);
    expect(v.code).toBe(3);
    type D = { code: string; file: string; pointer?: string; line?: number; message: string; hint: string };
    const d = (JSON.parse(v.stdout) as { diagnostics: D[] }).diagnostics.filter((x) => x.file === rel);
    expect(d.map((x) => [x.code, x.pointer])).toEqual([
      ['AUR3063', undefined],
      ['AUR1022', '/notes/0/character'],
      ['AUR1022', '/notes/0/thread'],
      ['AUR1022', '/notes/1/episode'],
    ]);
    expect(d[1]).toMatchObject({ message: 'note character "terentiaa" does not exist', hint: expect.stringMatching(/^did you mean "terentia"\? known character ids: /) });
    expect(d[2]!.message).toBe('note thread "thr_bogus" does not exist');
    expect(d[2]!.hint).toContain('thr_murena_trial');
    expect(d[3]!.message).toBe('episode "s02e01" does not exist');
    for (const x of d.slice(1)) expect(x.line).toBeGreaterThan(0);
    const r = await cli(['season', 'run', '--count', '3'], root);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/\/notes\/0\/character: error AUR1022 note character "terentiaa" does not exist/);
    expect(git(root, 'tag', '--list', 's01e*')).toBe('');
  }, 120_000);
});

describe('a bad model id from a flag is the flag’s usage error, not the config file’s', () => {
  it('--model director=gpt-9: exit 2 naming the flag and the known ids; nothing blamed on aureus.config.yaml, nothing written', async () => {
    const root = await makeWorld('model-flag');
    const r = await cli(['episode', 'run', '--model', 'director=gpt-9'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/AUR4003 bad --model value "director=gpt-9": unknown model id "gpt-9"/);
    expect(r.stderr).toMatch(/hint: known models: .*claude-sonnet-5-5/);
    expect(r.stderr).not.toMatch(/aureus\.config\.yaml/);
    expect(git(root, 'status', '--porcelain')).toBe('');
    expect(fs.existsSync(path.join(root, '.aureus/runs'))).toBe(false);
  }, 120_000);

  it('--provider anthropic:gpt-9 is the --provider flag’s error (exit 2)', async () => {
    const root = await makeWorld('provider-flag');
    const r = await cli(['episode', 'run', '--provider', 'anthropic:gpt-9'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/AUR4003 bad --provider value "anthropic:gpt-9": unknown model id "gpt-9"/);
    expect(r.stderr).not.toMatch(/aureus\.config\.yaml/);
  }, 120_000);

  it('the same unknown id written in aureus.config.yaml stays the file’s error (exit 3, AUR4007 at its line)', async () => {
    const root = await makeWorld('model-file');
    const file = path.join(root, 'aureus.config.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/director: claude-sonnet-5-5/, 'director: gpt-9'));
    commitAll(root, 'bad model');
    const r = await cli(['episode', 'run'], root);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/\/models\/director: error AUR4007 unknown model id "gpt-9"|\d+:\d+: error AUR4007 unknown model id "gpt-9"/);
  }, 120_000);
});

describe('an empty --seed is a usage error', () => {
  it('episode run, season run and episode plan refuse "" and a blank seed with exit 2 and a hint; nothing written', async () => {
    const root = await makeWorld('empty-seed');
    for (const argv of [['episode', 'run', '--seed', ''], ['episode', 'run', '--seed', '  '], ['episode', 'plan', '--seed', ''], ['season', 'run', '--count', '1', '--seed', '']]) {
      const r = await cli(argv, root);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/AUR4003 bad --seed value "\s*": the seed is empty/);
      expect(r.stderr).toMatch(/hint: valid form: --seed <text>/);
    }
    expect(git(root, 'status', '--porcelain')).toBe('');
    expect(fs.existsSync(path.join(root, '.aureus/runs'))).toBe(false);
    expect(git(root, 'log', '--format=%B')).not.toMatch(/Aureus-Seed:/);
  }, 120_000);
});

describe('-C to a missing folder is exit 2 even when no command follows', () => {
  it('-C /missing and -C validate (the command taken as the folder) exit 2 with AUR7006; plain aureus and -C <world> still print the help with 0', async () => {
    const root = await makeWorld('dash-c');
    const parent = path.dirname(root);
    const missing = await cli(['-C', path.join(parent, 'nope')], parent);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/AUR7006 cannot use .*nope as the world directory \(-C\): no such directory/);
    const swallowed = await cli(['-C', 'validate'], parent);
    expect(swallowed.code).toBe(2);
    expect(swallowed.stderr).toMatch(/AUR7006 cannot use .*validate as the world directory/);
    for (const argv of [[], ['-C', root]]) {
      const help = await cli(argv, parent);
      expect(help.code, argv.join(' ')).toBe(0);
      expect(help.stdout + help.stderr).toMatch(/Usage: aureus/);
      expect(help.stderr).not.toMatch(/AUR7006/);
    }
  }, 120_000);
});

describe('not a world repository', () => {
  it('episode run in a git repository without world/ says so (AUR1000, exit 3), not that season 1 has no goals', async () => {
    const d = tempDir('no-world');
    git(d, 'init', '-q');
    for (const argv of [['episode', 'run'], ['season', 'run'], ['episode', 'plan'], ['validate']]) {
      const r = await cli(argv, d);
      expect(r.code, argv.join(' ')).toBe(3);
      expect(r.stdout + r.stderr).toContain(`AUR1000 not a world repository: ${d} has no world/ folder`);
      expect(r.stdout + r.stderr).not.toContain('AUR7050');
    }
    expect(fs.readdirSync(d)).toEqual(['.git']);
  });

  it('started inside a world repository (its world/ folder), the hint names the repository to run in', async () => {
    const root = await makeWorld('inside');
    const inside = path.join(root, 'world');
    for (const argv of [['validate'], ['episode', 'run']]) {
      const r = await cli(argv, inside);
      expect(r.code, argv.join(' ')).toBe(3);
      expect(r.stdout + r.stderr).toContain(`hint: ${inside} is inside the world repository ${root}: run aureus there, or pass -C ${root}`);
    }
    expect(git(root, 'status', '--porcelain')).toBe('');
  }, 120_000);

  // status said "world/world.json is missing" (exit 3, no code), recap "no episode has been committed
  // yet" (exit 2), diff/export/rollback an unknown episode, cost no run log, episode review/commit/
  // discard that nothing is staged (exit 2); query, note, plan and play added a validate hint.
  const commands = [['status'], ['status', '--json'], ['recap'], ['diff', 's01e01', 's01e02'], ['cost'], ['query', 'character', 'cicero'], ['note', 'hello'],
    ['episode', 'review'], ['episode', 'commit'], ['episode', 'discard'], ['episode', 'plan'], ['export', 's01e01'], ['rollback', 's01e01'], ['branch', 'what-if', '--from', 's01e01'], ['scene', 'edit', 'SC01'], ['play']];

  it('every command that reads the world says AUR1000 (exit 3) in a git repository without world/, and nothing else', async () => {
    const d = tempDir('no-world-all');
    git(d, 'init', '-q');
    for (const argv of commands) {
      const r = await cli(argv, d);
      expect(r.code, argv.join(' ')).toBe(3);
      expect(r.stderr, argv.join(' ')).toBe(`  error AUR1000 not a world repository: ${d} has no world/ folder\n    hint: create one with \`aureus init <dir>\`, or point -C at a world repository\n`);
    }
    expect(fs.readdirSync(d)).toEqual(['.git']);
  }, 120_000);

  it('in a world’s world/ folder every one of them names the repository to run in', async () => {
    const root = await makeWorld('inside-all');
    const inside = path.join(root, 'world');
    // What init left in .aureus/ (the starter kit's derived-index entry): nothing is added to it.
    const aureus = () => fs.readdirSync(path.join(root, '.aureus'), { recursive: true }).map(String).sort();
    const before = aureus();
    for (const argv of commands) {
      const r = await cli(argv, inside);
      expect(r.code, argv.join(' ')).toBe(3);
      expect(r.stderr, argv.join(' ')).toContain(`AUR1000 not a world repository: ${inside} has no world/ folder\n    hint: ${inside} is inside the world repository ${root}: run aureus there, or pass -C ${root}\n`);
      expect(r.stderr, argv.join(' ')).not.toMatch(/aureus validate/);
    }
    expect(git(root, 'status', '--porcelain')).toBe('');
    expect(aureus()).toEqual(before);
  }, 120_000);
});

describe('--json failures answer on stdout', () => {
  // Before, a failing `episode run --json` (and plan, commit) printed nothing on stdout: a CI job
  // parsing it got no answer, while `season run --json` printed {episodes: [], error}.
  it('episode run, plan and commit print one JSON object with the error; the diagnostics stay on stderr; the exit code is kept', async () => {
    const d = tempDir('json-no-world');
    git(d, 'init', '-q');
    const none = await cli(['episode', 'run', '--json'], d);
    expect(none.code).toBe(3);
    expect(JSON.parse(none.stdout)).toEqual({ error: { message: `not a world repository: ${d}`, exit_code: 3, codes: ['AUR1000'] }, warnings: [] });
    expect(none.stderr).toContain(`AUR1000 not a world repository: ${d} has no world/ folder`);

    const root = await makeWorld('json-syntax');
    fs.writeFileSync(path.join(root, 'world/secrets.json'), '{bad\n');
    commitAll(root, 'broken secrets');
    const head = git(root, 'rev-parse', 'HEAD');
    for (const argv of [['episode', 'run', '--json'], ['episode', 'plan', '--json']]) {
      const r = await cli(argv, root);
      expect(r.code, argv.join(' ')).toBe(3);
      expect(JSON.parse(r.stdout), argv.join(' ')).toMatchObject({ error: { message: `the world in ${root} is invalid (1 error)`, exit_code: 3, codes: ['AUR1005'] } });
      expect(r.stderr).toMatch(/world\/secrets\.json\n  1:2: error AUR1005 invalid JSON/);
    }
    const commit = await cli(['episode', 'commit', '--json'], root);
    expect(commit.code).toBe(2);
    expect(JSON.parse(commit.stdout)).toEqual({ error: { message: 'no episode is staged for review', exit_code: 2, codes: ['AUR6101'] } });
    expect(commit.stderr).toMatch(/AUR6101/);
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(root, 'status', '--porcelain')).toBe('');
    expect(fs.existsSync(path.join(root, '.aureus/runs'))).toBe(false);
  }, 120_000);
});

describe('world files saved with CRLF line endings or a byte-order mark', () => {
  type D = { code: string; severity: string; file: string; message: string; hint: string };
  const crlf = (root: string, rel: string) => fs.writeFileSync(path.join(root, rel), fs.readFileSync(path.join(root, rel), 'utf8').replace(/\n/g, '\r\n'));
  const bom = (root: string, rel: string) => fs.writeFileSync(path.join(root, rel), '\ufeff' + fs.readFileSync(path.join(root, rel), 'utf8'));

  it('validate warns (AUR1040, exit 0) naming the file, what it found, and that the next commit rewrites it', async () => {
    const root = await makeWorld('crlf-validate');
    crlf(root, 'world/characters.json');
    bom(root, 'world/threads.json');
    bom(root, 'operators/operators.json');
    crlf(root, 'operators/operators.json');
    // Season goals are not rewritten by a commit: no warning for them.
    crlf(root, 'seasons/season_01/season_goals.json');
    const v = await cli(['validate', '--json'], root);
    expect(v.code).toBe(0);
    const d = (JSON.parse(v.stdout) as { valid: boolean; diagnostics: D[] }).diagnostics;
    expect(d.map((x) => [x.code, x.severity, x.file])).toEqual([
      ['AUR1040', 'warning', 'world/characters.json'],
      ['AUR1040', 'warning', 'world/threads.json'],
      ['AUR1040', 'warning', 'operators/operators.json'],
    ]);
    expect(d[0]!.message).toBe('world/characters.json has CRLF line endings: aureus writes LF line endings and no byte-order mark');
    expect(d[1]!.message).toBe('world/threads.json has a byte-order mark: aureus writes LF line endings and no byte-order mark');
    expect(d[2]!.message).toBe('operators/operators.json has a byte-order mark and CRLF line endings: aureus writes LF line endings and no byte-order mark');
    expect(d[0]!.hint).toMatch(/the next episode commit that changes it rewrites the whole file, so its git diff shows every line changed: convert it first/);
    expect(d[0]!.hint).toContain('"world/characters.json text eol=lf" to .gitattributes and run `git add --renormalize .`');
    const text = await cli(['validate'], root);
    expect(text.code).toBe(0);
    expect(text.stdout + text.stderr).toMatch(/world\/characters\.json\n\s+warning AUR1040 world\/characters\.json has CRLF line endings/);
    expect(text.stdout).toMatch(/is a valid world \(3 warnings\)/);
  }, 120_000);

  it('a file with an error still says how it is stored, next to the error (exit 3)', async () => {
    const root = await makeWorld('crlf-error');
    fs.writeFileSync(path.join(root, 'world/canon.json'), '{"format":1,\r\n"bogus":1}\r\n');
    const v = await cli(['validate', '--json'], root);
    expect(v.code).toBe(3);
    const d = (JSON.parse(v.stdout) as { diagnostics: D[] }).diagnostics.filter((x) => x.file === 'world/canon.json');
    expect(d.map((x) => x.code)).toContain('AUR1040');
    expect(d.map((x) => x.code)).toContain('AUR1010');
  }, 120_000);

  it('the run\'s preflight carries the same warning (and only it), which episode run prints', async () => {
    const root = await makeWorld('crlf-run');
    crlf(root, 'world/characters.json');
    commitAll(root, 'crlf');
    const { preflightEpisode } = await import('../../src/pipeline/episode-choice.js');
    const pre = await preflightEpisode({ root });
    expect(pre.warnings.map((w) => [w.code, w.file])).toEqual([['AUR1040', 'world/characters.json']]);
    const r = await cli(['episode', 'run', '--no-commit'], root);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning AUR1040 world\/characters\.json has CRLF line endings/);
  }, 240_000);
  it('episode run and season run say it on stderr as they start, before stage A and the commit, once; --json lists it', async () => {
    const warned = /warning AUR1040 world\/characters\.json has CRLF line endings/g;
    for (const argv of [['episode', 'run'], ['season', 'run', '--count', '2']]) {
      const root = await makeWorld(`crlf-early-${argv[0]}`);
      crlf(root, 'world/characters.json');
      commitAll(root, 'crlf');
      const r = await cli(argv, root);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.stderr.match(warned), argv.join(' ')).toHaveLength(1);
      const at = r.stderr.search(warned);
      expect(at, argv.join(' ')).toBeLessThan(r.stderr.indexOf('A  snapshot …'));
      expect(at, argv.join(' ')).toBeLessThan(r.stderr.indexOf('commit and tag … done'));
      // The commit did rewrite the file (LF): the next episode of the season has nothing to say.
      expect(fs.readFileSync(path.join(root, 'world/characters.json'), 'utf8')).not.toContain('\r');
    }
    const root = await makeWorld('crlf-early-json');
    crlf(root, 'world/characters.json');
    commitAll(root, 'crlf');
    const j = await cli(['episode', 'run', '--json'], root);
    expect(j.code).toBe(0);
    expect((JSON.parse(j.stdout) as { warnings: { code: string }[] }).warnings.map((w) => w.code)).toEqual(['AUR1040']);
    expect(j.stderr).not.toMatch(warned);
  }, 360_000);

  it('episode commit (of a run staged with --review) says it on stderr before its commit, once; with --json too', async () => {
    const root = await makeWorld('crlf-review');
    crlf(root, 'world/characters.json');
    commitAll(root, 'crlf');
    const staged = await cli(['episode', 'run', '--review', '--json'], root);
    expect(staged.code, staged.stderr).toBe(0);
    const before = git(root, 'rev-list', '--count', 'HEAD');
    for (const argv of [['episode', 'commit'], ['episode', 'commit', '--json']]) {
      const w = copyRepo(root, 'crlf-review-commit');
      // The commits the repository holds as each warning is written: the commit must not have been made yet.
      const said: string[] = [];
      let stdout = '';
      let stderr = '';
      const io: Io = { stdout: (t) => void (stdout += t), stderr: (t) => {
        stderr += t;
        if (/warning AUR1040 world\/characters\.json has CRLF line endings/.test(t)) said.push(git(w, 'rev-list', '--count', 'HEAD'));
      }, env: { NO_COLOR: '1' }, cwd: w, isTTY: false };
      expect(await main(argv, io), stderr).toBe(0);
      expect(said, argv.join(' ')).toEqual([before]);
      expect(stderr.match(/warning AUR1040/g), argv.join(' ')).toHaveLength(1);
      expect(git(w, 'rev-list', '--count', 'HEAD')).toBe(String(Number(before) + 1));
      expect(fs.readFileSync(path.join(w, 'world/characters.json'), 'utf8')).not.toContain('\r');
      if (argv.includes('--json')) expect(JSON.parse(stdout).reviewed).toBeDefined();
    }
  }, 360_000);
});
