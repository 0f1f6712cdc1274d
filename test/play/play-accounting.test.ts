import { describe, expect, it } from 'vitest';
import { builtCli, cli, copyRepo, git } from '../pipeline/world.js';
import { steps } from '../support/fake-anthropic-server.js';
import { isActor, isBeatClassifier, jsonEvents, playHandler, usePlayModel } from '../support/play-model.js';
import { playScript, records } from './support.js';

/**
 * A play session's model calls are accounted as an episode run's: a run log per session (what
 * `aureus cost --session` totals), the spend in its canonization commits, the retry waits told to
 * the player, the stage's own max_tokens on the wire, the budgets counted over the session's
 * resumes; and a failure says how to go on with the session (its --resume, --model, --max-cost).
 */
const ARGS = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open'];
const ANSWER = { speaker: 'catiline', action: 'shrugs', dialogue: 'At home, Consul, as every honest man was.', internal: 'x', mood: 'cold', tension_shift: 0.1 };

describe.skipIf(!builtCli())('aureus play: the calls of a session', () => {
  const { server, base, env } = usePlayModel('play-accounting');

  it('records every call in the session run log, says the spend in the canon commit, tells retry waits, and asks for the stage max_tokens', async () => {
    let first = true;
    server.handler = playHandler('complication', () => {
      if (first) return (first = false), steps.rateLimited(0.001);
      return steps.json(ANSWER, { usage: { input_tokens: 20_000, output_tokens: 100 } });
    });
    const w = copyRepo(base(), 'play-acc-log');
    const r = await playScript([...ARGS, '--session', 'a1', '--json'], w, 'Where were you?\n/end\n', env());
    expect(r.code, r.stderr).toBe(0);
    const notices = jsonEvents<{ type: string; message?: string }>(r.stdout).filter((e) => e.type === 'notice').map((e) => e.message!);
    expect(notices.some((m) => /429 rate limited, retrying/.test(m))).toBe(true);
    // The stage's limit, under the config's cap (6000): 600 for the Actor's line, 80 for the beat.
    expect(server.requests.filter(isActor).map((q) => q.body?.max_tokens)).toEqual([600, 600]);
    expect(server.requests.filter(isBeatClassifier).map((q) => q.body?.max_tokens)).toEqual([80]);

    const cost = await cli(['cost', '--session', 'a1', '--json'], w);
    expect(cost.code, cost.stderr).toBe(0);
    const report = JSON.parse(cost.stdout) as { file: string; per_role: Record<string, { calls: number }>; total: { calls: number; cost_usd: number; input_tokens: number } };
    expect(report.file).toBe('.aureus/sessions/a1/run_log.jsonl');
    expect(report.per_role.writer!.calls).toBe(1);
    expect(report.per_role.director!.calls).toBe(1);
    expect(report.total.input_tokens).toBeGreaterThanOrEqual(20_000);
    expect(report.total.cost_usd).toBeGreaterThan(0);
    const message = git(w, 'log', '-1', '--format=%B', 'play/a1/1');
    expect(message).toMatch(/^Aureus-Provider: anthropic$/m);
    expect(message).toMatch(/^Aureus-Cost: \$0\.\d+ \(the session so far\)$/m);
    expect(message).not.toMatch(/^Aureus-Cost: \$0\.0+ /m);

    expect((await cli(['cost', '--session', 'nobody'], w)).stderr).toContain('AUR7108');
    expect((await cli(['cost', 's01e01', '--session', 'a1'], w)).code).toBe(2);
  });

  it('--max-cost caps what the session spends over all its resumes, and says how to go on', async () => {
    server.handler = playHandler('complication', () => steps.json(ANSWER, { usage: { input_tokens: 200_000, output_tokens: 1000 } }));
    const w = copyRepo(base(), 'play-acc-cap');
    const r = await playScript([...ARGS, '--session', 'a2'], w, 'Where were you?\n', env());
    expect(r.code, r.stderr).toBe(0);
    const spent = (JSON.parse((await cli(['cost', '--session', 'a2', '--json'], w)).stdout) as { total: { cost_usd: number } }).total.cost_usd;
    expect(spent).toBeGreaterThan(0.3);
    // The resumed process has spent nothing itself: the session has, past this cap.
    const again = await playScript(['play', '--resume', 'a2', '--max-cost', '0.30'], w, 'Answer me.\n', env());
    expect(again.code, again.stderr).toBe(5);
    expect(again.stderr).toContain('AUR4209');
    expect(again.stderr).toContain('aureus: session a2 paused; continue with `aureus play --resume a2`');
    expect(again.stderr).toContain("a session's spend counts across its resumes: continue it with a higher cap, `aureus play --resume a2 --max-cost <usd>`");
    expect(again.stderr).not.toContain('run the same command again');
    expect(server.requests.filter(isActor)).toHaveLength(1);
  });

  it('rate limited past its retries: the session is paused, and the hint names nothing play does not have (--concurrency)', async () => {
    server.handler = playHandler('complication', () => steps.rateLimited(0.001));
    const w = copyRepo(base(), 'play-acc-429');
    const r = await playScript([...ARGS, '--session', 'a5'], w, 'Where were you?\n', env());
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toContain('AUR4203');
    expect(r.stderr).toContain('rate limited even after retries: wait a minute, or raise budgets.retries; the session is paused: continue it with `aureus play --resume a5`');
    expect(r.stderr).not.toContain('--concurrency');
  });

  it('a refusal pauses the session with its own --resume in the hint; --json names the session; --model reroutes the resumed session', async () => {
    server.handler = playHandler('complication', () => steps.ok("I can't write this character.", { stop_reason: 'refusal' }));
    const w = copyRepo(base(), 'play-acc-refusal');
    const r = await playScript([...ARGS, '--session', 'a3'], w, 'Where were you?\n', env());
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toContain('AUR4212');
    expect(r.stderr).toContain('aureus: session a3 paused; continue with `aureus play --resume a3`');
    expect(r.stderr).toContain('continue it with `aureus play --resume a3` (the model is asked again), with another model (`aureus play --resume a3 --model writer=<model-id>`)');
    expect(r.stderr).not.toContain('run the same command again');

    const j = await playScript(['play', '--resume', 'a3', '--json'], w, '', env());
    expect(j.code).toBe(7);
    const lines = jsonEvents<{ type?: string; session?: string; codes?: string[] }>(j.stdout);
    expect(lines).toEqual([expect.objectContaining({ type: 'error', codes: ['AUR4212'], session: 'a3' })]);

    server.handler = playHandler('complication', () => steps.json(ANSWER));
    const other = await playScript(['play', '--resume', 'a3', '--model', 'writer=claude-haiku-5-5', '--json'], w, '', env());
    expect(other.code, other.stderr).toBe(0);
    expect(server.requests.filter(isActor).at(-1)!.body?.model).toBe('claude-haiku-5-5');
    expect(records(w, 'a3').filter((x) => x.type === 'actor')).toHaveLength(1);
  });
});
