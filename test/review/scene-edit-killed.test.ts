import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, copyRepo, git, spawnCli } from '../pipeline/world.js';
import { authorEdit, stagedEpisode } from './staged-episode.js';

/**
 * `scene edit` (and `scene rewrite`) killed between its writes: the scene's text and the record that
 * an author wrote it must be seen together or not at all. The text was in the run's scenes
 * checkpoint and the author only in review.json, written after: a kill in between committed the
 * author's text without `Aureus-Edited` (and a rewrite killed so committed a model's text with it).
 * At each kill point the later `episode review` and `episode commit` agree with the committed text.
 */
const SCRIPT = 'seasons/season_01/episode_01/episode_script.md';
const LINE = 'A pause, long enough to be an insult, and the showrunner says so.';
let staged = '';
let edit = '';

beforeAll(async () => {
  const s = await stagedEpisode('edit-killed', ['--seed', '7']);
  staged = s.root;
  edit = authorEdit(s, 'SC02', 'SC03', LINE);
}, 240_000);
afterAll(cleanup);

/** What the review shows, what the commit commits and what its trailers say about SC02. */
async function reviewThenCommit(w: string): Promise<{ author: string; committedText: boolean; edited: boolean }> {
  const review = await spawnCli(['episode', 'review', '--json'], w);
  expect(review.code, review.stderr).toBe(0);
  const author = (JSON.parse(review.stdout) as { scenes: { id: string; author: string }[] }).scenes.find((s) => s.id === 'SC02')!.author;
  const commit = await spawnCli(['episode', 'commit'], w);
  expect(commit.code, commit.stderr).toBe(0);
  return {
    author,
    committedText: git(w, 'show', `HEAD:${SCRIPT}`).includes(LINE),
    edited: /^Aureus-Edited: .*SC02/m.test(git(w, 'log', '-1', '--format=%B')),
  };
}

describe.skipIf(!builtCli())('scene edit killed between its writes', () => {
  // Before the checkpoint (the draft alone): nothing of the edit is seen. From the checkpoint on: all of it.
  const points: [string, boolean][] = [['scene-version-draft', false], ['scenes', true], ['scene-version-report', true], ['scene-version-review', true]];
  for (const [at, seen] of points) {
    it(`killed at ${at}: the text and Aureus-Edited are committed ${seen ? 'together' : 'neither'}`, async () => {
      const w = copyRepo(staged, `edit-killed-${at}`);
      const killed = await spawnCli(['scene', 'edit', 'SC02', '--from', edit], w, { AUREUS_TEST_KILL_AT: at });
      expect(killed.signal, killed.stderr.slice(-400)).toBe('SIGKILL');
      expect(await reviewThenCommit(w)).toEqual({ author: seen ? 'human' : 'model', committedText: seen, edited: seen });
    }, 120_000);
  }

  it("a rewrite killed after its checkpoint: the model's text is committed without Aureus-Edited", async () => {
    const w = copyRepo(staged, 'edit-killed-rewrite');
    const edited = await spawnCli(['scene', 'edit', 'SC02', '--from', edit], w);
    expect(edited.code, edited.stderr).toBe(0);
    const killed = await spawnCli(['scene', 'rewrite', 'SC02', '--note', 'Colder.'], w, { AUREUS_TEST_KILL_AT: 'scenes' });
    expect(killed.signal, killed.stderr.slice(-400)).toBe('SIGKILL');
    const got = await reviewThenCommit(w);
    // The offline Writer's rewrite passes on its first draft: the author's text is replaced.
    expect(got).toEqual({ author: 'model', committedText: false, edited: false });
    expect(git(w, 'log', '-1', '--format=%B')).toContain('Aureus-Rewritten: SC02');
  }, 120_000);
});
