import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORLD_FILES } from '../../src/domain/world.js';
import { BIN, builtCli, cleanup, cli, copyRepo, editJson, git, makeWorld } from '../pipeline/world.js';

/**
 * `aureus status` and `aureus diff` read the world through season/world-at.ts, which read it its
 * own way (audit): a FIFO as a world file hung status for ever, Ctrl-C included; a file validate
 * refuses for its schema crashed status (exit 1, "Cannot read properties of undefined") or printed
 * NaN; deep nesting overflowed the stack; and a UTF-8 BOM validate reads fine was "invalid JSON".
 * Now they read as the store does: exit 3 with the store's diagnostics, and a BOM is dropped.
 */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('world-at');
}, 120_000);
afterAll(cleanup);

/**
 * The built CLI as a child process. The limit only ends a hang (the bug) so that the test fails
 * instead of the run sticking; SIGKILL because a process blocked reading a FIFO runs no handler.
 */
function run(args: string[], cwd: string) {
  const p = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL', env: { ...process.env, NO_COLOR: '1', ANTHROPIC_API_KEY: '' } });
  return { code: p.status, signal: p.signal, stdout: p.stdout, stderr: p.stderr };
}

const fifo = (w: string, rel: string): void => {
  fs.rmSync(path.join(w, rel));
  execFileSync('mkfifo', [path.join(w, rel)]);
};

describe.skipIf(!builtCli())('status: a FIFO is refused, never waited on', () => {
  for (const rel of ['world/relationships.json', 'operators/operators.json', 'world/constraints.json']) {
    it(`a FIFO at ${rel}: exit 3, AUR1008, as validate`, () => {
      const w = copyRepo(pristine, 'fifo');
      fifo(w, rel);
      const r = run(['status'], w);
      expect(r.signal).toBeNull();
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(`${rel}\n  error AUR1008 cannot read ${rel}: it is a named pipe (FIFO), not a regular file`);
      expect(r.stderr).not.toMatch(/internal error/);
    });
  }

  it("a FIFO as a committed episode's metrics: status shows a gap in the tension line", async () => {
    const w = copyRepo(pristine, 'fifo-metrics');
    const ep = await cli(['episode', 'run', '--seed', '7'], w);
    expect(ep.code, ep.stderr.slice(-800)).toBe(0);
    fifo(w, 'seasons/season_01/episode_01/episode_metrics.json');
    const r = run(['status', '--json'], w);
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).committed.map((e: { id: string; tension: unknown }) => [e.id, e.tension])).toEqual([['s01e01', null]]);
  }, 120_000);
});

describe('status: a world file validate refuses is exit 3 with its diagnostics, not a crash', () => {
  const cases: [string, string, (w: string) => void, RegExp][] = [
    ['a character without stats', 'world/characters.json', (w) => editJson(w, 'world/characters.json', (v) => delete v.characters[0].stats), /\d+:\d+ \/characters\/0: error AUR1012 missing required key "stats"/],
    ['threads that are a string', 'world/threads.json', (w) => editJson(w, 'world/threads.json', (v) => (v.threads = 'x')), /\d+:\d+ \/threads: error AUR10\d\d /],
    ['world.json an array', 'world/world.json', (w) => fs.writeFileSync(path.join(w, 'world/world.json'), '[]\n'), /error AUR10\d\d /],
    ['a metric without its value (was NaN, exit 0)', 'world/world.json', (w) => editJson(w, 'world/world.json', (v) => delete (Object.values(v.global)[0] as { value?: number }).value), /\d+:\d+ \/global\/\w+: error AUR1012 missing required key "value"/],
    [
      'nesting 10,000 deep (was a stack overflow)',
      'world/secrets.json',
      // Written as text: JSON.stringify itself overflows on a value this deep.
      (w) => fs.writeFileSync(path.join(w, 'world/secrets.json'), fs.readFileSync(path.join(w, 'world/secrets.json'), 'utf8').replace('{', `{"deep": ${'['.repeat(10_000)}${']'.repeat(10_000)},`)),
      /\d+:\d+: error AUR1005 invalid JSON: nesting deeper than 256 levels/,
    ],
  ];
  for (const [what, rel, edit, expected] of cases) {
    it(what, async () => {
      const w = copyRepo(pristine, 'schema');
      edit(w);
      git(w, 'commit', '-qam', what);
      const v = await cli(['validate'], w);
      expect(v.code).toBe(3);
      const r = await cli(['status'], w);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(`${rel}\n  `);
      expect(r.stderr).toMatch(expected);
      expect(r.stdout).toBe('');
    });
  }
});

describe('status and diff read a UTF-8 BOM as validate does', () => {
  it('every world file with a BOM, in the working tree and committed: status and diff read it', async () => {
    const w = copyRepo(pristine, 'bom');
    const before = await cli(['status', '--json'], w);
    expect(before.code, before.stderr).toBe(0);
    for (const rel of Object.values(WORLD_FILES)) {
      const file = path.join(w, rel);
      if (fs.existsSync(file)) fs.writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), fs.readFileSync(file)]));
    }
    expect((await cli(['validate'], w)).code).toBe(0);
    const tree = await cli(['status', '--json'], w);
    expect(tree.code, tree.stderr).toBe(0);
    expect(JSON.parse(tree.stdout)).toEqual(JSON.parse(before.stdout));
    git(w, 'commit', '-qam', 'BOMs');
    const d = await cli(['diff', 'HEAD~1', 'HEAD'], w);
    expect(d.code, d.stderr).toBe(0);
    expect(d.stdout).toContain('No change to the world.');
  });
});

describe.skipIf(!builtCli())('status: a world file linked out of the repository is refused', () => {
  // validate and every command that loads the world refuse it (AUR1050): status read the foreign file as this world's.
  it('exit 3, AUR1050 naming the file and where it leads, as validate', () => {
    const w = copyRepo(pristine, 'link-out');
    const outside = path.join(path.dirname(w), `${path.basename(w)}-foreign-factions.json`);
    fs.copyFileSync(path.join(w, 'world/factions.json'), outside);
    fs.rmSync(path.join(w, 'world/factions.json'));
    fs.symlinkSync(outside, path.join(w, 'world/factions.json'));
    const v = run(['validate'], w);
    expect(v.code).toBe(3);
    expect(v.stdout + v.stderr).toContain('AUR1050');
    const r = run(['status'], w);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('AUR1050');
    expect(r.stderr).toContain('world/factions.json');
    expect(r.stderr).toContain(outside);
  });
});
