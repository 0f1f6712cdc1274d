import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { history, input, worldFiles } from './killed-canon.js';
import { playScript, records, sessionLog } from './support.js';

/**
 * A session killed (SIGKILL: no handler runs) at each point of a canonization, then --resume: the
 * same canon as a session never interrupted — one commit and one tag per canonization, the same world
 * files, one `canonized` record each, exit 0. The points are the test-only AUREUS_TEST_KILL_AT hooks
 * (src/pipeline/checkpoint.ts): play-canonize (nothing written yet), the commit transaction's
 * commit-staged, commit-applied (world files written, not committed) and commit-committed (not
 * tagged), and play-committed (committed and tagged, the `canonized` record not yet written); for a
 * /commit. A critical canonization's, /end's and the turn limit's are in play-kill-scene-end.test.ts.
 */
const BEFORE = ['Catiline, where were you last night?', '/note Catiline lies about Faesulae', 'You must answer me! The Senate will hear of this!', '/commit'];
const AFTER = ['Crassus, will you stand with him or with Rome?', '/end'];
const ARGS = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline,crassus', '--mode', 'open', '--session', 'k1', '--json'];
const log = (w: string) => sessionLog(w, 'k1');

describe.skipIf(!builtCli())('aureus play killed during a canonization, then --resume', () => {
  const base = useWorld('play-kill-canonize');
  let whole: string | null = null;

  /** The session played without interruption, once: what every resumed one must equal. */
  async function uninterrupted(): Promise<string> {
    if (whole) return whole;
    const w = copyRepo(base(), 'play-kill-whole');
    const r = await playScript(ARGS, w, input([...BEFORE, ...AFTER]));
    expect(r.code, r.stderr).toBe(0);
    expect(git(w, 'tag', '--list', 'play/k1/*').split('\n')).toEqual(['play/k1/1', 'play/k1/2']);
    return (whole = w);
  }

  /** The session killed at `at` during its /commit, then resumed with the lines after it. */
  async function killedAt(at: string): Promise<{ w: string; resumed: Awaited<ReturnType<typeof playScript>> }> {
    const w = copyRepo(base(), `play-kill-${at}`);
    const r = await playScript(ARGS, w, input([...BEFORE, ...AFTER]), { AUREUS_TEST_KILL_AT: at });
    expect(r.code, `${at}: the process killed itself\n${r.stderr}`).toBe(null);
    expect(records(w, 'k1').some((x) => x.type === 'canonized'), at).toBe(false);
    const resumed = await playScript(['play', '--resume', 'k1', '--json'], w, input(AFTER));
    return { w, resumed };
  }

  for (const at of ['play-committed', 'commit-committed', 'commit-applied', 'commit-staged', 'play-canonize']) {
    it(`killed at ${at}: --resume exits 0 with the uninterrupted session's commits, tags, world files and log`, async () => {
      const ref = await uninterrupted();
      const { w, resumed } = await killedAt(at);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).not.toMatch(/AUR6009|AUR6205/);
      expect(resumed.stdout).toContain('"type":"episode_complete"');
      // One commit and one tag per canonization, the same trees and messages; the same world files.
      expect(history(w)).toBe(history(ref));
      expect(git(w, 'tag', '--list', 'play/k1/*').split('\n')).toEqual(['play/k1/1', 'play/k1/2']);
      expect(git(w, 'rev-list', '--count', 'HEAD')).toBe(git(ref, 'rev-list', '--count', 'HEAD'));
      expect(worldFiles(w)).toEqual(worldFiles(ref));
      expect(git(w, 'status', '--porcelain')).toBe('');
      // Exactly one `canonized` record for the killed canonization, naming its tagged commit.
      const canonized = records(w, 'k1').filter((x) => x.type === 'canonized');
      expect(canonized.filter((x) => x.commit === git(w, 'rev-parse', 'play/k1/1^{commit}'))).toHaveLength(1);
      expect(log(w)).toBe(log(ref));
      expect(fs.existsSync(path.join(w, '.aureus/runs'))).toBe(fs.existsSync(path.join(ref, '.aureus/runs')));
    });
  }

  /** After the kill: the tag moved to the first commit, or the history rolled back past the tagged commit. */
  const disagreements: [string, (w: string) => void, string][] = [
    ['the tag then moved to another commit', (w) => git(w, 'tag', '-f', '-a', 'play/k1/1', '-m', 'elsewhere', 'HEAD~1'), 'is not a canonization of this session (Aureus-Session: absent)'],
    ['the branch then reset past its commit', (w) => git(w, 'reset', '--hard', '--quiet', 'HEAD~1'), "is not in the current branch's history"],
  ];
  for (const [what, change, why] of disagreements) {
    it(`killed once tagged, with ${what}: --resume refuses with AUR6205 (exit 10), no stack trace, nothing written`, async () => {
      const w = copyRepo(base(), `play-kill-disagree-${disagreements.findIndex((d) => d[0] === what)}`);
      const r = await playScript(ARGS, w, input([...BEFORE, ...AFTER]), { AUREUS_TEST_KILL_AT: 'play-committed' });
      expect(r.code, r.stderr).toBe(null);
      change(w);
      const before = log(w);
      const head = git(w, 'rev-parse', 'HEAD');
      const resumed = await playScript(['play', '--resume', 'k1'], w, input(AFTER));
      expect(resumed.code, resumed.stderr).toBe(10);
      expect(resumed.stderr).toContain('error AUR6205 session k1 cannot resume: tag play/k1/1 exists, but its commit');
      expect(resumed.stderr).toContain(why);
      expect(resumed.stderr).toContain('git tag -d play/k1/1');
      expect(resumed.stderr).not.toMatch(/^\s+at /m);
      expect(log(w)).toBe(before);
      expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
      expect(git(w, 'status', '--porcelain')).toBe('');
    });
  }
});
