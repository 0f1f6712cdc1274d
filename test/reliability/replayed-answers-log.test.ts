import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, copyRepo, makeWorld, spawnCli } from '../pipeline/world.js';
import { steps, type FakeRequest, type FakeStep } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { modelAnswer } from './fake-model.js';

/**
 * A resumed run answers from its call journal the calls that failed on their own answers (a proposal
 * whose JSON stayed invalid, so the stage fell back): those answers were paid for, and logged, by
 * the run that asked them. The resume must not log them again: the run folder's run_log.jsonl, which
 * `aureus cost <run folder>` sums, says each paid answer once, as the uninterrupted run's does.
 * Whole episodes through the real SDK against the local Messages API, which counts every request.
 */
const server = useFakeAnthropic();
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('replayed-log');
}, 120_000);
afterAll(cleanup);

const KEY = 'sk-ant-test-replayed-log';
const isProposal = (q: FakeRequest) => JSON.stringify(q.body?.messages?.[0]?.content ?? '').includes('candidate_moves');
/** Every proposal answered with prose (never JSON): each fails on its own answers and falls back. */
const handler = (q: FakeRequest): FakeStep => (isProposal(q) ? steps.malformedJson() : steps.ok(modelAnswer({ ...q, index: 0 })));

/** The run folder's log lines, latency aside (a real provider's differs run to run), sorted. */
function runLog(w: string): { lines: string[]; proposals: number } {
  const runs = path.join(w, '.aureus', 'runs');
  const [dir] = fs.readdirSync(runs).filter((d) => d.startsWith('s01e01-'));
  const text = fs.readFileSync(path.join(runs, dir!, 'run_log.jsonl'), 'utf8');
  const entries = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const lines = entries.map(({ latency_ms: _l, ...e }) => JSON.stringify(e)).sort();
  return { lines, proposals: entries.filter((e) => e.role === 'proposals').length };
}

describe.runIf(builtCli())('a resumed run logs only the answers it asked for', () => {
  it('proposals that failed on their answers, then the cost cap (exit 5): the resume replays them without a second run-log line', async () => {
    server.reset();
    server.handler = handler;
    const whole = copyRepo(pristine, 'replayed-whole');
    const env = anthropicEnv(server, KEY);
    const through = await spawnCli(['episode', 'run', '--provider', 'anthropic', '--no-commit'], whole, env);
    expect(through.code, through.stderr.slice(-1500)).toBe(0);
    const baseline = runLog(whole);
    expect(baseline.proposals).toBe(server.requests.filter(isProposal).length);

    server.reset();
    server.handler = handler;
    const w = copyRepo(pristine, 'replayed-resumed');
    const capped = await spawnCli(['episode', 'run', '--provider', 'anthropic', '--no-commit', '--max-cost', '0.02'], w, env);
    expect(capped.code, capped.stderr.slice(-1500)).toBe(5);
    expect(capped.stderr).toContain('AUR4209');
    const asked = server.requests.filter(isProposal).length;
    expect(asked).toBeGreaterThan(0);
    expect(runLog(w).proposals).toBe(asked);

    const resumed = await spawnCli(['episode', 'run', '--provider', 'anthropic', '--no-commit'], w, env);
    expect(resumed.code, resumed.stderr.slice(-1500)).toBe(0);
    // The resume asked no proposal again: it replayed the journaled answers.
    expect(server.requests.filter(isProposal).length).toBe(asked);
    // Was twice as many proposal lines (each replayed answer logged again, at full cost, not cached):
    // `aureus cost` of the run folder doubled the proposals' spend.
    expect(runLog(w).proposals).toBe(asked);
    expect(runLog(w).lines).toEqual(baseline.lines);
  }, 300_000);

  it('a kill between an answer\'s journal file and its run-log line: the resume writes the missing lines, once', async () => {
    server.reset();
    server.handler = handler;
    const whole = copyRepo(pristine, 'unlogged-whole');
    const env = anthropicEnv(server, KEY);
    expect((await spawnCli(['episode', 'run', '--provider', 'anthropic', '--no-commit'], whole, env)).code).toBe(0);
    const baseline = runLog(whole);

    server.reset();
    server.handler = handler;
    const w = copyRepo(pristine, 'unlogged-resumed');
    const capped = await spawnCli(['episode', 'run', '--provider', 'anthropic', '--no-commit', '--max-cost', '0.02'], w, env);
    expect(capped.code, capped.stderr.slice(-1500)).toBe(5);
    const asked = server.requests.filter(isProposal).length;
    // The state a SIGKILL leaves after calls/<key>-<attempt>.json is written and before its line is
    // appended: the answers journaled (paid, counted by journalSpend), two of their lines not in the log.
    const runs = path.join(w, '.aureus', 'runs');
    const file = path.join(runs, fs.readdirSync(runs).find((d) => d.startsWith('s01e01-'))!, 'run_log.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const cut = lines.map((l, i) => (JSON.parse(l).role === 'proposals' ? i : -1)).filter((i) => i >= 0).slice(0, 2);
    expect(cut).toHaveLength(2);
    fs.writeFileSync(file, lines.filter((_, i) => !cut.includes(i)).map((l) => l + '\n').join(''));
    expect(runLog(w).proposals).toBe(asked - 2);

    const resumed = await spawnCli(['episode', 'run', '--provider', 'anthropic', '--no-commit'], w, env);
    expect(resumed.code, resumed.stderr.slice(-1500)).toBe(0);
    expect(server.requests.filter(isProposal).length).toBe(asked); // replayed, not asked again
    // Was asked - 2: the two paid answers never reached the log, nor `aureus cost` of the run.
    expect(runLog(w).proposals).toBe(asked);
    expect(runLog(w).lines).toEqual(baseline.lines);
    // The lines written are the ones the answers had: their recorded latency, their charge.
    for (const i of cut) expect(fs.readFileSync(file, 'utf8')).toContain(lines[i]!);
  }, 300_000);
});
