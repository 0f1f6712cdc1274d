import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, copyRepo, git, makeWorld, spawnCli } from './world.js';

/**
 * Ctrl-C once the commit is under way: the commit transaction is atomic and is finished first, so
 * the episode is committed and tagged and the run exits 0. Before the fix the run said "The run
 * stays resumable." and then committed without a word, exit 0: a user believed a resumable run
 * was waiting. Now the notice says the commit is finished first and, after the summary, that the
 * episode is committed and tagged and nothing is left to resume. The real built CLI as a child
 * process, offline, real git; the CLI sends itself a real SIGINT at a named point
 * (AUREUS_TEST_SIGINT_AT, pipeline/checkpoint.ts).
 */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('commit-intr');
}, 120_000);
afterAll(cleanup);

const FINISHED = /aureus: the interrupt came during the commit; the commit was finished first: s01e01 is committed \([0-9a-f]{12}\) and tagged s01e01\. Nothing is left to resume\./;

describe.runIf(builtCli())('Ctrl-C during the commit step', () => {
  for (const at of ['stage-h', 'commit-applied']) {
    it(`SIGINT at ${at}: the commit is finished, said after it; exit 0, tagged, nothing to resume`, async () => {
      const w = copyRepo(pristine, `commit-intr-${at}`);
      const r = await spawnCli(['episode', 'run', '--seed', '7'], w, { AUREUS_TEST_SIGINT_AT: at });
      expect(r.code, r.stderr).toBe(0);
      expect(git(w, 'tag', '--list', 's01e01')).toBe('s01e01');
      expect(r.stderr).toContain('aureus: interrupted; stopping at the next safe point (Ctrl-C again to quit now). The commit under way is atomic: it is finished first.');
      expect(r.stderr).not.toContain('The run stays resumable');
      expect(r.stderr).toMatch(FINISHED);
      // Said after the commit, not before it.
      expect(r.stderr.search(FINISHED)).toBeGreaterThan(r.stderr.indexOf('commit and tag … done'));
      expect(r.stdout).toContain('✓ committed S01E01');
      // Nothing is left to resume: a re-run compiles the next episode.
      const again = await spawnCli(['episode', 'run', '--seed', '7', '--json'], w);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout).episode).toBe('s01e02');
    }, 180_000);
  }

  it('SIGINT at stage-h with --json: the summary document on stdout, the notice on stderr, exit 0', async () => {
    const w = copyRepo(pristine, 'commit-intr-json');
    const r = await spawnCli(['episode', 'run', '--seed', '7', '--json'], w, { AUREUS_TEST_SIGINT_AT: 'stage-h' });
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.status).toBe('committed');
    expect(s.tag).toBe('s01e01');
    expect(r.stderr).toMatch(FINISHED);
  }, 180_000);
});
