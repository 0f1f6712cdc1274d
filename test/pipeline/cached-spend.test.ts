import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { faultyHandler } from '../reliability/fake-model.js';
import { builtCli, cleanup, cli, copyRepo, makeWorld, spawnCli } from './world.js';

/**
 * `--max-cost` counts money paid, and an answer served from the record/replay cache (`.aureus/cache`)
 * was paid for when it was recorded: it costs this run nothing, killed and resumed or not. A world
 * gets the cache of an earlier real run (anthropic against a local Messages API), so its calls are
 * hits; the cap is below what the recorded calls cost together but above any one call's worst case.
 */
const KEY = 'sk-ant-test-cached-spend';
const server = useFakeAnthropic({ handler: faultyHandler('cached-spend', 0).handler });
let pristine = '';
let recorded = '';
let recordedCost = 0;
beforeAll(async () => {
  pristine = await makeWorld('cached-spend');
  recorded = copyRepo(pristine, 'cached-spend-rec');
  const rec = await cli(['episode', 'run', '--provider', 'anthropic', '--json'], recorded, anthropicEnv(server, KEY));
  if (rec.code !== 0) throw new Error(`the recording failed: ${rec.stderr.slice(-800)}`);
  recordedCost = JSON.parse(rec.stdout).charged_usd;
}, 180_000);
afterAll(cleanup);

/** A fresh copy of the world, before any episode, holding the recorded run's cache. */
function withRecordedCache(label: string): string {
  const w = copyRepo(pristine, label);
  fs.cpSync(path.join(recorded, '.aureus', 'cache'), path.join(w, '.aureus', 'cache'), { recursive: true });
  return w;
}

describe.skipIf(!builtCli())('--max-cost and answers served from the cache', () => {
  it('a call whose answer is recorded needs no room under the cap: a run served from the cache commits', async () => {
    const w = withRecordedCache('cached-spend-hits');
    const before = server.requests.length;
    // $0.12 is below a writer call's worst case (about $0.17): reserved as if it were asked, the
    // first draft would be refused though its answer is on disk and costs nothing.
    const r = await cli(['episode', 'run', '--provider', 'anthropic', '--max-cost', '0.12', '--json'], w, anthropicEnv(server, KEY));
    expect(r.code, r.stderr.slice(-800)).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.status).toBe('committed');
    expect(summary.cached.answers).toBeGreaterThan(40);
    expect(summary.charged_usd).toBeLessThan(0.12);
    expect(server.requests.length - before).toBeLessThan(5);
  }, 180_000);

  it('a run killed and resumed does not count its cached answers as spent', async () => {
    const w = withRecordedCache('cached-spend-resume');
    const env = anthropicEnv(server, KEY);
    // $0.18 is above any one call's worst case (a writer's, about $0.17) and below what the recorded
    // calls cost together (about $0.19), nearly all of them journaled by the time SC12 is written.
    expect(recordedCost).toBeGreaterThan(0.18);
    const argv = ['episode', 'run', '--provider', 'anthropic', '--max-cost', '0.18'];
    const killed = await spawnCli(argv, w, { ...env, AUREUS_TEST_KILL_AT: 'scene-SC12' });
    expect(killed.signal, killed.stderr.slice(-800)).toBe('SIGKILL');
    // Counted at their recorded prices, the journaled answers would leave no room for the next call.
    const before = server.requests.length;
    const resumed = await spawnCli([...argv, '--json'], w, env);
    expect(resumed.code, resumed.stderr.slice(-800)).toBe(0);
    const summary = JSON.parse(resumed.stdout);
    expect(summary.status).toBe('committed');
    expect(summary.resumed.calls_replayed).toBeGreaterThan(5);
    expect(summary.charged_usd).toBeLessThan(0.18);
    expect(server.requests.length - before).toBeLessThan(5);
  }, 300_000);
});
