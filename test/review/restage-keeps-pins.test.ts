import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, cli, copyRepo, git, spawnCli } from '../pipeline/world.js';
import { authorEdit, stagedEpisode, type Staged } from './staged-episode.js';

/**
 * `.aureus/review.json` lost (deleted, or moved aside as AUR6199's hint says), the episode staged
 * again from its run folder (`episode run --review` with its seed): the scenes checkpoint gave back
 * the scenes and the author's edits, but the pins and the rewrite counts were only in the record, so
 * a pinned scene could be rewritten and the commit lost its Aureus-Pinned and Aureus-Rewritten
 * trailers. The run folder keeps a copy of the record (checkpoints/review.json) that gives them back.
 */
const REVIEW = '.aureus/review.json';
const KEPT = 'checkpoints/review.json';
const LINE = 'The showrunner wants the silence to sting.';
let s: Staged;

type ReviewJson = { scenes: { id: string; author: string; pinned: boolean; rewrites: number }[] };
const scene = (stdout: string, id: string) => (JSON.parse(stdout) as ReviewJson).scenes.find((x) => x.id === id)!;

beforeAll(async () => {
  s = await stagedEpisode('restage-pins', ['--seed', '7']);
  for (const args of [['scene', 'pin', 'SC03'], ['scene', 'rewrite', 'SC04', '--note', 'Colder. End on the closed door.'], ['scene', 'edit', 'SC02', '--from', authorEdit(s, 'SC02', 'SC03', LINE)]]) {
    const r = await cli(args, s.root);
    if (r.code !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  }
}, 240_000);
afterAll(cleanup);

/** A copy of the staged world whose review record is gone, staged again with its seed. */
async function restaged(label: string, damage?: (run: string) => void): Promise<{ w: string; run: string; stderr: string }> {
  const w = copyRepo(s.root, label);
  const run = path.join(w, path.relative(s.root, s.run));
  fs.rmSync(path.join(w, REVIEW));
  damage?.(run);
  const r = await spawnCli(['episode', 'run', '--review', '--seed', '7'], w);
  expect(r.code, r.stderr).toBe(0);
  return { w, run, stderr: r.stderr };
}

describe.skipIf(!builtCli())('staging again after the review record is lost', () => {
  it('keeps the pin, the rewrite count and the edit: the pinned scene is refused, the commit carries every trailer', async () => {
    const { w, run } = await restaged('restage-pins-kept');
    const review = await spawnCli(['episode', 'review', '--json'], w);
    expect(review.code, review.stderr).toBe(0);
    expect(scene(review.stdout, 'SC03')).toMatchObject({ pinned: true, rewrites: 0 });
    expect(scene(review.stdout, 'SC04')).toMatchObject({ pinned: false, rewrites: 1, author: 'model' });
    expect(scene(review.stdout, 'SC02')).toMatchObject({ author: 'human' });
    const rewrite = await spawnCli(['scene', 'rewrite', 'SC03'], w);
    expect(rewrite.code).toBe(2);
    expect(rewrite.stderr).toContain('AUR6104 scene SC03 is pinned');
    const commit = await spawnCli(['episode', 'commit'], w);
    expect(commit.code, commit.stderr).toBe(0);
    const message = git(w, 'log', '-1', '--format=%B');
    expect(message).toContain('Aureus-Edited: SC02 (author: human)');
    expect(message).toContain('Aureus-Rewritten: SC04');
    expect(message).toContain('Aureus-Pinned: SC03');
    // The review is over: its copy goes with the record, so a later staging of this folder starts anew.
    expect(fs.existsSync(path.join(run, KEPT))).toBe(false);
  }, 240_000);

  it('a second rewrite after it is counted as the second', async () => {
    const { w } = await restaged('restage-pins-count');
    const rewrite = await spawnCli(['scene', 'rewrite', 'SC04', '--note', 'Shorter.'], w);
    expect(rewrite.code, rewrite.stderr).toBe(0);
    const review = await spawnCli(['episode', 'review', '--json'], w);
    expect(scene(review.stdout, 'SC04').rewrites).toBe(2);
  }, 240_000);

  it('a damaged copy is said (AUR6113, warning) and the episode is staged again without its pins, the edit kept', async () => {
    const { w, stderr } = await restaged('restage-pins-damaged', (run) => fs.writeFileSync(path.join(run, KEPT), '{"format": 1, "scenes": {'));
    expect(stderr).toMatch(/warning AUR6113 ignored the damaged copy of the review record \.aureus\/runs\/[^ ]+\/checkpoints\/review\.json \(\d+:\d+: /);
    expect(stderr).toContain('pin again with `aureus scene pin <SCxx>`');
    expect(stderr).not.toContain('internal error');
    const review = await spawnCli(['episode', 'review', '--json'], w);
    expect(scene(review.stdout, 'SC03').pinned).toBe(false);
    expect(scene(review.stdout, 'SC02').author).toBe('human');
  }, 240_000);
});
