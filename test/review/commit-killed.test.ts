import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { builtCli, cleanup, cli, copyRepo, git, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * `episode commit` killed inside its commit transaction, then run again: the re-run rolls the
 * commit forward from its journal and that is its answer (exit 0, recovered), not AUR6009 "already
 * committed" with a hint to roll back the episode it just committed. `status` in between names the
 * command the user was running.
 */
let staged = '';
beforeAll(async () => {
  staged = await makeWorld('commit-killed');
  const r = await cli(['episode', 'run', '--seed', '7', '--review'], staged);
  if (r.code !== 0) throw new Error(r.stderr);
}, 120_000);
afterAll(cleanup);

describe.skipIf(!builtCli())('episode commit re-run after a kill mid-commit', () => {
  for (const at of ['commit-staged', 'commit-applied', 'commit-committed']) {
    it(`finishes the commit killed at ${at} and exits 0`, async () => {
      const w = copyRepo(staged, `commit-killed-${at}`);
      const killed = await spawnCli(['episode', 'commit'], w, { AUREUS_TEST_KILL_AT: at });
      expect(killed.signal, killed.stderr.slice(-400)).toBe('SIGKILL');
      const status = await cli(['status'], w);
      expect(status.stdout).toContain('the commit of s01e01 was interrupted');
      expect(status.stdout).toContain('`aureus episode commit`');
      const r = await cli(['episode', 'commit'], w);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('AUR6004 finished the interrupted commit of s01e01');
      expect(r.stderr).not.toContain('AUR6009');
      expect(r.stderr).not.toContain('rollback');
      expect(r.stdout).toContain('✓ recovered S01E01');
      expect(git(w, 'tag', '--list').trim()).toBe('s01e01');
      // Nothing is left staged: the review is over, a third run says the episode is committed (its
      // tag, no rollback hint, exit 0) rather than committing again.
      expect(fs.existsSync(path.join(w, '.aureus/review.json'))).toBe(false);
      const again = await cli(['episode', 'commit'], w);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain('AUR6117 s01e01 is already committed');
      expect(again.stderr).toContain('tag s01e01');
      expect(again.stderr).not.toContain('rollback');
    }, 120_000);
  }

  it('refuses `episode discard` while the killed commit waits, keeping its journal, and the commit then finishes', async () => {
    const w = copyRepo(staged, 'commit-killed-discard');
    const killed = await spawnCli(['episode', 'commit'], w, { AUREUS_TEST_KILL_AT: 'commit-applied' });
    expect(killed.signal, killed.stderr.slice(-400)).toBe('SIGKILL');
    const runDir = JSON.parse(fs.readFileSync(path.join(w, '.aureus/review.json'), 'utf8')).run_dir as string;
    const discard = await cli(['episode', 'discard'], w);
    expect(discard.code, discard.stderr).toBe(8);
    expect(discard.stderr).toContain('AUR6114');
    expect(discard.stderr).toContain('`aureus episode commit`');
    // Nothing was dropped: the run folder, its journal and the record are there, and the commit finishes.
    expect(fs.existsSync(path.join(w, runDir, 'commit.json'))).toBe(true);
    expect(fs.existsSync(path.join(w, '.aureus/review.json'))).toBe(true);
    const r = await cli(['episode', 'commit'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(git(w, 'status', '--porcelain', '--', 'world')).toBe('');
    expect(git(w, 'tag', '--list', 's01e01')).toBe('s01e01');
  }, 120_000);
});
