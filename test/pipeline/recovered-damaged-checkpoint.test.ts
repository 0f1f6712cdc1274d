import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, cli, git, makeWorld, spawnCli } from './world.js';

afterAll(cleanup);

/**
 * A commit killed after its journal was written, then a checkpoint of its run damaged: the next run
 * finishes the commit from the journal and repeats the warnings the run kept in its checkpoints
 * (planning-checkpoint.ts keptWarnings). It read them with no warning sink, so a damaged one was left
 * out without a word. Now it is said (AUR6096, the file and what is wrong), and the commit is whole.
 */
describe.runIf(builtCli())('finishing an interrupted commit whose run has a damaged checkpoint', () => {
  it('says the checkpoint whose warnings it cannot repeat (AUR6096) and commits the episode', async () => {
    const w = await makeWorld('recovered-damaged');
    const k = await spawnCli(['episode', 'run', '--seed', '7'], w, { AUREUS_TEST_KILL_AT: 'commit-staged' });
    expect(k.signal).toBe('SIGKILL');
    const runs = path.join(w, '.aureus/runs');
    const run = fs.readdirSync(runs)[0]!;
    const file = path.join(runs, run, 'checkpoints/scenes.json');
    fs.writeFileSync(file, fs.readFileSync(file).subarray(0, 50));
    const r = await cli(['episode', 'run', '--seed', '7'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('AUR6004 finished the interrupted commit of s01e01 from its journal');
    expect(r.stderr).toMatch(new RegExp(`warning AUR6096 the damaged checkpoint \\.aureus/runs/${run}/checkpoints/scenes\\.json \\(\\d+:\\d+: invalid JSON: [^)]+\\) was not read: the warnings its run kept there are not repeated`));
    expect(r.stderr).toContain('hint: the commit was finished from its journal');
    expect(git(w, 'tag', '--list')).toBe('s01e01');
  }, 240_000);
});
