import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, git, makeWorld } from '../pipeline/world.js';

/**
 * A command that refuses its arguments (or a dirty world) writes nothing: not a file, and not even
 * an empty directory — in particular no `.aureus/`, which taking the run lock would create. The
 * listing compared here holds every directory and file under the root except .git's contents
 * (checked through git: HEAD, refs, status).
 */
let w = '';
beforeAll(async () => {
  w = await makeWorld('refusals');
  // Without the starter kit's derived-index entry that init puts in .aureus/: then a refusal that
  // wrote anything there (the run lock, an index entry of the world it validated) would show.
  fs.rmSync(path.join(w, '.aureus'), { recursive: true, force: true });
}, 120_000);
afterAll(cleanup);

function listing(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const rel = path.relative(root, path.join(dir, e.name));
      if (rel === '.git') continue;
      if (e.isDirectory()) {
        out.push(rel + '/');
        walk(path.join(dir, e.name));
      } else out.push(`${rel} ${fs.statSync(path.join(dir, e.name)).size}`);
    }
  };
  walk(root);
  out.push(git(root, 'rev-parse', 'HEAD'), git(root, 'for-each-ref'), git(root, 'status', '--porcelain'));
  return out;
}

const refused: { name: string; argv: string[]; exit: number }[] = [
  { name: 'branch: a traversal name', argv: ['branch', '../../evil', '--from', 's01e01'], exit: 2 },
  { name: 'branch: a name starting with -', argv: ['branch', '-x', '--from', 'HEAD'], exit: 2 },
  { name: 'branch: an existing branch', argv: ['branch', 'main', '--from', 'HEAD'], exit: 2 },
  { name: 'branch: an episode not committed', argv: ['branch', 'what_if', '--from', 's01e07'], exit: 2 },
  { name: 'branch: an unknown ref', argv: ['branch', 'what_if', '--from', 'nosuchref'], exit: 2 },
  { name: 'episode run: an episode out of order', argv: ['episode', 'run', '--episode', '5'], exit: 2 },
  { name: 'episode run: a bad episode number', argv: ['episode', 'run', '--episode', '0'], exit: 2 },
  { name: 'season run: a bad count', argv: ['season', 'run', '--count', '0'], exit: 2 },
  { name: 'rollback: an episode not committed', argv: ['rollback', 's01e07'], exit: 2 },
  { name: 'rollback: a traversal id', argv: ['rollback', '../s01e01'], exit: 2 },
];

describe('refused commands write nothing, not even .aureus/', () => {
  it.each(refused)('$name → exit $exit', async (c) => {
    expect(fs.existsSync(path.join(w, '.aureus'))).toBe(false);
    const before = listing(w);
    const r = await cli(c.argv, w);
    expect(r.code, r.stdout + r.stderr).toBe(c.exit);
    expect(listing(w)).toEqual(before);
    expect(fs.existsSync(path.join(w, '.aureus'))).toBe(false);
  });

  it('a dirty world refuses `episode run`, `season run` and `branch` (exit 8) without writing', async () => {
    const file = path.join(w, 'world/factions.json');
    const original = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, original.replace(/\n$/, '\n\n'));
    try {
      // `episode run --episode 5` is also out of order: the dirty world is still the refusal reported
      // (git status runs while the episode is chosen and the world loaded, issue 18).
      for (const argv of [['episode', 'run'], ['episode', 'run', '--episode', '5'], ['season', 'run', '--count', '2'], ['branch', 'what_if', '--from', 'HEAD']]) {
        const before = listing(w);
        const r = await cli(argv, w);
        expect(r.code, `${argv.join(' ')}: ${r.stdout}${r.stderr}`).toBe(8);
        expect(r.stdout + r.stderr).toContain('AUR6001');
        expect(listing(w)).toEqual(before);
        expect(fs.existsSync(path.join(w, '.aureus'))).toBe(false);
      }
      // With --json a season refused before its first episode still answers on stdout (a CI job
      // parses it): no episodes, the error's exit code and codes; nothing written either.
      const before = listing(w);
      const r = await cli(['season', 'run', '--count', '2', '--json'], w);
      expect(r.code).toBe(8);
      expect(JSON.parse(r.stdout)).toMatchObject({ episodes: [], error: { exit_code: 8, codes: ['AUR6001'] } });
      expect(listing(w)).toEqual(before);
    } finally {
      fs.writeFileSync(file, original);
    }
  });
});

describe('a note for an episode already compiled is refused and writes nothing', () => {
  it('`note --episode s01e01` once s01e01 is committed → exit 2, AUR3064 naming it, why and the next episode; --episode s01e02 is kept', async () => {
    const root = await makeWorld('refusals-note');
    const run = await cli(['episode', 'run'], root);
    expect(run.code, run.stderr).toBe(0);
    // The run's folders and index (.aureus/) go, so that a refusal that took the lock would show.
    fs.rmSync(path.join(root, '.aureus'), { recursive: true, force: true });
    for (const argv of [['note', 'Cato should lose his temper', '--episode', 's01e01'], ['note', 'Cato should lose his temper', '--episode', 's01e01', '--json']]) {
      const before = listing(root);
      const r = await cli(argv, root);
      // Was exit 0: the note committed for an episode whose Director had already run.
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toContain('error AUR3064 no Director will read a note for s01e01: it is already compiled (seasons/season_01/episode_01)');
      expect(r.stderr).toContain('hint: aim it at the next episode to compile, s01e02: leave --episode out, or give --episode s01e02');
      if (argv.includes('--json')) expect(JSON.parse(r.stdout)).toMatchObject({ error: { exit_code: 2, codes: ['AUR3064'] } });
      expect(listing(root)).toEqual(before);
      expect(fs.existsSync(path.join(root, '.aureus'))).toBe(false);
      expect(fs.existsSync(path.join(root, 'seasons/season_01/notes.json'))).toBe(false);
    }
    // The episode the hint names is taken, as is one past the season's planned finale (episodes_planned
    // is where the finale threads resolve, not the last episode `episode run` compiles).
    for (const episode of ['s01e02', 's01e11']) {
      const ok = await cli(['note', 'Cato should lose his temper', '--episode', episode, '--json'], root);
      expect(ok.code, ok.stderr).toBe(0);
      expect(JSON.parse(ok.stdout)).toMatchObject({ episode, source: 'cli', file: 'seasons/season_01/notes.json' });
    }
  }, 120_000);

  it('`note --episode s02e01` in a world whose only season is 1 → exit 2, AUR7050 as `episode run --season 2` says, no season_02/', async () => {
    // A season is there for compiling when its season_goals.json is (requireSeasonGoals): without
    // it `episode run` refuses every episode of that season, so no Director would read the note.
    for (const argv of [['note', 'Cato should lose his temper', '--episode', 's02e01'], ['note', 'Cato should lose his temper', '--episode', 's02e03', '--json']]) {
      const before = listing(w);
      const r = await cli(argv, w);
      // Was exit 0: seasons/season_02/notes.json created and committed.
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toContain('error AUR7050 season 2 has no season goals (seasons/season_02/season_goals.json is missing); seasons with goals: 1');
      if (argv.includes('--json')) expect(JSON.parse(r.stdout)).toMatchObject({ error: { exit_code: 2, codes: ['AUR7050'] } });
      expect(listing(w)).toEqual(before);
      expect(fs.existsSync(path.join(w, '.aureus'))).toBe(false);
      expect(fs.existsSync(path.join(w, 'seasons/season_02'))).toBe(false);
    }
  });
});
