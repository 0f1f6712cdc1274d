import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { faultyHandler } from '../reliability/fake-model.js';
import { cleanup, cli, copyRepo, git, makeWorld } from './world.js';

/**
 * The text summary an `episode run` ends with, for a run of the real provider (the real SDK)
 * against a local Messages API that simulates prompt caching: cache writes, then cache reads.
 */
const KEY = 'sk-ant-test-run-summary';
const server = useFakeAnthropic({ handler: faultyHandler('run-summary', 0).handler });
afterAll(cleanup);

/** The numbers of the summary's `tokens` line, by name (total, input, output, cache write, cache read). */
function tokensLine(stdout: string): Record<string, number> {
  const line = /^ {2}tokens {4}(\d+) \(([^)]*)\)$/m.exec(stdout);
  expect(line, stdout).not.toBeNull();
  const parts = Object.fromEntries(line![2]!.split(', ').map((p) => [p.replace(/ \d+$/, ''), Number(/\d+$/.exec(p)![0])]));
  return { total: Number(line![1]), ...parts };
}

describe('the text summary of a run', () => {
  it('counts the cache writes beside the cache reads, as the commit and --json do', async () => {
    const root = await makeWorld('summary-tokens');
    const r = await cli(['episode', 'run', '--provider', 'anthropic'], root, anthropicEnv(server, KEY));
    expect(r.code, r.stderr.slice(-800)).toBe(0);
    const shown = tokensLine(r.stdout);
    // The commit's Tokens trailer holds the run's totals, cache writes included.
    const trailer = /^Aureus-Tokens: \d+ \(input (\d+), output (\d+), cache read (\d+), cache write (\d+)\)$/m.exec(git(root, 'log', '-1', '--format=%B'));
    expect(trailer).not.toBeNull();
    const [input, output, read, write] = trailer!.slice(1).map(Number) as [number, number, number, number];
    expect(write).toBeGreaterThan(0);
    expect(shown).toEqual({ total: input + output, input, output, 'cache write': write, 'cache read': read });
  }, 180_000);
});

describe('a run answered from the response cache', () => {
  it('says how many answers came from the cache and what they cost when recorded, apart from the $0 charged (text and --json)', async () => {
    // Before, with every answer cached (no request made), the summary said "cost $0.2687" and --json
    // had no count of cached answers: a free run looked charged.
    const pristine = await makeWorld('summary-cache');
    const recorded = copyRepo(pristine, 'summary-cache-rec');
    const rec = await cli(['episode', 'run', '--provider', 'anthropic', '--json'], recorded, anthropicEnv(server, KEY));
    expect(rec.code, rec.stderr.slice(-800)).toBe(0);
    const first = JSON.parse(rec.stdout) as { cost_usd: number; charged_usd: number; cached: { answers: number } };
    expect(first.cost_usd).toBeGreaterThan(0);
    expect(first.charged_usd).toBe(first.cost_usd);
    expect(first.cached.answers).toBe(0);
    const calls = git(recorded, 'show', 's01e01:seasons/season_01/episode_01/run_log.jsonl').split('\n').filter(Boolean).length;

    // A fresh copy of the world with the recorded cache: the real provider answered from it.
    const cacheDir = path.join(recorded, '.aureus/cache');
    const fresh = copyRepo(pristine, 'summary-cache-text');
    fs.cpSync(cacheDir, path.join(fresh, '.aureus/cache'), { recursive: true });
    let before = server.requests.length;
    const text = await cli(['episode', 'run', '--provider', 'anthropic'], fresh, anthropicEnv(server, KEY));
    expect(text.code, text.stderr.slice(-800)).toBe(0);
    const asked = server.requests.length - before;
    const line = /^ {2}cost {6}\$(\d+\.\d{4}) charged; (\d+) answers from the cache \(\$(\d+\.\d{4}) when recorded\) {2}provider anthropic/m.exec(text.stdout);
    expect(line, text.stdout).not.toBeNull();
    const [charged, answers, whenRecorded] = [Number(line![1]), Number(line![2]), Number(line![3])];
    expect(answers).toBe(calls - asked); // each call not sent was answered from the cache
    expect(answers).toBeGreaterThan(calls / 2);
    const commitCost = Number(/^Aureus-Cost: \$(\S+)$/m.exec(git(fresh, 'log', '-1', '--format=%B'))![1]);
    expect(charged + whenRecorded).toBeCloseTo(commitCost, 3);

    // The replay of that cache: no request at all, every answer cached, nothing charged.
    const replayed = copyRepo(pristine, 'summary-cache-json');
    before = server.requests.length;
    const json = await cli(['episode', 'run', '--provider', `replay:${cacheDir}`, '--json'], replayed);
    expect(json.code, json.stderr.slice(-800)).toBe(0);
    expect(server.requests.length).toBe(before);
    const s = JSON.parse(json.stdout) as { cost_usd: number; charged_usd: number; cached: { answers: number; cost_usd: number } };
    expect(s.cached).toEqual({ answers: calls, cost_usd: first.cost_usd });
    expect(s.charged_usd).toBe(0);
    // The commit prices the episode as recorded, so a recorded run and its replay commit the same.
    expect(s.cost_usd).toBe(first.cost_usd);
  }, 300_000);
});
