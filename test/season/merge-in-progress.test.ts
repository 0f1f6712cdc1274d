import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * A merge of the author's left unfinished (a conflict): `episode run` refused it before any work
 * (AUR6059, git/state.ts), but `note` and `rollback` went on into git's own refusal, AUR6010 "git
 * commit failed: fatal: cannot do a partial commit during a merge" and "git read-tree failed: fatal:
 * You need to resolve your current index first"; `branch` carried the merge to the new branch, or
 * failed its --set commit the same way. Now each says AUR6059 with how to finish or abort the merge,
 * before anything is written, the index and MERGE_HEAD as they were.
 */
let season = '';
beforeAll(async () => {
  season = await makeWorld('merge-open');
  const r = await cli(['season', 'run', '--count', '1'], season);
  expect(r.code, r.stderr).toBe(0);
}, 300_000);
afterAll(cleanup);

function mergeInConflict(label: string): string {
  const w = copyRepo(season, label);
  fs.writeFileSync(path.join(w, 'side.txt'), 'a\n');
  git(w, 'add', 'side.txt');
  git(w, 'commit', '-qm', 's1');
  git(w, 'checkout', '-q', '-b', 'o', 'HEAD~1');
  fs.writeFileSync(path.join(w, 'side.txt'), 'b\n');
  git(w, 'add', 'side.txt');
  git(w, 'commit', '-qm', 's2');
  git(w, 'checkout', '-q', 'main');
  expect(() => git(w, 'merge', '-q', 'o')).toThrow();
  return w;
}

describe('note, rollback and branch during an unfinished merge', () => {
  it('each refuses with AUR6059 (exit 10) before any work, never git\'s raw error; the merge as it was', async () => {
    const w = mergeInConflict('merge-open-cmds');
    const before = { head: git(w, 'rev-parse', 'HEAD'), index: git(w, 'ls-files', '-s'), branches: git(w, 'branch', '--list'), tags: git(w, 'tag') };
    const cases: Array<[string[], string]> = [
      [['note', 'hello'], 'a note cannot be committed now'],
      [['rollback', 's01e01'], 'a rollback cannot be made now'],
      [['branch', 'x', '--from', 's01e01'], 'a branch cannot be started now'],
      [['branch', 'x', '--set', 'world.global.unrest=9'], 'a branch cannot be started now'],
    ];
    for (const [args, blocked] of cases) {
      const r = await spawnCli(args, w);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(10);
      expect(r.stderr).toContain(`error AUR6059 a merge is in progress in this repository (.git/MERGE_HEAD): ${blocked}`);
      expect(r.stderr).toContain('git merge --abort');
      expect(r.stderr).not.toContain('AUR6010');
      expect({ head: git(w, 'rev-parse', 'HEAD'), index: git(w, 'ls-files', '-s'), branches: git(w, 'branch', '--list'), tags: git(w, 'tag') }).toEqual(before);
      expect(fs.existsSync(path.join(w, '.git/MERGE_HEAD'))).toBe(true);
    }
  }, 300_000);
});
