import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, cli, copyRepo, makeWorld, spawnCli } from '../pipeline/world.js';
import { authorEdit, stagedEpisode, type Staged } from '../review/staged-episode.js';

/**
 * `aureus status` with an episode staged for review (`episode run --review`): it said nothing of it
 * (the staged episode was only "next"). It names the episode, since when it is staged, what was done
 * to its scenes and the commands that go on, in text and under `staged_for_review` in --json; a
 * damaged review record refuses status as it refuses every reader (AUR6199, exit 3), never "nothing staged".
 */
const REVIEW = '.aureus/review.json';
type Review = { episode: string; run_dir: string; seed: string; staged_at: string | null; changed_at: string; scenes: number | null; edited: string[]; rewritten: string[]; pinned: string[]; commit_interrupted: boolean; commands: string[] };
let s: Staged;
let began = 0;
let scenes = 0;

beforeAll(async () => {
  began = Date.now();
  s = await stagedEpisode('status-review', ['--seed', '7']);
  for (const args of [['scene', 'pin', 'SC03'], ['scene', 'rewrite', 'SC04', '--note', 'Colder.'], ['scene', 'edit', 'SC02', '--from', authorEdit(s, 'SC02', 'SC03', 'A silence that says enough.')]]) {
    const r = await cli(args, s.root);
    if (r.code !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  }
  scenes = (JSON.parse((await cli(['episode', 'review', '--json'], s.root)).stdout) as { scenes: unknown[] }).scenes.length;
}, 240_000);
afterAll(cleanup);

const statusJson = async (w: string): Promise<{ staged_for_review: Review | null; next_episode: string }> => {
  const r = await spawnCli(['status', '--json'], w);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

describe.skipIf(!builtCli())('status with an episode staged for review', () => {
  it('names it, since when, what was done to its scenes and the commands that go on', async () => {
    const review = (await statusJson(s.root)).staged_for_review!;
    const runDir = path.relative(s.root, s.run).split(path.sep).join('/');
    expect(review).toMatchObject({ episode: 's01e01', run_dir: runDir, seed: '7', scenes, edited: ['SC02'], rewritten: ['SC04'], pinned: ['SC03'], commit_interrupted: false });
    expect(review.commands).toEqual(['aureus episode review', 'aureus episode commit', 'aureus episode discard']);
    const staged = Date.parse(review.staged_at!);
    expect(staged).toBeGreaterThanOrEqual(began - 1000);
    expect(staged).toBeLessThanOrEqual(Date.parse(review.changed_at));
    const text = await spawnCli(['status'], s.root);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`Review    S01E01 is staged for review, since ${review.staged_at!.slice(0, 16).replace('T', ' ')} UTC (`);
    expect(text.stdout).toContain(`${scenes} scenes: 1 edited (SC02), 1 rewritten (SC04), 1 pinned (SC03)`);
    expect(text.stdout).toContain(`run folder ${runDir}, seed 7`);
    expect(text.stdout).toContain('next: `aureus episode review` to read it, `aureus episode commit` to commit it as reviewed, `aureus episode discard` to drop it');
  }, 120_000);

  it('nothing staged: no review in a fresh world, nor once the staged episode is committed', async () => {
    const fresh = await makeWorld('status-review-fresh');
    expect((await statusJson(fresh)).staged_for_review).toBeNull();
    expect((await spawnCli(['status'], fresh)).stdout).not.toContain('staged for review');
    const w = copyRepo(s.root, 'status-review-committed');
    const commit = await spawnCli(['episode', 'commit'], w);
    expect(commit.code, commit.stderr).toBe(0);
    const st = await statusJson(w);
    expect(st.staged_for_review).toBeNull();
    expect(st.next_episode).toBe('s01e02');
  }, 120_000);

  it('a record of an older aureus (no staged_at): when it last changed instead', async () => {
    const w = copyRepo(s.root, 'status-review-older');
    const file = path.join(w, REVIEW);
    const { staged_at: _, ...older } = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify(older, null, 2));
    const review = (await statusJson(w)).staged_for_review!;
    expect(review.staged_at).toBeNull();
    expect((await spawnCli(['status'], w)).stdout).toMatch(/S01E01 is staged for review, last changed \d{4}-\d\d-\d\d \d\d:\d\d UTC \(/);
  }, 120_000);

  it('its commit killed: only `episode commit`, which finishes it, is offered', async () => {
    const w = copyRepo(s.root, 'status-review-killed');
    const killed = await spawnCli(['episode', 'commit'], w, { AUREUS_TEST_KILL_AT: 'commit-applied' });
    expect(killed.signal, killed.stderr.slice(-400)).toBe('SIGKILL');
    const review = (await statusJson(w)).staged_for_review!;
    expect(review).toMatchObject({ episode: 's01e01', commit_interrupted: true, commands: ['aureus episode commit'] });
    const text = await spawnCli(['status'], w);
    expect(text.stdout).toContain('next: `aureus episode commit` finishes its interrupted commit');
    expect(text.stdout).not.toContain('episode discard');
  }, 120_000);

  it('a damaged scenes checkpoint: named, with what refuses it and what still works, never a bare unknown count', async () => {
    const w = copyRepo(s.root, 'status-review-scenes');
    const file = path.join(w, path.relative(s.root, s.run), 'checkpoints', 'scenes.json');
    fs.writeFileSync(file, fs.readFileSync(file).subarray(0, 100)); // cut short, as a write that never reached the disk whole
    const rel = path.relative(w, file).split(path.sep).join('/');
    const review = (await statusJson(w)).staged_for_review as Review & { damaged_checkpoints: { file: string; detail: string }[] };
    expect(review.scenes).toBeNull();
    expect(review.damaged_checkpoints).toEqual([{ file: rel, detail: expect.stringMatching(/invalid JSON/) }]);
    const text = await spawnCli(['status'], w);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`its checkpoint ${rel} is damaged (`);
    expect(text.stdout).toContain('`aureus episode review` and `aureus episode commit` refuse it (AUR6115) until the file is restored; `aureus episode discard` drops the episode');
    // What the line says refuses it does, and what it says still works does.
    expect((await spawnCli(['episode', 'review'], w)).stderr).toContain('AUR6115');
    const discard = await spawnCli(['episode', 'discard'], w);
    expect(discard.code, discard.stderr).toBe(0);
    expect((await statusJson(w)).staged_for_review).toBeNull();
  }, 120_000);

  it('a damaged record: exit 3, AUR6199 with the hint that keeps the work, never "nothing staged" nor a stack trace', async () => {
    const w = copyRepo(s.root, 'status-review-damaged');
    const file = path.join(w, REVIEW);
    const good = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, good.slice(0, Math.floor(good.length / 2)));
    for (const args of [['status'], ['status', '--json']]) {
      const r = await spawnCli(args, w);
      const what = `${args.join(' ')}: ${r.stderr.slice(-600)}`;
      expect(r.code, what).toBe(3);
      expect(r.stderr, what).toContain(`AUR6199 ${REVIEW} cannot be read as the record of the episode under review: it is not valid JSON`);
      expect(r.stderr, what).toContain('`aureus episode run --review --seed 7`');
      expect(r.stderr, what).not.toMatch(/internal error|\n\s+at /);
      if (args.includes('--json')) expect((JSON.parse(r.stdout) as { error: { codes: string[] } }).error.codes).toContain('AUR6199');
      else expect(r.stdout).toBe('');
    }
    expect(fs.readFileSync(file, 'utf8')).toBe(good.slice(0, Math.floor(good.length / 2)));
  }, 120_000);
});
