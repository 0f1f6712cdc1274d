import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runEpisode } from '../../src/pipeline/run-episode.js';
import type { ProgressSink, SceneCounts } from '../../src/pipeline/progress.js';
import { diag, type Diagnostic } from '../../src/diagnostics/index.js';
import { RunWarnings } from '../../src/cli/progress.js';
import { openLlm } from '../../src/providers/index.js';
import { MemoryRunLog } from '../../src/providers/run-log.js';
import { steps } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { FAKE_KEY, anthropicConfig, criticRequest, tempRoot } from '../providers/helpers.js';
import { cleanup, cli, git, makeWorld } from './world.js';

/** A sink that records every event, in order. */
class Recorder implements ProgressSink {
  events: string[] = [];
  counts_: SceneCounts[] = [];
  ids: string[] = [];
  stage(id: string, state: string): void {
    this.events.push(`${id}:${state}`);
  }
  scenes(ids: string[]): void {
    this.ids = ids;
    this.events.push(`scenes:${ids.length}`);
  }
  scene(id: string, state: string): void {
    this.events.push(`${id}:${state}`);
  }
  counts(c: SceneCounts): void {
    this.counts_.push(c);
  }
  notice(text: string): void {
    this.events.push(`notice:${text}`);
  }
  info(): void {}
  warnings(list: Diagnostic[]): void {
    this.events.push(`warnings:${list.map((d) => `${d.code} ${d.file}`).join(',')}`);
  }
  async close(): Promise<void> {}
}

afterEach(cleanup);

describe('episode run progress: each stage reported when it really runs', () => {
  it('a run that fails ends the stage under way as failed (the commit, with git\'s index locked)', async () => {
    const root = await makeWorld('progress-fail');
    fs.writeFileSync(path.join(root, '.git', 'index.lock'), '');
    const rec = new Recorder();
    await expect(runEpisode({ root, progress: rec, env: {} })).rejects.toThrow(/index\.lock/);
    const stages = rec.events.filter((e) => /^(A|B|C|D|EFG|H|commit):/.test(e));
    expect(stages.slice(-2)).toEqual(['commit:running', 'commit:failed']);
  });

  it('A–D start and end in order, one after the other; E–G counters agree with the scene states', async () => {
    const root = await makeWorld('progress');
    const rec = new Recorder();
    const s = await runEpisode({ root, progress: rec, env: {} });
    expect(s.status).toBe('committed');
    const stages = rec.events.filter((e) => /^(A|B|C|D|EFG|H|commit):/.test(e));
    expect(stages).toEqual([
      'A:running', 'A:done', 'B:running', 'B:done', 'C:running', 'C:done', 'D:running', 'D:done',
      'EFG:running', 'EFG:done', 'H:running', 'H:done', 'commit:running', 'commit:done',
    ]);
    // The proposal calls happen while B runs, not under "A snapshot".
    const n = rec.ids.length;
    expect(n).toBeGreaterThanOrEqual(18);
    for (const c of rec.counts_) expect(c.working + c.queued + c.done).toBe(n);
    expect(rec.counts_[0]).toMatchObject({ working: 0, queued: n, done: 0 });
    expect(rec.counts_.at(-1)).toMatchObject({ working: 0, queued: 0, done: n });
    // While scenes are written, some are working and the queue shrinks as they start.
    expect(rec.counts_.some((c) => c.working > 0)).toBe(true);
  });

  it('the world files\' warnings (AUR1040) are reported before stage A, once, and are in the run\'s warnings too', async () => {
    const root = await makeWorld('progress-crlf');
    const rel = 'world/characters.json';
    fs.writeFileSync(path.join(root, rel), fs.readFileSync(path.join(root, rel), 'utf8').replace(/\n/g, '\r\n'));
    git(root, 'commit', '-qam', 'crlf');
    const rec = new Recorder();
    const warnings: Diagnostic[] = [];
    const s = await runEpisode({ root, progress: rec, env: {}, warnings });
    expect(s.status).toBe('committed');
    expect(rec.events.filter((e) => e.startsWith('warnings:'))).toEqual([`warnings:AUR1040 ${rel}`]);
    // Said before any stage runs, i.e. before the commit that rewrites the file.
    expect(rec.events.slice(0, 2)).toEqual([`warnings:AUR1040 ${rel}`, 'A:running']);
    expect(warnings.filter((w) => w.code === 'AUR1040').map((w) => w.file)).toEqual([rel]);
  });
});

describe('provider waits are shown, not 22 s of silence', () => {
  const server = useFakeAnthropic();

  it('a 429 with retry-after becomes "critic SC03: 429 rate limited, retrying in 1 s", naming the call', async () => {
    server.script(steps.rateLimited(1), steps.json({ verdict: 'PASS', violations: [] }));
    const notices: string[] = [];
    const config = anthropicConfig();
    const llm = openLlm({ root: await tempRoot(), config, env: anthropicEnv(server, FAKE_KEY), runLog: new MemoryRunLog(), onNotice: (t) => notices.push(t) });
    await llm.complete(criticRequest());
    expect(server.requests).toHaveLength(2);
    expect(notices).toEqual([`critic SC03: 429 rate limited, retrying in 1 s (retry 1 of ${config.budgets.retries})`]);
  });
});

describe("the config's warnings reach a run, not only `validate`", () => {
  const server = useFakeAnthropic();

  it('a model at its end-of-life (AUR4010, from a --model flag) is said before stage A and kept in the run\'s warnings', async () => {
    const root = await makeWorld('progress-eol');
    const cfg = path.join(root, 'aureus.config.yaml');
    // Sonnet 4.5 takes no effort and has no default price: the config makes it usable, as a user would
    // (every key not written takes its default).
    fs.writeFileSync(cfg, 'provider: anthropic\neffort:\n  recap: null\nprices:\n  claude-sonnet-4-5: { input: 3, output: 15, cache_write: 3.75, cache_read: 0.3 }\n');
    git(root, 'commit', '-qam', 'sonnet 4.5 for the recap');
    server.script(steps.unauthorized());
    const rec = new Recorder();
    const warnings: Diagnostic[] = [];
    const err = await runEpisode({ root, progress: rec, env: anthropicEnv(server, FAKE_KEY), warnings, overrides: { models: { recap: 'claude-sonnet-4-5' } } }).catch((e: unknown) => e);
    expect([(err as { exitCode?: number }).exitCode, (err as Error).message]).toEqual([7, expect.any(String)]); // the fake API refused the first call
    expect(rec.events.filter((e) => e.startsWith('warnings:') && e !== 'warnings:')).toEqual(['warnings:AUR4010 aureus.config.yaml']);
    expect(rec.events.indexOf('warnings:AUR4010 aureus.config.yaml')).toBeLessThan(rec.events.indexOf('A:running'));
    expect(warnings.filter((w) => w.code === 'AUR4010').map((w) => w.message)).toEqual([expect.stringMatching(/claude-sonnet-4-5.*recap.*is retired on 2026-11-30/)]);
  });

  it('`episode plan` says it too, before the Director\'s and the proposals\' calls', async () => {
    const root = await makeWorld('plan-eol');
    fs.writeFileSync(path.join(root, 'aureus.config.yaml'), 'provider: anthropic\nmodels:\n  director: claude-sonnet-4-5\neffort:\n  director: null\nprices:\n  claude-sonnet-4-5: { input: 3, output: 15, cache_write: 3.75, cache_read: 0.3 }\n');
    git(root, 'commit', '-qam', 'sonnet 4.5 for the Director');
    server.script(steps.unauthorized());
    const r = await cli(['episode', 'plan'], root, anthropicEnv(server, FAKE_KEY));
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/warning AUR4010 model "claude-sonnet-4-5" \(used for director\) is retired on 2026-11-30; the API refuses it from that day[\s\S]*AUR4203/);
  });

  it('`scene rewrite` says it too, before the Writer\'s call, once', async () => {
    const root = await makeWorld('rewrite-eol');
    const staged = await cli(['episode', 'run', '--review'], root);
    expect(staged.code, staged.stderr).toBe(0);
    fs.writeFileSync(path.join(root, 'aureus.config.yaml'), 'provider: anthropic\nmodels:\n  writer: claude-sonnet-4-5\neffort:\n  writer: null\nprices:\n  claude-sonnet-4-5: { input: 3, output: 15, cache_write: 3.75, cache_read: 0.3 }\n');
    git(root, 'commit', '-qam', 'sonnet 4.5 for the Writer');
    server.script(steps.unauthorized());
    const r = await cli(['scene', 'rewrite', 'SC01', '--note', 'Colder.'], root, anthropicEnv(server, FAKE_KEY));
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/warning AUR4010 model "claude-sonnet-4-5" \(used for writer\) is retired on 2026-11-30; the API refuses it from that day[\s\S]*AUR4203/);
    expect(r.stderr.match(/AUR4010/g)).toHaveLength(1);
  }, 120_000);

  it('a warning said early is not said again at the end when a later step makes it anew (scene rewrite, then its restage)', () => {
    const printed: string[][] = [];
    const early = new RunWarnings((ws) => printed.push(ws.map((w) => w.code)));
    const eol = () => diag('AUR4010', { model: 'claude-sonnet-4-5', slots: 'writer', date: '2026-11-30', lineup: 'x' }, { file: 'aureus.config.yaml', pointer: '/models/writer' });
    early.say([eol()]);
    const lock = diag('AUR6003', { pid: 1, reason: 'dead' });
    expect(early.unsaid([eol(), lock])).toEqual([lock]);
    expect(printed).toEqual([['AUR4010']]);
  });
});
