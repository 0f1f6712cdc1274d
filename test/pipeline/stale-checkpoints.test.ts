import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, copyRepo, git, makeWorld, spawnCli } from './world.js';

/**
 * A run folder is keyed by episode, seed and steering only. Resumed after the world changed (a hand
 * edit committed, a what-if branch, a checkout), its checkpoints were made on another world: before,
 * the resumed run committed the old world's plan and scenes onto the new one. Now the planning
 * checkpoint's state hash is compared with the world's: a stale one is set aside with AUR6065 and the
 * episode is planned again, so the commit is the one an uninterrupted run on the new world makes.
 */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('stale-pristine');
}, 120_000);
afterAll(cleanup);

/** A change planning reads: Catiline grows bold and rich (the proposals and the plan read the stats). */
function editWorld(w: string): void {
  const file = path.join(w, 'world/characters.json');
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { characters: { id: string; stats: Record<string, number> }[] };
  for (const c of doc.characters) if (c.id === 'catiline') Object.assign(c.stats, { courage: 99, wealth: 95, cunning: 99 });
  fs.writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');
  git(w, 'commit', '-qam', 'Catiline grows bold');
}

const planOf = (w: string) => fs.readFileSync(path.join(w, 'seasons/season_01/episode_01/episode_plan.json'), 'utf8');
const contextOf = (w: string) => JSON.parse(fs.readFileSync(path.join(w, 'seasons/season_01/episode_01/episode_context.json'), 'utf8')) as { state_hash: string };

describe.runIf(builtCli())('a run resumed after the world changed', () => {
  it('sets the stale checkpoints aside (AUR6065) and commits what an uninterrupted run on the new world commits', async () => {
    // Uninterrupted, on the changed world.
    const fresh = copyRepo(pristine, 'stale-fresh');
    editWorld(fresh);
    const f = await spawnCli(['episode', 'run', '--seed', 'kept'], fresh);
    expect(f.code, f.stderr).toBe(0);

    // Killed once planned on the old world, the world changed, then resumed with the same seed.
    const w = copyRepo(pristine, 'stale-resumed');
    const killed = await spawnCli(['episode', 'run', '--seed', 'kept'], w, { AUREUS_TEST_KILL_AT: 'stage-h' });
    expect(killed.signal).toBe('SIGKILL');
    editWorld(w);
    const r = await spawnCli(['episode', 'run', '--seed', 'kept'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning AUR6065 the world changed since s01e01 was planned in \.aureus\/runs\/s01e01-[^:]+: its plan and scenes there are set aside/);
    expect(contextOf(w).state_hash).toBe(contextOf(fresh).state_hash);
    expect(planOf(w)).toBe(planOf(fresh));
    for (const f of ['episode_script.md', 'recap.md', 'episode_deltas.json']) {
      expect(fs.readFileSync(path.join(w, 'seasons/season_01/episode_01', f), 'utf8'), f).toBe(fs.readFileSync(path.join(fresh, 'seasons/season_01/episode_01', f), 'utf8'));
    }
  }, 240_000);

  it('sets them aside too when a planning input beside the world files changed (the season goals; a note for it), naming it', async () => {
    // The world's state hash covers the world files only: the season's goals and its notes steer the
    // Director as much, and a resumed run committed the plan of the old goals (thread pacing, deltas).
    const goals = (w: string) => {
      const file = path.join(w, 'seasons/season_01/season_goals.json');
      const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { goals: { threads: string[] }[]; finale_threads: string[] };
      doc.goals = doc.goals.filter((g) => !g.threads.includes('thr_conspiracy'));
      doc.finale_threads = doc.finale_threads.filter((t) => t !== 'thr_conspiracy');
      fs.writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');
      git(w, 'commit', '-qam', 'the conspiracy is no longer a season goal');
    };
    const fresh = copyRepo(pristine, 'stale-goals-fresh');
    goals(fresh);
    expect((await spawnCli(['episode', 'run', '--seed', 'kept'], fresh)).code).toBe(0);

    const w = copyRepo(pristine, 'stale-goals');
    expect((await spawnCli(['episode', 'run', '--seed', 'kept'], w, { AUREUS_TEST_KILL_AT: 'stage-h' })).signal).toBe('SIGKILL');
    goals(w);
    const r = await spawnCli(['episode', 'run', '--seed', 'kept'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning AUR6065 the world changed since s01e01 was planned in \.aureus\/runs\/s01e01-\S+ \(the season goals\): its plan and scenes there are set aside/);
    for (const f of ['episode_plan.json', 'episode_deltas.json', 'episode_script.md']) {
      expect(fs.readFileSync(path.join(w, 'seasons/season_01/episode_01', f), 'utf8'), f).toBe(fs.readFileSync(path.join(fresh, 'seasons/season_01/episode_01', f), 'utf8'));
    }

    const n = copyRepo(pristine, 'stale-note');
    expect((await spawnCli(['episode', 'run', '--seed', 'kept'], n, { AUREUS_TEST_KILL_AT: 'stage-h' })).signal).toBe('SIGKILL');
    expect((await spawnCli(['note', 'Catiline must be seen buying votes', '--character', 'catiline'], n)).code).toBe(0);
    const noted = await spawnCli(['episode', 'run', '--seed', 'kept'], n);
    expect(noted.code, noted.stderr).toBe(0);
    expect(noted.stderr).toMatch(/AUR6065 .* \(the notes for it\): /);
  }, 240_000);

  it('an episode staged for review keeps its plan and the author\'s edit when the world changed (AUR6108, not AUR6065)', async () => {
    // Setting the checkpoints aside here planned a new episode and committed it under the review's
    // trailers (Aureus-Edited: SC01) without the author's SC01. The author's text keeps the scene's
    // required payment (AUR5037 refuses an edit that deletes it).
    const w = copyRepo(pristine, 'stale-staged');
    expect((await spawnCli(['episode', 'run', '--review', '--seed', 'kept'], w)).code).toBe(0);
    const mine = path.join(path.dirname(w), 'sc01.txt');
    fs.writeFileSync(mine, 'Cicero walks alone across the Field of Mars at dawn, counting the pens where the centuries will vote tomorrow, and the bearers of a litter curse him as they pass.\n\nAt the public stores he pays twenty thousand denarii into the grain fund, and the clerks open the doors. Bread will be cheap today, and the crowd chants his name.\n\nA boy runs up with a wax tablet. Cicero reads it and his face goes white.\n\n"Catiline," he says.\n');
    const edited = await spawnCli(['scene', 'edit', 'SC01', '--from', mine], w);
    expect(edited.code, edited.stderr).toBe(0);
    const staged = JSON.parse(fs.readFileSync(path.join(w, '.aureus/review.json'), 'utf8')) as { run_dir: string };
    const plan = fs.readFileSync(path.join(w, staged.run_dir, 'stage/seasons/season_01/episode_01/episode_plan.json'), 'utf8');
    editWorld(w);
    const c = await spawnCli(['episode', 'commit'], w);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stderr).toContain('AUR6108');
    expect(c.stderr).not.toContain('AUR6065');
    expect(fs.readFileSync(path.join(w, 'seasons/season_01/episode_01/episode_script.md'), 'utf8')).toContain('counting the pens where the centuries will vote');
    expect(planOf(w)).toBe(plan);
  }, 240_000);

  it('an unchanged world resumes its checkpoints, with no warning', async () => {
    const w = copyRepo(pristine, 'stale-unchanged');
    const killed = await spawnCli(['episode', 'run', '--seed', 'kept'], w, { AUREUS_TEST_KILL_AT: 'stage-h' });
    expect(killed.signal).toBe('SIGKILL');
    const r = await spawnCli(['episode', 'run', '--seed', 'kept', '--json'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('AUR6065');
    const summary = JSON.parse(r.stdout) as { resumed?: { planning?: boolean } };
    expect(JSON.stringify(summary)).toMatch(/"planning":true/);
  }, 240_000);
});
