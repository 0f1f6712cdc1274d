import { afterAll, describe, expect, it } from 'vitest';
import { steps, type FakeRequest, type FakeStep } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { faultyHandler } from '../reliability/fake-model.js';
import { cleanup, cli, git, makeWorld } from './world.js';

/**
 * `episode run --provider anthropic` against the fake Messages API (real SDK) with one role's
 * answers refused (stop_reason "refusal"): the run ends with AUR4212 naming the role (exit 7,
 * resumable), without format_fix calls or a budget of regenerations spent on the refusal.
 */
const KEY = 'sk-ant-test-refusal';
const healthy = faultyHandler('refusal', 0).handler;
const server = useFakeAnthropic({ handler: healthy, resetEachTest: true });
afterAll(cleanup);

const wire = (r: FakeRequest) => JSON.stringify(r.body ?? {});
const first = (r: FakeRequest) => JSON.stringify(r.body?.messages?.[0]?.content ?? '');
const isWriter = (r: FakeRequest) => first(r).includes('SCENE_PACKET:') && !wire(r).includes('repair the FORM');
const isCritic = (r: FakeRequest) => first(r).startsWith('"SCENE_TEXT:');
const isFormatFix = (r: FakeRequest) => wire(r).includes('repair the FORM');
const isRecap = (r: FakeRequest) => wire(r).includes('Previously on');
const refusing = (pick: (r: FakeRequest) => boolean, text: string) => (r: FakeRequest): FakeStep => (pick(r) ? steps.ok(text, { stop_reason: 'refusal' }) : healthy(r));

describe('episode run with a refusing model', () => {
  it('a writer refusal ends the run with AUR4212 (exit 7), no format_fix, no regenerations', async () => {
    const root = await makeWorld('refuse-writer');
    server.handler = refusing(isWriter, "I can't help with that request.");
    const r = await cli(['episode', 'run', '--provider', 'anthropic'], root, anthropicEnv(server, KEY));
    expect(r.code, r.stderr.slice(-800)).toBe(7);
    expect(r.stderr).toContain('AUR4212');
    expect(r.stderr).toMatch(/the model refused the writer call \(s01e01 SC\d\d[^)]*\) 2 time\(s\): "I can't help with that request\."/);
    expect(r.stderr).not.toContain('AUR6007');
    expect(server.requests.filter(isFormatFix)).toHaveLength(0);
    // Each scene's first draft at most, asked twice; the fatal refusal cancels the rest.
    expect(server.requests.filter(isWriter).length).toBeLessThanOrEqual(2 * 4);
  }, 180_000);

  it('a critic refusal ends the run with AUR4212 naming the critic, not a JSON problem', async () => {
    const root = await makeWorld('refuse-critic');
    server.handler = refusing(isCritic, "I can't help with reviewing this scene.");
    const r = await cli(['episode', 'run', '--provider', 'anthropic'], root, anthropicEnv(server, KEY));
    expect(r.code, r.stderr.slice(-800)).toBe(7);
    expect(r.stderr).toMatch(/AUR4212 the model refused the critic call/);
    expect(r.stderr).not.toContain('AUR4201');
  }, 180_000);

  it.each([
    ['a refused', (r: FakeRequest) => (isRecap(r) ? steps.ok("I can't help with writing this recap.", { stop_reason: 'refusal' }) : healthy(r)), /the model refused it: "I can't help with writing this recap\."/],
    ['an empty', (r: FakeRequest) => (isRecap(r) ? steps.ok('') : healthy(r)), /it was empty/],
  ])('%s recap is never committed: the offline recap is, with warning AUR4213', async (_label, handler, why) => {
    const root = await makeWorld('refuse-recap');
    server.handler = handler;
    const r = await cli(['episode', 'run', '--provider', 'anthropic', '--json'], root, anthropicEnv(server, KEY));
    expect(r.code, r.stderr.slice(-800)).toBe(0);
    const warning = (JSON.parse(r.stdout) as { warnings: { code: string; message: string }[] }).warnings.find((w) => w.code === 'AUR4213');
    expect(warning?.message).toMatch(why);
    const recap = git(root, 'show', 'HEAD:seasons/season_01/episode_01/recap.md');
    const message = git(root, 'log', '-1', '--format=%B');
    for (const text of [recap, message]) {
      expect(text).not.toContain("can't help");
      expect(text).toMatch(/Previously on \S/);
    }
  }, 180_000);
});
