import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, copyRepo, git, makeWorld, spawnCli } from './world.js';

/**
 * The run log a commit totals is read back from the run folder. A line of it damaged between the kill and the
 * resume (a hand edit, a disk fault) was skipped without a word: the committed log, `Aureus-Tokens` and
 * `Aureus-Cost` under-reported the calls. Now the damaged lines are named (AUR4403: the file, the first line and
 * what is wrong with it) and the trailers say "at least".
 */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('runlog-pristine');
}, 120_000);
afterAll(cleanup);

describe.runIf(builtCli())('a damaged run log at commit time', () => {
  it('names the damaged line (AUR4403) and the trailers say "at least"', async () => {
    const w = copyRepo(pristine, 'runlog-damaged');
    const killed = await spawnCli(['episode', 'run'], w, { AUREUS_TEST_KILL_AT: 'scene-SC03' });
    expect(killed.signal).toBe('SIGKILL');
    const [run] = fs.readdirSync(path.join(w, '.aureus/runs'));
    const log = path.join(w, '.aureus/runs', run!, 'run_log.jsonl');
    const lines = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(2);
    lines[1] = lines[1]!.slice(0, 40); // torn mid-line
    fs.writeFileSync(log, lines.join('\n') + '\n');

    const r = await spawnCli(['episode', 'run'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(String.raw`warning AUR4403 1 damaged line\(s\) of \.aureus/runs/${run}/run_log\.jsonl left out of the committed run log \(first at line 2: `));
    const message = git(w, 'log', '-1', '--format=%B');
    expect(message).toMatch(/^Aureus-Tokens: at least \d+ \(input \d+, output \d+, cache read 0, cache write 0; 1 damaged run-log line\(s\) left out\)$/m);
    expect(message).toMatch(/^Aureus-Cost: at least \$0\.0000$/m);
  }, 240_000);

  it('a whole run log: no warning, plain figures', async () => {
    const w = copyRepo(pristine, 'runlog-whole');
    const r = await spawnCli(['episode', 'run'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('AUR4403');
    expect(git(w, 'log', '-1', '--format=%B')).toMatch(/^Aureus-Tokens: \d+ \(input/m);
  }, 240_000);
});
