import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { builtCli, cleanup, cli, copyRepo, git, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * Ctrl-C during `episode commit`, taken as `episode run` takes it at its commit (README exit 130):
 * before the commit transaction the command stops with nothing changed (exit 130, AUR6008, the
 * episode still staged, the lock released); during it the commit is finished first and said after
 * it (exit 0). Before the fix `episode commit` installed no handler: the signal killed it, exit 130
 * with nothing said, world files half written, `.aureus/lock.json` left behind. The real built CLI
 * as a child process, offline, real git; the CLI sends itself a real SIGINT at a named point
 * (AUREUS_TEST_SIGINT_AT, pipeline/checkpoint.ts).
 */
let staged = '';
beforeAll(async () => {
  staged = await makeWorld('commit-intr-review');
  const r = await cli(['episode', 'run', '--seed', '7', '--review'], staged);
  if (r.code !== 0) throw new Error(r.stderr);
}, 120_000);
afterAll(cleanup);

const FINISHED = /aureus: the interrupt came during the commit; the commit was finished first: s01e01 is committed \([0-9a-f]{12}\) and tagged s01e01\. Nothing is left to resume\./;

describe.runIf(builtCli())('Ctrl-C during `episode commit`', () => {
  it('before the transaction (the run lock just taken): nothing changed, said, exit 130; the commit again commits', async () => {
    const w = copyRepo(staged, 'commit-intr-before');
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await spawnCli(['episode', 'commit'], w, { AUREUS_TEST_SIGINT_AT: 'run-locked' });
    expect(r.signal, r.stderr).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('aureus: interrupted; stopping at the next safe point (Ctrl-C again to quit now). Nothing is committed: the episode stays staged for review.');
    expect(r.stderr).toContain('error AUR6008 interrupted during');
    expect(r.stderr).toContain('nothing was committed and s01e01 stays staged for review; run `aureus episode commit` again to commit it');
    expect(r.stderr).not.toContain('--resume');
    // Nothing changed: HEAD, no tag, a clean tree, the review still recorded, no lock left.
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'tag', '--list')).toBe('');
    expect(git(w, 'status', '--porcelain')).toBe('');
    expect(fs.existsSync(path.join(w, '.aureus/review.json'))).toBe(true);
    expect(fs.existsSync(path.join(w, '.aureus/lock.json'))).toBe(false);
    const again = await cli(['episode', 'commit'], w);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('✓ committed S01E01');
  }, 180_000);

  for (const at of ['commit-staged', 'commit-applied']) {
    it(`during the transaction (${at}): the commit is finished, said after it; exit 0, tagged, no lock`, async () => {
      const w = copyRepo(staged, `commit-intr-${at}`);
      const r = await spawnCli(['episode', 'commit'], w, { AUREUS_TEST_SIGINT_AT: at });
      expect(r.signal, r.stderr).toBeNull();
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('aureus: interrupted; stopping at the next safe point (Ctrl-C again to quit now). The commit under way is atomic: it is finished first.');
      expect(r.stderr).toMatch(FINISHED);
      expect(r.stdout).toContain('✓ committed S01E01');
      expect(git(w, 'tag', '--list')).toBe('s01e01');
      expect(git(w, 'status', '--porcelain')).toBe('');
      expect(fs.existsSync(path.join(w, '.aureus/review.json'))).toBe(false);
      expect(fs.existsSync(path.join(w, '.aureus/lock.json'))).toBe(false);
    }, 180_000);
  }
});
