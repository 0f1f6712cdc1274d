import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, copyRepo, makeWorld, spawnCli } from '../pipeline/world.js';
import { steps, type FakeRequest } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { modelAnswer } from './fake-model.js';

/**
 * A run killed after its stages checkpointed and then resumed says the warnings of the stages it
 * does not run again: the AUR4211 of a model answer cleaned of control characters (a principal's
 * proposals in planning, the recap in stage H) travel in the planning and stage-h checkpoints.
 * Whole episodes through the real SDK against the local Messages API, the built CLI in a child
 * process (SIGKILLed by the test hook AUREUS_TEST_KILL_AT), the fake model's answers salted.
 */
const server = useFakeAnthropic();
let pristine = '';
beforeAll(async () => {
  if (!builtCli()) return;
  pristine = await makeWorld('resume-warnings');
  server.handler = salted;
}, 120_000);
afterAll(() => cleanup());

/** The fake model's answers, with an ESC colour in every proposal's first rationale and a NUL in the recap. */
function salted(req: FakeRequest): ReturnType<typeof steps.ok> {
  const text = modelAnswer(req);
  if (text.startsWith('Previously on the Republic')) return steps.ok(text.replace('Previously', 'Previously\u0000'));
  return steps.ok(text.replace(/"rationale"\s*:\s*"/, '$&\\u001b[31m'));
}

/** `aureus episode run --provider anthropic --json` in a child process with the test hook `killAt` (none: ''). */
const run = (cwd: string, killAt: string) =>
  spawnCli(['episode', 'run', '--provider', 'anthropic', '--json'], cwd, { ...anthropicEnv(server, 'sk-ant-test-resume-warnings'), AUREUS_TEST_KILL_AT: killAt });

type Warning = { code: string; message: string };
const controlWarnings = (stdout: string): Warning[] => (JSON.parse(stdout) as { warnings: Warning[] }).warnings.filter((w) => w.code === 'AUR4211');

describe.runIf(builtCli())('a resumed run repeats the warnings of the stages it resumes', () => {
  it('killed after stage H (AUREUS_TEST_KILL_AT=stage-h), re-run: the same AUR4211 warnings as an uninterrupted run (proposals and recap)', async () => {
    const whole = await run(copyRepo(pristine, 'resume-warnings-whole'), '');
    expect(whole.code, whole.stderr.slice(-1500)).toBe(0);
    const said = controlWarnings(whole.stdout);
    expect(said.map((w) => w.message)).toEqual(expect.arrayContaining([
      expect.stringMatching(/^the proposals \(\w+\) answer's \/moves\/0\/rationale carried control or bidi characters \(\\u001b\)/),
      expect.stringMatching(/^the recap answer's text carried control or bidi characters \(\\u0000\)/),
    ]));

    const w = copyRepo(pristine, 'resume-warnings-killed');
    const killed = await run(w, 'stage-h');
    expect(killed.signal, killed.stderr.slice(-1500)).toBe('SIGKILL');
    const resumed = await run(w, '');
    expect(resumed.code, resumed.stderr.slice(-1500)).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: 'committed', resumed: { planning: true } });
    // Was []: the planning and stage-h checkpoints kept the stages' output, not what they warned of.
    expect(controlWarnings(resumed.stdout)).toEqual(said);
    // And every other warning of the uninterrupted run, in the same order, after the one the kill
    // itself left: the killed run's lock, removed (AUR6003).
    const [stale, ...rest] = (JSON.parse(resumed.stdout) as { warnings: Warning[] }).warnings;
    expect(stale?.code).toBe('AUR6003');
    expect(rest).toEqual((JSON.parse(whole.stdout) as { warnings: Warning[] }).warnings);
  }, 300_000);
});
