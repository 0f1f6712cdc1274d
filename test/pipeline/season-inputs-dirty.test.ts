import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, copyRepo, git, makeWorld, spawnCli } from './world.js';

/**
 * What planning reads from the season besides the world (its goals, its notes, the episodes before
 * it) was not among the inputs a run refuses uncommitted: an edit there changed the next episode,
 * which was committed without it, and left it uncommitted (audit finding 4). Now such an edit
 * refuses `episode run`, `season run` and `episode commit` (exit 8, AUR6001 naming the file, with
 * how to get out), and `--allow-dirty` commits it with the episode (AUR6061), as world edits are.
 * The built CLI as a child process, real git.
 */
const GOALS = 'seasons/season_01/season_goals.json';
const NOTES = 'seasons/season_01/notes.json';
const CLIFF = 'seasons/season_01/episode_01/cliffhanger_constraints.json';
const ENV = { AUREUS_WORKERS: '0' };
const run = (args: string[], w: string) => spawnCli(args, w, ENV);
const runs = (w: string) => (fs.existsSync(path.join(w, '.aureus/runs')) ? fs.readdirSync(path.join(w, '.aureus/runs')) : []);
const editGoals = (w: string) => {
  const file = path.join(w, GOALS);
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"episodes_planned": 10', '"episodes_planned": 1'));
  expect(git(w, 'status', '--porcelain')).toBe(`M ${GOALS}`);
};

let pristine = '';
let oneEpisode = '';
let noteText = '';
beforeAll(async () => {
  pristine = await makeWorld('season-inputs');
  oneEpisode = copyRepo(pristine, 'season-inputs-e01');
  const r = await run(['episode', 'run', '--seed', '11'], oneEpisode);
  expect(r.code, r.stderr).toBe(0);
  // notes.json as `aureus note` writes it: what a note killed between its write and its commit leaves.
  const n = copyRepo(pristine, 'season-inputs-note');
  const note = await run(['note', 'Caesar sulks', '--character', 'caesar'], n);
  expect(note.code, note.stderr).toBe(0);
  noteText = fs.readFileSync(path.join(n, NOTES), 'utf8');
}, 180_000);
afterAll(cleanup);

describe.runIf(builtCli())('uncommitted planning inputs from the season', () => {
  it('an edited season_goals.json refuses episode run (exit 8, AUR6001 naming it, nothing written); --allow-dirty commits it with the episode, the tree of committing it first', async () => {
    const w = copyRepo(pristine, 'goals-dirty');
    editGoals(w);
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await run(['episode', 'run', '--seed', '11'], w);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain(`error AUR6001 uncommitted changes to the season goals: ${GOALS}`);
    expect(r.stderr).toContain(`hint: commit or discard them first: to keep them, \`git add -- ${GOALS} && git commit\`; to discard them, \`git checkout HEAD -- ${GOALS}\``);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'status', '--porcelain')).toBe(`M ${GOALS}`);
    expect(runs(w)).toEqual([]);

    const ok = await run(['episode', 'run', '--seed', '11', '--allow-dirty', '--json'], w);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).warnings.map((d: { code: string; message: string }) => `${d.code} ${d.message}`)).toContain(`AUR6061 --allow-dirty: the uncommitted edits to ${GOALS} go into the episode's commit`);
    expect(git(w, 'status', '--porcelain')).toBe('');
    expect(git(w, 'show', '--pretty=format:', '--name-only', 'HEAD').split('\n')).toContain(GOALS);
    // Reproducible from its commit: the same tree as the edit committed by hand, then the same run.
    const c = copyRepo(pristine, 'goals-committed');
    editGoals(c);
    git(c, 'commit', '-qam', 'goals');
    const same = await run(['episode', 'run', '--seed', '11'], c);
    expect(same.code, same.stderr).toBe(0);
    expect(git(w, 'rev-parse', 'HEAD^{tree}')).toBe(git(c, 'rev-parse', 'HEAD^{tree}'));
  }, 180_000);

  it('an edited season_goals.json refuses episode commit of a staged episode (exit 8), the stage kept', async () => {
    const w = copyRepo(pristine, 'goals-review');
    const staged = await run(['episode', 'run', '--review'], w);
    expect(staged.code, staged.stderr).toBe(0);
    editGoals(w);
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await run(['episode', 'commit'], w);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain(`error AUR6001 uncommitted changes to the season goals: ${GOALS}`);
    expect(r.stderr).not.toContain('--allow-dirty');
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'status', '--porcelain')).toBe(`M ${GOALS}`);
  }, 120_000);

  it("an edited earlier cliffhanger (the next episode's opening and default seed) refuses season run: exit 8, nothing committed", async () => {
    const w = copyRepo(oneEpisode, 'cliff-dirty');
    const file = path.join(w, CLIFF);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"must_start_immediately": true', '"must_start_immediately": false'));
    expect(git(w, 'status', '--porcelain')).toBe(`M ${CLIFF}`);
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await run(['season', 'run', '--count', '1', '--json'], w);
    expect(r.code, r.stderr).toBe(8);
    expect(JSON.parse(r.stdout).error.codes).toEqual(['AUR6001']);
    expect(r.stderr).toContain(`error AUR6001 uncommitted changes to the episodes' files: ${CLIFF}`);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
  }, 120_000);

  it('an untracked notes.json (a note killed before its commit) refuses episode run and note alike, with how to get out', async () => {
    const w = copyRepo(pristine, 'notes-orphan');
    fs.writeFileSync(path.join(w, NOTES), noteText);
    expect(git(w, 'status', '--porcelain', '--untracked-files=all')).toBe(`?? ${NOTES}`);
    const head = git(w, 'rev-parse', 'HEAD');
    for (const args of [['episode', 'run'], ['note', 'Caesar sulks', '--character', 'caesar']]) {
      const r = await run(args, w);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(8);
      expect(r.stderr).toContain(`error AUR6001 uncommitted changes to the season notes: ${NOTES}`);
      expect(r.stderr).toContain(`to keep them, \`git add -- ${NOTES} && git commit\`; to discard them, \`git clean -fd -- ${NOTES}\` (or move a new file away)`);
    }
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(fs.readFileSync(path.join(w, NOTES), 'utf8')).toBe(noteText);
    // Committed by hand, as the hint says: the run plans with the note and commits.
    git(w, 'add', NOTES);
    git(w, 'commit', '-qm', 'the note');
    const ok = await run(['episode', 'run'], w);
    expect(ok.code, ok.stderr).toBe(0);
    expect(git(w, 'status', '--porcelain')).toBe('');
  }, 120_000);
});
