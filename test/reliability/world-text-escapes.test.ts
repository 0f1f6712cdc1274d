import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, builtCli, cleanup, cli, copyRepo, editJson, git, makeWorld } from '../pipeline/world.js';
import { textRenderer } from '../../src/play/render.js';

/**
 * Control characters in world text never reach the terminal raw, and a name never carries one into
 * the committed script (README, validate): a naming field (id, name, title, label, cue, …_id) with a
 * control or invisible format character is refused by validation (AUR1055, located), so every command
 * that needs a valid world refuses it too; world text that may hold them (a thread's question, a
 * commit subject, a hand-edited recap, an old commit's names) is printed escaped (`\x1b`).
 */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('escapes-pristine');
}, 120_000);
afterAll(cleanup);

// Raw C0 (but tab and newline), DEL, C1 and the bidi overrides: none may reach the terminal.
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const ESC_NAME = 'Marcus \u001b[31mTullius Cicero';

/** The built CLI as a child process, stdin given (play reads its lines from it). */
function run(args: string[], cwd: string, input = '') {
  const p = spawnSync(process.execPath, [BIN, ...args], { cwd, input, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1', ANTHROPIC_API_KEY: '' } });
  return { code: p.status, stdout: p.stdout, stderr: p.stderr };
}

function withBadName(label: string): string {
  const root = copyRepo(pristine, label);
  editJson(root, 'world/characters.json', (v) => {
    v.characters.find((c: { id: string }) => c.id === 'cicero').name = ESC_NAME;
  });
  git(root, 'commit', '-qam', 'a name with an escape sequence');
  return root;
}

describe('validation refuses control and invisible characters in names (AUR1055)', () => {
  it('a name with ESC, a location name with a bidi override, a thread title with a line break: each located, exit 3', async () => {
    const root = copyRepo(pristine, 'validate-names');
    editJson(root, 'world/characters.json', (v) => (v.characters[0].name = ESC_NAME));
    editJson(root, 'world/world.json', (v) => (v.locations[0].name = 'Forum\u202e'));
    editJson(root, 'world/anchors.json', (v) => (v.anchors[0].title = 'The consular\nelections'));
    // A description may hold line breaks: not refused.
    editJson(root, 'world/characters.json', (v) => (v.characters[1].description = 'Line one.\nLine two.'));
    const r = await cli(['validate', '--json'], root);
    expect(r.code).toBe(3);
    const ds = (JSON.parse(r.stdout) as { diagnostics: { code: string; file: string; pointer: string; line?: number; message: string; hint?: string }[] }).diagnostics.filter((d) => d.code === 'AUR1055');
    ds.sort((a, b) => a.file.localeCompare(b.file));
    expect(ds.map((d) => [d.file, d.pointer])).toEqual([
      ['world/anchors.json', '/anchors/0/title'],
      ['world/characters.json', '/characters/0/name'],
      ['world/world.json', '/locations/0/name'],
    ]);
    expect(ds[1]!.line).toBeGreaterThan(0);
    expect(ds.map((d) => d.message.split(' holds ')[1]!.split(':')[0])).toEqual(['\\x0a', '\\x1b', '\\u202e']);
    expect(ds[1]!.hint).toMatch(/delete the character/);
    const text = await cli(['validate'], root);
    expect(text.code).toBe(3);
    expect(text.stdout + text.stderr).not.toMatch(RAW);
    expect(text.stdout).toMatch(/world\/characters\.json\n\s+\d+:\d+ \/characters\/0\/name: error AUR1055 the name holds \\x1b/);
  });

  it('a zero-width space in a faction name is refused; the same world with a newline only in a description is valid', async () => {
    const root = copyRepo(pristine, 'validate-zw');
    editJson(root, 'world/characters.json', (v) => (v.characters[1].description = 'Line one.\nLine two.'));
    expect((await cli(['validate'], root)).code).toBe(0);
    editJson(root, 'world/factions.json', (v) => (v.factions[0].name = 'Optimates\u200b'));
    const r = await cli(['validate'], root);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/\/factions\/0\/name: error AUR1055 the name holds \\u200b/);
  });
});

describe.runIf(builtCli())('commands on a world whose name holds ESC: refused, nothing raw printed, nothing committed', () => {
  it('status, query, episode run and play exit 3 with AUR1055; no script is written', () => {
    const root = withBadName('refused');
    const head = git(root, 'rev-parse', 'HEAD');
    for (const [args, input] of [
      [['status'], ''],
      [['query', 'character', 'cicero'], ''],
      [['episode', 'run', '--provider', 'offline'], ''],
      [['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--provider', 'offline'], '/scene\n/end\n'],
    ] as const) {
      const r = run([...args], root, input);
      expect(r.code, `${args.join(' ')}: ${r.stderr.slice(-800)}`).toBe(3);
      expect(r.stderr).toContain('AUR1055');
      expect(r.stdout + r.stderr, args.join(' ')).not.toMatch(RAW);
    }
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
    expect(fs.existsSync(path.join(root, 'seasons/season_01/episode_01/episode_script.md'))).toBe(false);
  });
});

describe.runIf(builtCli())('world text that may hold control characters is printed escaped', () => {
  it('status: a thread question with an OSC title sequence', () => {
    const root = copyRepo(pristine, 'status-question');
    editJson(root, 'world/threads.json', (v) => (v.threads[0].question = 'Will the grain \u001b]0;pwned\u0007reach Rome?'));
    git(root, 'commit', '-qam', 'question');
    const r = run(['status'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).toContain('Will the grain \\x1b]0;pwned\\x07reach Rome?');
  });

  it('query history: a commit subject with a colour sequence', () => {
    const root = copyRepo(pristine, 'query-subject');
    editJson(root, 'world/world.json', (v) => (v.global.unrest = (v.global.unrest + 1) % 10));
    git(root, 'commit', '-qam', 'riot \u001b[31min the Subura');
    const r = run(['query', 'history', 'world.global.unrest'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).toContain('riot \\x1b[31min the Subura');
  });

  it('diff: an old commit whose name holds ESC is refused (AUR1055), nothing raw printed', () => {
    const root = copyRepo(pristine, 'diff-names');
    const before = git(root, 'rev-parse', 'HEAD');
    editJson(root, 'world/characters.json', (v) => {
      const c = v.characters.find((x: { id: string }) => x.id === 'cicero');
      c.name = ESC_NAME;
      c.status = 'exiled';
    });
    git(root, 'commit', '-qam', 'exile');
    const r = run(['diff', before, 'HEAD'], root);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('AUR1055');
    expect(r.stdout + r.stderr).not.toMatch(RAW);
  });

  it('recap: a hand-edited recap.md', () => {
    const root = copyRepo(pristine, 'recap-edit');
    const ran = run(['episode', 'run', '--provider', 'offline'], root);
    expect(ran.code, ran.stderr.slice(-800)).toBe(0);
    const file = path.join(root, 'seasons/season_01/episode_01/recap.md');
    fs.writeFileSync(file, 'Previously \u001b[2Jon the Republic\u202e.\n');
    git(root, 'commit', '-qam', 'recap by hand');
    // recap reads the episode's tag: moved to the hand edit.
    const tag = git(root, 'tag', '--list').trim().split('\n')[0]!;
    git(root, 'tag', '-f', tag, 'HEAD');
    const r = run(['recap'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).toContain('Previously \\x1b[2Jon the Republic\\u202e.');
  }, 120_000);

  it('play: the lines and notices it renders', () => {
    let out = '';
    let err = '';
    const render = textRenderer({ out: (t) => (out += t), err: (t) => (err += t), live: false, columns: () => 80 });
    render({ type: 'message_complete', content: 'CICERO: *rises* "How \u001b[31mlong?"' } as never);
    render({ type: 'notice', message: 'the Forum\u202e is closed' } as never);
    expect(out + err).not.toMatch(RAW);
    expect(out).toContain('How \\x1b[31mlong?');
    expect(err).toContain('the Forum\\u202e is closed');
  });
});
