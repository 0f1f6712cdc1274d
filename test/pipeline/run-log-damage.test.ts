import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, copyRepo, git, makeWorld, spawnCli } from './world.js';

/**
 * A run folder's run_log.jsonl with a line that is no entry (cut short, garbled): stage H committed
 * the readable lines alone, and trailers totalled from them, so the calls on the damaged line
 * vanished from the episode's tokens and cost without a word (audit k, D9). Now the line is named at
 * commit time (AUR4499), the trailers say "a lower bound", and the committed log keeps the line, so
 * `aureus cost` of the episode names it (AUR4402) as it does on the run folder.
 */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('runlog-damage');
}, 120_000);
afterAll(cleanup);

const runFolder = (w: string) => {
  const runs = path.join(w, '.aureus/runs');
  return path.join(runs, fs.readdirSync(runs).find((d) => d.startsWith('s01e01-kept'))!);
};
const committedLog = (w: string) => fs.readFileSync(path.join(w, 'seasons/season_01/episode_01/run_log.jsonl'), 'utf8');
const trailer = (w: string, name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(git(w, 'log', '-1', '--format=%B', 's01e01'))?.[1];

describe.runIf(builtCli())('a damaged run log at commit time', () => {
  it('names the damaged line, keeps it in the committed log and says the trailers are a lower bound', async () => {
    const w = copyRepo(pristine, 'runlog-cut');
    const killed = await spawnCli(['episode', 'run', '--seed', 'kept'], w, { AUREUS_TEST_KILL_AT: 'scenes-start' });
    expect(killed.signal).toBe('SIGKILL');
    const file = path.join(runFolder(w), 'run_log.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const cut = lines[1]!.slice(0, 60); // a line cut short
    lines[1] = cut;
    fs.writeFileSync(file, lines.join('\n'));
    // `aureus cost` on the run folder names the line and prints no total (as before).
    const before = await spawnCli(['cost', path.relative(w, runFolder(w))], w);
    expect(before.code).toBe(3);
    expect(before.stderr).toMatch(/2:\d+: error AUR4402/);

    const r = await spawnCli(['episode', 'run', '--seed', 'kept'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning AUR4499 line 2 of \.aureus\/runs\/s01e01-kept-[^/]+\/run_log\.jsonl is not a run log entry \(invalid JSON: [^)]+\): the call it records is not counted, so the tokens and cost committed for s01e01 are a lower bound/);
    expect(trailer(w, 'Aureus-Tokens')).toMatch(/^\d+ \(input \d+, output \d+, cache read \d+, cache write \d+; a lower bound: 1 run log line could not be read\)$/);
    expect(trailer(w, 'Aureus-Cost')).toMatch(/^\$\d+\.\d{4} \(a lower bound: 1 run log line could not be read\)$/);
    expect(committedLog(w).split('\n')).toContain(cut);
    // The committed episode's cost says what the run folder's did: no silent lower total.
    const after = await spawnCli(['cost', 's01e01'], w);
    expect(after.code).toBe(3);
    expect(after.stderr).toContain('seasons/season_01/episode_01/run_log.jsonl');
    expect(after.stderr).toMatch(/error AUR4402 invalid run log line: invalid JSON/);
  }, 240_000);

  it('a second episode plan keeps a damaged line in the run log (finalize rewrote the log without it)', async () => {
    const w = copyRepo(pristine, 'runlog-plan');
    expect((await spawnCli(['episode', 'plan', '--seed', 'kept'], w)).code).toBe(0);
    const file = path.join(runFolder(w), 'run_log.jsonl');
    fs.appendFileSync(file, '{"role":"writer","model":"offline","input_tok\n');
    const again = await spawnCli(['episode', 'plan', '--seed', 'kept'], w);
    expect(again.code, again.stderr).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toContain('{"role":"writer","model":"offline","input_tok\n');
    const r = await spawnCli(['episode', 'run', '--seed', 'kept'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning AUR4499');
    expect(trailer(w, 'Aureus-Cost')).toContain('a lower bound: 1 run log line could not be read');
  }, 240_000);

  it('an undamaged run log commits plain trailers and no warning', async () => {
    const w = copyRepo(pristine, 'runlog-whole');
    const r = await spawnCli(['episode', 'run', '--seed', 'kept'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('AUR4499');
    expect(trailer(w, 'Aureus-Cost')).toMatch(/^\$\d+\.\d{4}$/);
    expect((await spawnCli(['cost', 's01e01'], w)).code).toBe(0);
  }, 240_000);
});
