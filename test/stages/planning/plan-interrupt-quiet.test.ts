import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { copyScenario, scenario } from './helpers.js';
import { steps } from '../../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../../support/use-fake-anthropic.js';
import { planEpisodeRun, PlanInterrupted } from '../../../src/pipeline/plan-episode.js';

/**
 * An interrupted `episode plan` removes the run folder it made only once every model call it had
 * in flight has settled. Stage B asks its principals at once; the first cancelled call ends the
 * plan while the others are still being cancelled, and each cancelled call still logs a line into
 * the run folder's run_log.jsonl. Removing the folder at once raced those writes: in CI the removal
 * failed (ENOTEMPTY, an internal error instead of exit 130), or the late lines made the folder again.
 * In process here, so nothing ends the writes early: the folder must stay gone after the plan returns.
 */
const base = scenario('planning-base');
const server = useFakeAnthropic({ resetEachTest: true });

describe('episode plan interrupted with calls in flight', () => {
  it('every in-flight call settles before the folder goes: no run folder comes back, nothing thrown but the interrupt', async () => {
    const root = copyScenario(base);
    server.handler = () => steps.stall();
    const ac = new AbortController();
    const poll = setInterval(() => {
      if (server.requests.length >= 2) ac.abort(new Error('SIGINT'));
    }, 5);
    let thrown: unknown;
    try {
      await planEpisodeRun({
        root,
        provider: 'anthropic',
        steer: {},
        env: { ...process.env, ...anthropicEnv(server, 'sk-ant-test-plan-quiet') },
        signal: ac.signal,
        onWarnings: () => {},
      });
    } catch (e) {
      thrown = e;
    } finally {
      clearInterval(poll);
    }
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    expect(thrown).toBeInstanceOf(PlanInterrupted);
    // Any write still under way would land within this pause.
    await sleep(300);
    expect(fs.existsSync(path.join(root, '.aureus/runs'))).toBe(false);
  }, 60_000);
});
