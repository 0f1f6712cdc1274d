import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyScenario, readTree, scenario } from './helpers.js';
import { builtCli, spawnCli } from '../../pipeline/world.js';
import { STACK_TRACE } from '../../cli/helpers.js';
import { steps } from '../../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../../support/use-fake-anthropic.js';

/**
 * Ctrl-C (SIGINT) during `episode plan`, which holds the run lock: the real built CLI as a child
 * process, a real world folder. Before, the plan had no handler: the process died by the signal
 * (no exit code, no word), leaving the lock's owner record and a partial run folder. Now, with the
 * handler `episode run` uses (cli/commands/run-shared.ts interruptSignal): exit 130, one notice and
 * AUR6008, the lock released, the folder the plan made removed, and the next command starts clean.
 * The signal comes from the CLI at a named point (AUREUS_TEST_SIGINT_AT=plan-written), or from
 * outside while the plan waits for an LLM call.
 */
const base = scenario('planning-base');
const NOTICE = 'aureus: interrupted; stopping at the next safe point (Ctrl-C again to quit now). The partial plan is removed.';
const server = useFakeAnthropic({ resetEachTest: true });

/** The run lock is free: no lock folder, no owner record, no guard. */
const lockFree = (root: string) => expect(fs.readdirSync(path.join(root, '.aureus')).filter((n) => n.startsWith('lock'))).toEqual([]);

/** The next plan runs without a stale-lock takeover and plans. */
async function nextPlanIsClean(root: string): Promise<void> {
  const again = await spawnCli(['episode', 'plan'], root);
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).not.toMatch(/AUR6003|AUR6063/);
  expect(again.stderr).toBe('');
}

describe.skipIf(!builtCli())('episode plan interrupted', () => {
  it('SIGINT once its files are written: exit 130, AUR6008, the run folder it made removed, the lock released', async () => {
    const root = copyScenario(base);
    const r = await spawnCli(['episode', 'plan'], root, { AUREUS_TEST_SIGINT_AT: 'plan-written' });
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain(NOTICE);
    expect(r.stderr).toContain('AUR6008 interrupted during episode plan of s01e01');
    expect(r.stderr).toContain("hint: nothing was planned: the lock is released and the plan's partial files removed; run `aureus episode plan` again");
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.stdout).toBe('');
    expect(fs.existsSync(path.join(root, '.aureus/runs'))).toBe(false);
    lockFree(root);
    await nextPlanIsClean(root);
  }, 60_000);

  it('--json: the error document on stdout, exit 130', async () => {
    const root = copyScenario(base);
    const r = await spawnCli(['episode', 'plan', '--json'], root, { AUREUS_TEST_SIGINT_AT: 'plan-written' });
    expect(r.code, r.stderr).toBe(130);
    expect(JSON.parse(r.stdout).error).toMatchObject({ exit_code: 130, codes: ['AUR6008'] });
    lockFree(root);
  }, 60_000);

  it('a run folder that was there before (an earlier plan of the same seed) is kept as it was', async () => {
    const root = copyScenario(base);
    const first = await spawnCli(['episode', 'plan', '--seed', 'kept'], root);
    expect(first.code, first.stderr).toBe(0);
    const [run] = fs.readdirSync(path.join(root, '.aureus/runs'));
    const before = readTree(path.join(root, '.aureus/runs', run!));
    const r = await spawnCli(['episode', 'plan', '--seed', 'kept'], root, { AUREUS_TEST_SIGINT_AT: 'plan-written' });
    expect(r.code, r.stderr).toBe(130);
    // The same world and seed: the files the plan wrote again are the same bytes; the log keeps the calls of both.
    const after = readTree(path.join(root, '.aureus/runs', run!));
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [f, text] of before) if (f !== 'run_log.jsonl') expect(after.get(f), f).toBe(text);
    lockFree(root);
  }, 60_000);

  it('a Ctrl-C from outside while the plan waits for the model: exit 130 at once, nothing left, the lock released', async () => {
    const root = copyScenario(base);
    server.handler = () => steps.stall();
    let sent = false;
    const r = await spawnCli(['episode', 'plan', '--provider', 'anthropic'], root, anthropicEnv(server, 'sk-ant-test-plan-interrupt'), (pid) => {
      const poll = setInterval(() => {
        if (server.requests.length === 0) return;
        clearInterval(poll);
        sent = true;
        process.kill(pid, 'SIGINT');
      }, 5);
      setTimeout(() => clearInterval(poll), 30_000);
    });
    expect(sent).toBe(true);
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain(NOTICE);
    expect(r.stderr).toContain('AUR6008 interrupted during episode plan of s01e01');
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(fs.existsSync(path.join(root, '.aureus/runs'))).toBe(false);
    lockFree(root);
    await nextPlanIsClean(root);
  }, 60_000);
});
