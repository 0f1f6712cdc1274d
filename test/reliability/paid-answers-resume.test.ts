import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, cli, copyRepo, git, makeWorld, spawnCli } from '../pipeline/world.js';
import { steps, type FakeRequest, type FakeStep } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { modelAnswer } from './fake-model.js';

/**
 * An answer the run paid for is never paid for again by its resume. Whole episodes through the real
 * SDK against the local Messages API, which counts every request: a run stopped while a call is
 * between two of its paid answers (Ctrl-C during the Director's re-ask; the call budget spent just
 * before a JSON re-ask), then resumed, sends the uninterrupted run's requests once each, plus only
 * the one that was in flight and never answered; its resume charges the uninterrupted run's
 * charged_usd. The fake model answers every call as the offline realizers would, the same answer
 * for the same request whatever its position (index 0), so two runs of the same seed send the same requests.
 */
const server = useFakeAnthropic();
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('paid-answers');
}, 120_000);
afterAll(cleanup);

const KEY = 'sk-ant-test-paid-answers';
const answer = (q: FakeRequest): FakeStep => steps.ok(modelAnswer({ ...q, index: 0 }));
/** The Director's own re-ask after an answer that was not JSON (stages/c-director/llm.ts). */
const directorReask = (q: FakeRequest) => JSON.stringify(q.body?.messages ?? '').includes('not a valid director_edit');
const bodies = (qs: readonly FakeRequest[]) => qs.map((q) => q.raw).sort();
const charged = (stdout: string) => (JSON.parse(stdout) as { charged_usd: number }).charged_usd;

/** One uninterrupted `episode run --json` of a fresh copy: the requests it sent and what it charged. */
async function uninterrupted(label: string, handler: (q: FakeRequest) => FakeStep, args: string[] = []): Promise<{ requests: string[]; charged: number }> {
  server.reset();
  server.handler = handler;
  const r = await cli(['episode', 'run', '--provider', 'anthropic', '--json', ...args], copyRepo(pristine, label), anthropicEnv(server, KEY));
  expect(r.code, r.stderr.slice(-1500)).toBe(0);
  return { requests: bodies(server.requests), charged: charged(r.stdout) };
}

/** The uninterrupted run of the fake model's answers, made once for the tests that compare with it. */
let wholeRun: ReturnType<typeof uninterrupted> | undefined;
const whole = () => (wholeRun ??= uninterrupted('paid-whole', answer));

describe.runIf(builtCli())('a resumed run pays once for every answer the interrupted run received', () => {
  it('Ctrl-C while the Director re-asks: its first answer is journaled, the resume sends only the re-ask again', async () => {
    const baseline = await whole();
    expect(baseline.requests.filter((r) => r.includes('not a valid director_edit'))).toHaveLength(1);

    server.reset();
    let pid = 0;
    let interrupted: FakeRequest | undefined;
    // Ctrl-C lands while the re-ask is in flight: the server holds it, never answering.
    server.handler = (q) => {
      if (interrupted || !directorReask(q)) return answer(q);
      interrupted = q;
      process.kill(pid, 'SIGINT');
      return steps.hang();
    };
    const w = copyRepo(pristine, 'paid-interrupted');
    const env = anthropicEnv(server, KEY);
    const stopped = await spawnCli(['episode', 'run', '--provider', 'anthropic', '--json'], w, env, (p) => (pid = p));
    expect(stopped.code, stopped.stderr.slice(-1500)).toBe(130);
    expect(interrupted).toBeDefined();
    const resumed = await spawnCli(['episode', 'run', '--provider', 'anthropic', '--json'], w, env);
    expect(resumed.code, resumed.stderr.slice(-1500)).toBe(0);
    // Was 63 against 61: the Director's first answer (prose the stage re-asked about) was paid again.
    expect(bodies(server.requests)).toEqual([...baseline.requests, interrupted!.raw].sort());
    expect(charged(resumed.stdout)).toBe(baseline.charged);
  }, 300_000);

  it('the call budget spent just before a JSON re-ask (exit 7): the resume replays the paid answer and sends only the re-ask', async () => {
    // One principal's first answer is not JSON: the router re-asks it (budgets.json_reasks).
    const malformedFirst = () => {
      let sent = false;
      return (q: FakeRequest): FakeStep => (sent ? answer(q) : ((sent = true), steps.malformedJson()));
    };
    // One call at a time: that answer is the run's first request and its re-ask the second.
    const whole = await uninterrupted('paid-budget-whole', malformedFirst(), ['--concurrency', '1']);

    server.reset();
    server.handler = malformedFirst();
    const w = copyRepo(pristine, 'paid-budget');
    const cfg = path.join(w, 'aureus.config.yaml');
    const config = fs.readFileSync(cfg, 'utf8');
    fs.writeFileSync(cfg, config.replace(/provider_calls_per_episode: \d+/, 'provider_calls_per_episode: 1'));
    git(w, 'commit', '-qam', 'one request an episode');
    const run = () => cli(['episode', 'run', '--provider', 'anthropic', '--json', '--concurrency', '1'], w, anthropicEnv(server, KEY));
    const stopped = await run();
    expect(stopped.code, stopped.stderr.slice(-1500)).toBe(7);
    expect(stopped.stderr).toContain('AUR4202');
    expect(server.requests).toHaveLength(1);

    fs.writeFileSync(cfg, config);
    git(w, 'commit', '-qam', 'the default budget again');
    const resumed = await run();
    expect(resumed.code, resumed.stderr.slice(-1500)).toBe(0);
    // Was the malformed answer's request sent twice (paid twice; the second time answered well, so
    // no re-ask): the resume did not know it had been answered.
    expect(bodies(server.requests)).toEqual(whole.requests);
    expect(charged(resumed.stdout)).toBe(whole.charged);
  }, 300_000);

  it('`episode plan` then `episode run`: the run answers the planning calls from the plan\'s journal, paying for none twice', async () => {
    const baseline = await whole();
    server.reset();
    server.handler = answer;
    const w = copyRepo(pristine, 'paid-plan');
    const env = anthropicEnv(server, KEY);
    const plan = await cli(['episode', 'plan', '--provider', 'anthropic'], w, env);
    expect(plan.code, plan.stderr.slice(-1500)).toBe(0);
    const run = await cli(['episode', 'run', '--provider', 'anthropic', '--json'], w, env);
    expect(run.code, run.stderr.slice(-1500)).toBe(0);
    // Was 63 against 61: the Director's two answers, rejected (so never served by the record cache), paid again.
    expect(bodies(server.requests)).toEqual(baseline.requests);
    expect(charged(run.stdout)).toBe(baseline.charged);
  }, 300_000);

  it('a run ended by a writer refusal (exit 7) forgets it: the resume asks the refused call afresh instead of replaying it', async () => {
    server.reset();
    const first = (q: FakeRequest) => JSON.stringify(q.body?.messages?.[0]?.content ?? '');
    const isWriter = (q: FakeRequest) => first(q).includes('SCENE_PACKET:');
    server.handler = (q) => (isWriter(q) ? steps.ok("I can't help with that request.", { stop_reason: 'refusal' }) : answer(q));
    const w = copyRepo(pristine, 'paid-refused');
    // A child process: an in-process run that fails leaves its queued calls running after it returns.
    const run = () => spawnCli(['episode', 'run', '--provider', 'anthropic', '--concurrency', '1'], w, anthropicEnv(server, KEY));
    const refused = await run();
    expect(refused.code, refused.stderr.slice(-800)).toBe(7);
    expect(refused.stderr).toContain('AUR4212');
    const [asked, ...again] = server.requests.filter(isWriter);
    expect(again.map((q) => q.raw)).toEqual([asked!.raw]); // asked once more as it was, refused again
    server.handler = answer;
    const resumed = await run();
    expect(resumed.code, resumed.stderr.slice(-800)).toBe(0);
    // The journal keeps a call's paid answers for a resume, but not the refusals the run ended on.
    expect(server.requests.filter((q) => q.raw === asked!.raw)).toHaveLength(3);
  }, 300_000);

  it('several writers at once, all refused (exit 7): the resume asks every refused call afresh, not only the one the run ended on', async () => {
    server.reset();
    const first = (q: FakeRequest) => JSON.stringify(q.body?.messages?.[0]?.content ?? '');
    const isWriter = (q: FakeRequest) => first(q).includes('SCENE_PACKET:');
    server.handler = (q) => (isWriter(q) ? steps.ok("I can't help with that request.", { stop_reason: 'refusal' }) : answer(q));
    const w = copyRepo(pristine, 'paid-refused-siblings');
    const run = () => spawnCli(['episode', 'run', '--provider', 'anthropic', '--concurrency', '4'], w, anthropicEnv(server, KEY));
    const refused = await run();
    expect(refused.code, refused.stderr.slice(-800)).toBe(7);
    expect(refused.stderr).toContain('AUR4212');
    // Other writers were asked alongside the one the run ended on, and refused too.
    const writers = new Set(server.requests.filter(isWriter).map((q) => q.raw));
    expect(writers.size).toBeGreaterThan(1);
    server.reset();
    server.handler = answer;
    const resumed = await run();
    // Was exit 7 again with no request sent: a sibling's refusals, journaled after the run had
    // forgotten its failures, were replayed (AUR4212 for SC02, then only a third run went through).
    expect(resumed.code, resumed.stderr.slice(-800)).toBe(0);
    const asked = new Set(server.requests.filter(isWriter).map((q) => q.raw));
    for (const r of writers) expect(asked.has(r)).toBe(true);
  }, 300_000);
});
