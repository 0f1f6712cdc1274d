import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, cli, copyRepo, editJson, git, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * `aureus status` shows the committed world. After a kill at `commit-applied` (the episode's world
 * files written, not committed) it said "none committed yet" but showed thread progress read from
 * those uncommitted files (19% against the 10% of a kill at `commit-staged`). And the threads' line
 * read "(3/2 episodes since progress)" for a resolved thread, a fraction no count can be.
 * The built CLI as a child process, real git, killed at a named point (AUREUS_TEST_KILL_AT).
 */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('status-committed');
}, 120_000);
afterAll(cleanup);

describe.skipIf(!builtCli())('status after an interrupted commit', () => {
  for (const at of ['commit-applied', 'commit-committed']) {
    it(`killed at ${at}: the world as last committed, the pending commit named`, async () => {
      const w = copyRepo(pristine, `status-${at}`);
      const before = await cli(['status', '--json'], w);
      expect(before.code, before.stderr).toBe(0);
      const killed = await spawnCli(['episode', 'run'], w, { AUREUS_TEST_KILL_AT: at });
      expect(killed.signal).toBe('SIGKILL');
      // The interrupted commit did write the world files (or commit them, untagged).
      expect(git(w, 'tag', '--list', 's01e*')).toBe('');
      const after = await cli(['status', '--json'], w);
      expect(after.code, after.stderr).toBe(0);
      const [b, a] = [JSON.parse(before.stdout), JSON.parse(after.stdout)];
      expect(a.pending_commit).toBe('s01e01');
      expect(a.committed).toEqual([]);
      expect({ threads: a.threads, metrics: a.metrics, principals: a.principals, date: a.date }).toEqual({ threads: b.threads, metrics: b.metrics, principals: b.principals, date: b.date });
      const text = await cli(['status'], w);
      expect(text.stdout).toContain('finishes it first; the world below is as last committed');
    }, 180_000);
  }
});

describe.skipIf(!builtCli())('status threads line', () => {
  it('a resolved thread says when it last moved; an open one its count and cadence, never "n/m episodes"', async () => {
    const w = copyRepo(pristine, 'status-resolved');
    editJson(w, 'world/threads.json', (t) => {
      t.threads[0].status = 'resolved';
      t.threads[0].last_progress_episode = 0;
    });
    git(w, 'commit', '-qam', 'resolve a thread');
    const r = await cli(['status'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/\(\d+\/\d+ episodes since progress\)/);
    const lines = r.stdout.split('\n').filter((l) => /%  /.test(l));
    expect(lines[0]).toMatch(/^\s+resolved\s+\d+%  .* \(no progress yet\)$/);
    expect(lines[1]).toMatch(/\(0 episodes since progress, due every \d+\)$/);
  }, 120_000);
});
