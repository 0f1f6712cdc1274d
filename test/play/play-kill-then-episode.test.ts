import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git, spawnCli } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { input } from './killed-canon.js';
import { playScript, records } from './support.js';

/**
 * `aureus play` killed (SIGKILL) inside a canonization's commit, then an `episode run` or a
 * `season run` before the session is resumed: the run finishes the interrupted commit as play's
 * (named by its session, its tag made), never as an episode "S00E00", then compiles the episode it
 * was asked for; `status` names the canonization; `play --resume` then records it in the session
 * from git (one `canonized` record, naming the tagged commit), judging nothing twice.
 */
const BEFORE = ['Catiline, where were you last night?', '/note Catiline lies about Faesulae', 'You must answer me! The Senate will hear of this!', '/commit'];
const AFTER = ['Crassus, will you stand with him or with Rome?', '/end'];
const ARGS = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline,crassus', '--mode', 'open', '--session', 'k1', '--json'];

describe.skipIf(!builtCli())('a play canonization killed mid-commit, recovered by an episode run', () => {
  const base = useWorld('play-kill-episode');

  async function killed(label: string): Promise<string> {
    const w = copyRepo(base(), label);
    const r = await playScript(ARGS, w, input([...BEFORE, ...AFTER]), { AUREUS_TEST_KILL_AT: 'commit-staged' });
    expect(r.code, r.stderr).toBe(null);
    return w;
  }

  it('episode run names it as the session\'s canonization and compiles S01E01; play --resume records it once', async () => {
    const w = await killed('play-kill-episode-run');
    const status = await spawnCli(['status'], w);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('canonization 1 of play session k1 was interrupted: `aureus play --resume k1`');
    const r = await spawnCli(['episode', 'run', '--seed', '7'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('AUR6004 finished the interrupted commit of canonization 1 of play session k1 from its journal');
    expect(r.stderr).toContain('`aureus play --resume k1` records it in the session');
    expect(r.stdout).not.toMatch(/S00E00|recovered/);
    expect(r.stdout).toContain('✓ committed S01E01');
    expect(git(w, 'tag', '--list').split('\n')).toEqual(['play/k1/1', 's01e01']);
    expect(git(w, 'log', '-1', '--format=%s', 'play/k1/1')).toMatch(/^play k1: canonize/);
    const resumed = await playScript(['play', '--resume', 'k1', '--json'], w, input(AFTER));
    expect(resumed.code, resumed.stderr).toBe(0);
    const canonized = records(w, 'k1').filter((x) => x.type === 'canonized');
    expect(canonized.filter((x) => x.commit === git(w, 'rev-parse', 'play/k1/1^{commit}'))).toHaveLength(1);
    expect(git(w, 'status', '--porcelain')).toBe('');
  }, 180_000);

  it('season run --count 1 compiles S01E01 after finishing it, not counting it as an episode', async () => {
    const w = await killed('play-kill-season-run');
    const r = await spawnCli(['season', 'run', '--count', '1'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('AUR6004 finished the interrupted commit of canonization 1 of play session k1');
    expect(r.stdout).not.toMatch(/S00E00|recovered/);
    expect(r.stdout).toContain('✓ committed S01E01');
    expect(git(w, 'tag', '--list').split('\n')).toEqual(['play/k1/1', 's01e01']);
  }, 180_000);
});
