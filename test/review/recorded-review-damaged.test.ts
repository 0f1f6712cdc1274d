import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git } from '../pipeline/world.js';
import { STACK_TRACE } from '../cli/helpers.js';
import { stagedEpisode, type Staged } from './staged-episode.js';

/**
 * The review record with the authors the staged scenes checkpoint records (review-state.ts
 * recordedReview) read that checkpoint with no warning sink: damaged, it was taken as the record
 * alone without a word. `episode run` with another seed, refused because s01e01 is staged
 * (AUR6102), is the command that reaches it with the checkpoint damaged (`episode review` and
 * `episode commit` refuse it before, test/review/staged-checkpoint-damaged.test.ts). Now it is read
 * through the staged episode's sink and refused as the other review reads refuse it: AUR6115
 * naming the file, exit 3, nothing changed.
 */
let staged: Staged;
beforeAll(async () => {
  staged = await stagedEpisode('recorded-review-damaged');
}, 240_000);
afterAll(cleanup);

const listing = (dir: string): string[] => fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();

describe('recordedReview with a damaged scenes checkpoint', () => {
  it('episode run with another seed names it (AUR6115, exit 3) and changes nothing', async () => {
    const root = copyRepo(staged.root, 'recorded-review-scenes');
    const run = path.join(root, path.relative(staged.root, staged.run));
    const file = path.join(run, 'checkpoints', 'scenes.json');
    fs.writeFileSync(file, fs.readFileSync(file).subarray(0, 100)); // cut short, as a write that never reached the disk whole
    const rel = path.relative(root, file).split(path.sep).join('/');
    const before = { review: fs.readFileSync(path.join(root, '.aureus/review.json'), 'utf8'), scenes: fs.readFileSync(file), head: git(root, 'rev-parse', 'HEAD'), aureus: listing(path.join(root, '.aureus')), status: git(root, 'status', '--porcelain') };
    const r = await cli(['episode', 'run', '--seed', 'other'], root);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`error AUR6115 the episode s01e01 staged for review cannot be read: its checkpoint ${rel.replace(/[.]/g, '\\.')} is damaged \\(\\d+:\\d+: invalid JSON: [^)]+\\); nothing was changed`));
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(fs.readFileSync(path.join(root, '.aureus/review.json'), 'utf8')).toBe(before.review);
    expect(fs.readFileSync(file).equals(before.scenes)).toBe(true);
    expect(git(root, 'rev-parse', 'HEAD')).toBe(before.head);
    expect(git(root, 'status', '--porcelain')).toBe(before.status);
    expect(listing(path.join(root, '.aureus'))).toEqual(before.aureus); // no run folder for seed "other", the lock released
  }, 120_000);

  it('whole: still AUR6102, exit 2, no AUR6115', async () => {
    const root = copyRepo(staged.root, 'recorded-review-whole');
    const r = await cli(['episode', 'run', '--seed', 'other'], root);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('error AUR6102 s01e01 is staged for review');
    expect(r.stderr).not.toContain('AUR6115');
  }, 120_000);
});

describe("AUR6115's hint stages the episode again with its own seed and steering", () => {
  it('the command it names is the run folder\'s, and it works: the episode is staged again', async () => {
    // A seed and a steering flag of the author's own: without them the hint's `episode run --review` planned another
    // run folder (the world's default seed) and was refused with AUR6115 again.
    const s = await stagedEpisode('recorded-review-hint', ['--seed', '41', '--focus', 'thr_murena_trial']);
    const file = path.join(s.run, 'checkpoints', 'scenes.json');
    fs.writeFileSync(file, 'garbage\n');
    const refused = await cli(['episode', 'review'], s.root);
    expect(refused.code, refused.stderr).toBe(3);
    const again = /`(aureus episode run --review[^`]*)`/.exec(refused.stderr)?.[1];
    expect(again).toBe('aureus episode run --review --seed 41 --focus thr_murena_trial');
    expect(refused.stderr).toContain('`aureus episode discard`');
    const rerun = await cli(again!.split(' ').slice(1), s.root);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain('warning AUR6098 ignored the damaged checkpoint');
    const review = await cli(['episode', 'review'], s.root);
    expect(review.code, review.stderr).toBe(0);
  }, 240_000);
});
