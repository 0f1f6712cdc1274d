import { afterAll, describe, expect, it } from 'vitest';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { faultyHandler } from '../reliability/fake-model.js';
import { cleanup, cli, git, makeWorld } from './world.js';

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
