import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, spawnCli } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { input } from '../play/killed-canon.js';
import { playScript } from '../play/support.js';

/**
 * `episode plan` over an interrupted commit warns that the plan is of the world files as they stand
 * (AUR6023), naming what was interrupted and the command that finishes it. A killed `aureus play`
 * canonization was named by its tag as if it were an episode ("the commit of play/k1/1") and sent to
 * `episode run` alone; it is named by its session now, with its `play --resume`. An episode keeps its
 * wording.
 */
const PLAY = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline,crassus', '--mode', 'open', '--session', 'k1', '--json'];
const TURNS = ['Catiline, where were you last night?', '/note Catiline lies about Faesulae', 'You must answer me! The Senate will hear of this!', '/commit'];

describe.skipIf(!builtCli())('AUR6023: episode plan over an interrupted commit', () => {
  const base = useWorld('pending-plan');

  it("a killed play canonization: named by its session, `play --resume` as the way to finish it, which it is", async () => {
    const w = copyRepo(base(), 'pending-plan-play');
    const killed = await playScript(PLAY, w, input(TURNS), { AUREUS_TEST_KILL_AT: 'commit-staged' });
    expect(killed.code, killed.stderr).toBe(null);
    const plan = await spawnCli(['episode', 'plan', '--seed', '7'], w);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain('warning AUR6023 the commit of canonization 1 of play session k1 was interrupted and is not finished: this plan is of the world files as they stand now');
    expect(plan.stderr).toContain('hint: `aureus play --resume k1` (or the next `aureus episode run`) finishes that commit first; plan again after it');
    expect(plan.stderr).not.toContain('play/k1/1');
    // The command the hint names does finish it: a plan made after it has nothing to warn of.
    const resumed = await playScript(['play', '--resume', 'k1', '--json'], w, input(['/end']));
    expect(resumed.code, resumed.stderr).toBe(0);
    const again = await spawnCli(['episode', 'plan', '--seed', '7'], w);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('AUR6023');
  }, 180_000);

  it('a killed episode commit keeps the episode wording', async () => {
    const w = copyRepo(base(), 'pending-plan-episode');
    const killed = await spawnCli(['episode', 'run', '--seed', '7'], w, { AUREUS_TEST_KILL_AT: 'commit-staged' });
    expect(killed.signal, killed.stderr.slice(-400)).toBe('SIGKILL');
    const plan = await spawnCli(['episode', 'plan', '--seed', '7'], w);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain('warning AUR6023 the commit of s01e01 was interrupted and is not finished: this plan is of the world files as they stand now');
    expect(plan.stderr).toContain('hint: the next `aureus episode run` finishes that commit first; plan again after it');
    expect(plan.stderr).not.toContain('play session');
  }, 180_000);
});
